package ingest

import (
	"context"

	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// ChooseSheet returns the sheet of a workbook to read for kind k when the
// operator has not picked one, and how it was chosen: of the visible
// sheets with values, the one whose header row has the most headers that
// map to the kind's fields, so that a cover or summary sheet before the
// data is passed over. Only the top rows of each sheet are read.
//
// One sheet that maps best is detected, with its headers as evidence.
// Sheets that tie for the best are undecided: the default sheet
// ([File.DefaultSheet]) is read, and the evidence holds the headers of
// each tied sheet. When no sheet maps, or the file has a single sheet
// with values (a CSV file always), the default sheet is read by default,
// without evidence.
func (f *File) ChooseSheet(k *schema.Kind, v *schema.Validator) (string, reading.Decision) {
	return f.chooseSheet(newMatcher(newCatalog(k, v.Fields(k))))
}

// ChooseSheetByMapping is ChooseSheet for a file read with a saved
// mapping whose sheet it lacks: the headers the mapping names count as
// the fields they fill, as well as the usual headers of the kind.
func (f *File) ChooseSheetByMapping(k *schema.Kind, v *schema.Validator, saved Mapping) (string, reading.Decision) {
	mt := newMatcher(newCatalog(k, v.Fields(k)))
	alias := make(map[string]string, len(mt.alias)+len(saved.Columns))
	for h, p := range mt.alias {
		alias[h] = p
	}
	for _, c := range saved.Columns {
		if n := normalizeHeader(c.Header); n != "" && c.Field != "" {
			alias[n] = c.Field
		}
	}
	mt.alias = alias
	return f.chooseSheet(mt)
}

func (f *File) chooseSheet(mt *matcher) (string, reading.Decision) {
	def := f.DefaultSheet()
	decision := reading.Decision{Value: def, How: reading.Default}
	if f.Format != XLSX {
		return def, decision
	}
	if name, d, ok := f.templateSheet(mt.cat.kind.ID); ok {
		return name, d
	}
	var candidates []int
	for i, s := range f.Sheets() {
		if !s.Hidden && !s.Empty {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) < 2 {
		return def, decision
	}
	var best []sheetScored
	for _, i := range candidates {
		t, err := f.xlsxRows(context.Background(), i, headerScan, nil)
		if err != nil {
			continue // reading it in full says what is wrong
		}
		rows, _ := headerRows(t, mt)
		top := bestHeaderRows(rows)
		if len(top) == 0 {
			continue
		}
		s := sheetScore(t, top[0])
		if s.matched == 0 {
			continue
		}
		switch {
		case len(best) == 0 || s.matched > best[0].matched:
			best = append(best[:0], s)
		case s.matched == best[0].matched:
			best = append(best, s)
		}
	}
	switch len(best) {
	case 0:
		return def, decision
	case 1:
		return best[0].name, reading.Decision{Value: best[0].name, How: reading.Detected, Evidence: best[0].cells}
	}
	decision.Undecided = true
	for _, s := range best {
		decision.Evidence = append(decision.Evidence, s.cells...)
	}
	return def, decision
}

// TopRows reads the first n rows of a sheet of a workbook, to tell what
// the sheet holds without reading it whole; for a CSV or JSON file it
// reads the table.
func (f *File) TopRows(sheet string, n int) (*Table, error) {
	if f.Format != XLSX {
		return f.Table(sheet, nil)
	}
	for i, s := range f.wb.Sheets {
		if s.Name == sheet {
			return f.xlsxRows(context.Background(), i, n, nil)
		}
	}
	return f.Table(sheet, nil) // says there is no such sheet
}

// TableFor reads the sheet of the file to import as kind k: sheet, as
// the operator picked it, or when sheet is "" the one [File.ChooseSheet]
// chooses. The table's Reading.Sheet says which and how.
func (f *File) TableFor(ctx context.Context, sheet string, k *schema.Kind, v *schema.Validator, progress Progress) (*Table, error) {
	if sheet != "" || f.Format != XLSX {
		return f.TableContext(ctx, sheet, progress)
	}
	name, d := f.ChooseSheet(k, v)
	t, err := f.TableContext(ctx, name, progress)
	if err != nil {
		return nil, err
	}
	t.Reading.Sheet = d
	return t, nil
}

// A sheetScored is how well a sheet's header fits a kind.
type sheetScored struct {
	name string
	// matched counts the fields the header row maps with values below.
	matched int
	cells   []reading.Cell
}

// sheetScore scores the header row hr of the top rows t of a sheet: the
// fields its headers map, each once, whose column holds a value below
// it. A sheet that documents the fields (a template's list of them, one
// per row, with its path and title) names a field per row, often twice,
// and does not fill it.
func sheetScore(t *Table, hr headerRow) sheetScored {
	s := sheetScored{name: t.Sheet}
	seen := make(map[string]bool)
	for _, h := range hr.hits {
		if seen[h.path] || !valueBelow(t, hr.number, h.col) {
			continue
		}
		seen[h.path] = true
		s.matched++
		if len(s.cells) < keepHeaderCells {
			c := h.cell
			c.Suggests = t.Sheet
			s.cells = append(s.cells, c)
		}
	}
	return s
}

// valueBelow reports whether column col of t holds a value below row n.
func valueBelow(t *Table, n, col int) bool {
	for i := range t.Rows {
		if t.Rows[i].Number > n && !t.Rows[i].Cell(col).Empty() {
			return true
		}
	}
	return false
}
