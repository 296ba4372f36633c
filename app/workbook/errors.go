package workbook

import (
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// problemsSheet lists every problem of an error workbook, with its place.
const problemsSheet = "Problems"

// ErrorWorkbook writes the operator's own rows back as an xlsx workbook:
// the same sheet name and cells, every cell with a problem filled (red for
// errors, yellow for warnings) and commented with what is wrong, and an
// Errors column that sums up each row. A Problems sheet lists them all.
// Once corrected, the sheet imports again with the same mapping: its
// headers are unchanged and the Errors column is ignored.
//
// header is the number of the header row (Mapping.HeaderRow), whose Errors
// cell gets the column's name.
func ErrorWorkbook(t *ingest.Table, header int, r *schema.Report, l lang.Tag) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	sheet := t.Sheet
	if sheet == "" {
		sheet = "Data"
	}
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	st, err := newErrorStyles(f)
	if err != nil {
		return nil, err
	}
	q := newQuotedText(f)
	byRow := ingest.ProblemsByRow(t, r)
	width := t.Width()
	errCol, _ := excelize.ColumnNumberToName(width + 1)
	for i := range t.Rows {
		row := &t.Rows[i]
		n := row.Number
		if t.Keyed {
			n = row.Number + 1 // a JSON table's keys become row 1
		}
		for c, cell := range row.Cells {
			if cell.Empty() {
				continue
			}
			name := fmt.Sprintf("%s%d", xlsx.ColumnName(c), n)
			if err := writeCell(q, sheet, name, cell); err != nil {
				return nil, fmt.Errorf("writing %s: %w", name, err)
			}
		}
		rp := byRow[row.Number]
		if row.Number == header {
			cell := fmt.Sprintf("%s%d", errCol, n)
			if err := q.setStr(sheet, cell, ingest.ErrorsColumn); err != nil {
				return nil, err
			}
			if err := q.setStyle(sheet, cell, st.header); err != nil {
				return nil, err
			}
			continue
		}
		if rp == nil || row.Number == 0 {
			continue
		}
		if err := markRow(q, sheet, n, errCol, rp, st, l); err != nil {
			return nil, err
		}
	}
	if err := f.SetColWidth(sheet, errCol, errCol, 60); err != nil {
		return nil, err
	}
	if err := writeProblemsSheet(q, r, l); err != nil {
		return nil, err
	}
	f.SetActiveSheet(0)
	return writeBytes(f)
}

// markRow colours and comments the cells of one row and fills its Errors
// cell.
func markRow(q *quotedText, sheet string, n int, errCol string, rp *ingest.RowProblems, st *errorStyles, l lang.Tag) error {
	f := q.f
	for c, ps := range rp.ByColumn {
		name := fmt.Sprintf("%s%d", xlsx.ColumnName(c), n)
		style := st.warning
		var lines []string
		for _, p := range ps {
			if p.Severity == schema.Error {
				style = st.error
			}
			lines = append(lines, l.T(string(p.Severity))+": "+p.Message)
		}
		if err := q.setStyle(sheet, name, style); err != nil {
			return err
		}
		if err := f.AddComment(sheet, excelize.Comment{Cell: name, Author: "Bulkdesk", Text: strings.Join(lines, "\n"), Width: 320, Height: 120}); err != nil {
			return err
		}
	}
	cell := fmt.Sprintf("%s%d", errCol, n)
	if err := q.setStr(sheet, cell, rp.ErrorsText(l)); err != nil {
		return err
	}
	return q.setStyle(sheet, cell, st.errorsText)
}

// writeCell writes a cell with the type it had: numbers as the file
// stored them, text as text, booleans as booleans. Formulas are written
// as their last value, never as formulas. A cell marked as a number that
// does not hold one is written as text, like any other (see quotedText).
func writeCell(q *quotedText, sheet, name string, c ingest.Cell) error {
	switch {
	case c.Kind == ingest.Number && inert.Number(c.Value):
		return q.f.SetCellDefault(sheet, name, c.Value)
	case c.Kind == ingest.Bool:
		return q.f.SetCellBool(sheet, name, c.Value == "TRUE")
	}
	return q.setStr(sheet, name, c.Value)
}

type errorStyles struct{ error, warning, header, errorsText int }

func newErrorStyles(f *excelize.File) (*errorStyles, error) {
	var st errorStyles
	m := &styleMaker{f: f}
	mk := m.style
	st.error = mk(&excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}}, Font: &excelize.Font{Color: "9C0006"}})
	st.warning = mk(&excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFEB9C"}}, Font: &excelize.Font{Color: "9C5700"}})
	st.header = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Color: "9C0006"}})
	st.errorsText = mk(&excelize.Style{Font: &excelize.Font{Color: "9C0006"}, Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	return &st, m.err
}

func writeProblemsSheet(q *quotedText, r *schema.Report, l lang.Tag) error {
	f := q.f
	if _, err := f.NewSheet(problemsSheet); err != nil {
		return err
	}
	rows := [][]any{{l.T("Where"), l.T("Field"), l.T("Severity"), l.T("Problem")}}
	for _, p := range r.Problems {
		rows = append(rows, []any{ingest.Where(p), p.Field, l.T(string(p.Severity)), p.Message})
	}
	for i, row := range rows {
		if err := q.setRow(problemsSheet, i+1, row); err != nil {
			return err
		}
	}
	for col, w := range map[string]float64{"A": 16, "B": 30, "C": 10, "D": 100} {
		if err := f.SetColWidth(problemsSheet, col, col, w); err != nil {
			return err
		}
	}
	return nil
}
