package ingest

import (
	"context"
	"errors"

	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
)

// xlsxTable reads sheet i of the workbook into a table.
func (f *File) xlsxTable(ctx context.Context, i int, progress Progress) (*Table, error) {
	return f.xlsxRows(ctx, i, 0, progress)
}

// errTop stops reading a sheet once its top rows are read.
var errTop = errors.New("top rows read")

// xlsxRows reads sheet i of the workbook into a table: its first top rows
// with values when top > 0 (without merged ranges), else all of them.
func (f *File) xlsxRows(ctx context.Context, i, top int, progress Progress) (*Table, error) {
	sh := f.wb.Sheets[i]
	t := &Table{File: f.Name, Sheet: sh.Name, Format: XLSX, Formats: []string{""}, Date1904: f.wb.Date1904, HiddenSheet: sh.Hidden, Notes: f.Notes, w: f.w}
	formatIndex := map[int]uint16{} // style → index in t.Formats
	var hint xlsx.SizeHint
	if top == 0 {
		hint = f.wb.SizeHint(i)
	}
	total := hint.LastRow
	maxRows := f.limits.tableRows()
	t.Rows = make([]Row, 0, min(hint.Rows, maxRows))
	var blocks cellBlocks
	blocks.expect(hint.Cells)
	tooMany := errors.New("too many rows")
	extras, err := f.wb.ReadSheet(i, func(r *xlsx.Row) error {
		if top > 0 && len(t.Rows) >= top {
			return errTop
		}
		// Refused as soon as the sheet passes the limit, before its further
		// rows cost memory and time.
		if len(t.Rows) >= maxRows {
			return tooMany
		}
		width := 0
		if n := len(r.Cells); n > 0 {
			width = r.Cells[n-1].Col + 1
		}
		cells := blocks.take(width)
		for _, c := range r.Cells {
			cell := Cell{Value: c.Value}
			switch c.Type {
			case xlsx.Number:
				cell.Kind = Number
			case xlsx.String:
				cell.Kind = Text
				if c.NumberText {
					cell.Flags |= NumberText
				}
			case xlsx.Bool:
				cell.Kind = Bool
				cell.Value = "FALSE"
				if c.Value == "1" || c.Value == "true" {
					cell.Value = "TRUE"
				}
			case xlsx.Error:
				cell.Kind = ErrorValue
			case xlsx.Date:
				cell.Kind = DateText
			}
			if c.Value == "" {
				cell.Kind = Blank
			}
			if c.Formula {
				cell.Flags |= Formula
				if !c.Cached {
					cell.Flags |= NoCachedValue
				}
			}
			if c.Style != 0 && cell.Kind == Number {
				idx, ok := formatIndex[c.Style]
				if !ok {
					idx = t.formatIndex(f.wb.NumberFormat(c.Style))
					formatIndex[c.Style] = idx
				}
				cell.Format = idx
			}
			cells[c.Col] = cell
		}
		t.Rows = append(t.Rows, Row{Number: r.Number, Hidden: r.Hidden, Cells: cells})
		if len(t.Rows)%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(len(t.Rows), max(total, len(t.Rows)))
			}
		}
		return nil
	})
	if top > 0 && errors.Is(err, errTop) {
		return t, nil
	}
	if errors.Is(err, tooMany) {
		return nil, f.tooManyRows(sh.Name, f.w.F("the sheet has more than %s rows", f.w.Count(maxRows)))
	}
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		msg := f.w.T("the sheet cannot be read: the workbook is damaged; save it again as .xlsx or .csv")
		if errors.Is(err, xlsx.ErrTooLarge) {
			msg = f.partTooLarge()
		}
		return nil, f.readError(sh.Name, msg, err)
	}
	t.Merged = extras.Merged
	t.markMerged()
	if progress != nil {
		progress(len(t.Rows), len(t.Rows))
	}
	return t, nil
}

func (t *Table) formatIndex(code string) uint16 {
	for i, c := range t.Formats {
		if c == code {
			return uint16(i)
		}
	}
	if len(t.Formats) >= 1<<16-1 {
		return 0
	}
	t.Formats = append(t.Formats, code)
	return uint16(len(t.Formats) - 1)
}

// markMerged flags the cells a merged range covers, other than its
// top-left one, in the rows the table has.
func (t *Table) markMerged() {
	for _, m := range t.Merged {
		if (m.LastRow-m.FirstRow+1)*(m.LastCol-m.FirstCol+1) > 1<<20 {
			continue // a whole-column merge: nothing useful to flag
		}
		for n := m.FirstRow; n <= m.LastRow; n++ {
			i := t.RowIndex(n)
			if i < 0 {
				continue
			}
			r := &t.Rows[i]
			for c := m.FirstCol; c <= m.LastCol; c++ {
				if n == m.FirstRow && c == m.FirstCol {
					continue
				}
				if c >= len(r.Cells) {
					grown := make([]Cell, m.LastCol+1)
					copy(grown, r.Cells)
					r.Cells = grown
				}
				r.Cells[c].Flags |= MergedPart
			}
		}
	}
}
