// Package workbook writes the files Bulkdesk hands back to operators:
// templates to fill in, error workbooks that show every problem at its
// cell, and CSV exports that a spreadsheet cannot run as formulas. Each
// writes to bytes in memory, so it works in the browser too. No cell is
// ever a formula, and text that begins like one is written so that a
// spreadsheet program shows it as text (quotedText, app/inert).
//
// Whatever it writes reads back through app/ingest with no mapping step:
// headers are field paths (or names the import knows), and the columns it
// adds (Errors) are ignored on import.
package workbook

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// templateRows is how many rows below the header get dropdowns and
// formats: a bulk holds at most this many elements.
const templateRows = schema.MaxElements

// Sheet names of a template.
const (
	fieldsSheet = "Fields"
	listsSheet  = "Lists"
)

// TemplateXLSX writes kind k's template as an xlsx workbook: a sheet named
// after the kind with a header row of its fields (required ones marked
// with *), one example row, dropdowns for lists of values and booleans,
// text-formatted id columns and a frozen header; a Fields sheet explains
// every column.
func TemplateXLSX(k *schema.Kind, fields []schema.Field, l lang.Tag) ([]byte, error) {
	cols := ingest.TemplateColumns(k, fields)
	f := excelize.NewFile()
	defer f.Close()
	sheet := k.ID
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	st, err := newTemplateStyles(f)
	if err != nil {
		return nil, err
	}
	q := newQuotedText(f)
	lists := &listWriter{q: q}
	for i, c := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		if err := writeTemplateColumn(q, sheet, name, c, st, lists, l); err != nil {
			return nil, fmt.Errorf("column %s (%s): %w", name, c.Path, err)
		}
	}
	if err := f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return nil, err
	}
	if err := writeFieldsSheet(q, k, cols, st, l); err != nil {
		return nil, err
	}
	if lists.used {
		if err := f.SetSheetVisible(listsSheet, false); err != nil {
			return nil, err
		}
	}
	f.SetActiveSheet(0)
	return writeBytes(f)
}

// templateStyles are the cell styles a template uses.
type templateStyles struct {
	header, required, text, whole, date, example, title, wrap int
}

// styleMaker registers styles, keeping the first error.
type styleMaker struct {
	f   *excelize.File
	err error
}

func (m *styleMaker) style(s *excelize.Style) int {
	if m.err != nil {
		return 0
	}
	id, err := m.f.NewStyle(s)
	m.err = err
	return id
}

func newTemplateStyles(f *excelize.File) (*templateStyles, error) {
	var st templateStyles
	m := &styleMaker{f: f}
	mk := m.style
	textFmt := "@"
	st.header = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}}, NumFmt: 49})
	st.required = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Color: "9C0006"}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FCE4D6"}}, NumFmt: 49})
	st.text = mk(&excelize.Style{CustomNumFmt: &textFmt})
	st.whole = mk(&excelize.Style{NumFmt: 1})
	st.date = mk(&excelize.Style{CustomNumFmt: &textFmt})
	st.example = mk(&excelize.Style{Font: &excelize.Font{Italic: true, Color: "808080"}, CustomNumFmt: &textFmt})
	st.title = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 13}})
	st.wrap = mk(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	return &st, m.err
}

func writeTemplateColumn(q *quotedText, sheet, name string, c ingest.TemplateColumn, st *templateStyles, lists *listWriter, l lang.Tag) error {
	f := q.f
	header := st.header
	if c.Required {
		header = st.required
	}
	body := st.text // text keeps ids' digits and leading zeros as typed
	switch {
	case c.Field.Type == "integer" || c.Field.Type == "number":
		body = st.whole
	case c.Field.Type == "boolean":
		body = 0
	case c.DateParts || c.Field.Format == "date":
		body = st.date // dates typed as 1990-01-31 stay text, read exactly
	}
	if body != 0 {
		// A column style formats every cell typed later without writing
		// ten thousand empty cells.
		if err := f.SetColStyle(sheet, name, body); err != nil {
			return err
		}
	}
	if err := q.setStr(sheet, name+"1", c.Header); err != nil {
		return err
	}
	if err := q.setStyle(sheet, name+"1", header); err != nil {
		return err
	}
	if err := f.SetColWidth(sheet, name, name, float64(min(40, max(14, len(c.Header)+2)))); err != nil {
		return err
	}
	if err := writeExample(q, sheet, name+"2", c); err != nil {
		return err
	}
	values := c.Field.Enum
	if c.Field.Type == "boolean" {
		values = []string{"TRUE", "FALSE"}
	}
	if len(values) == 0 || c.Field.Type == "array" {
		return nil
	}
	dv := excelize.NewDataValidation(true)
	dv.Sqref = fmt.Sprintf("%s2:%s%d", name, name, templateRows+1)
	if len(strings.Join(values, ",")) <= 250 {
		if err := dv.SetDropList(values); err != nil {
			return err
		}
	} else {
		ref, err := lists.add(values)
		if err != nil {
			return err
		}
		dv.SetSqrefDropList(ref)
	}
	dv.SetError(excelize.DataValidationErrorStyleWarning, c.Path, l.T("Choose one of the listed values."))
	return f.AddDataValidation(sheet, dv)
}

// writeExample writes the example value with the type the column takes.
func writeExample(q *quotedText, sheet, cell string, c ingest.TemplateColumn) error {
	switch {
	case c.Example == "":
		return nil
	case c.Field.Type == "boolean":
		return q.f.SetCellBool(sheet, cell, c.Example == "TRUE")
	case (c.Field.Type == "integer" || c.Field.Type == "number") && inert.Number(c.Example):
		return q.f.SetCellDefault(sheet, cell, c.Example)
	}
	return q.setStr(sheet, cell, c.Example)
}

// listWriter puts long lists of values on a hidden sheet, since a list
// typed into a dropdown is limited to 255 characters.
type listWriter struct {
	q    *quotedText
	used bool
	col  int
}

func (l *listWriter) add(values []string) (string, error) {
	if !l.used {
		if _, err := l.q.f.NewSheet(listsSheet); err != nil {
			return "", err
		}
		l.used = true
	}
	l.col++
	name, _ := excelize.ColumnNumberToName(l.col)
	for i, v := range values {
		if err := l.q.setStr(listsSheet, fmt.Sprintf("%s%d", name, i+1), v); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%s!$%s$1:$%s$%d", listsSheet, name, name, len(values)), nil
}

// writeFieldsSheet explains every column of the template in words.
func writeFieldsSheet(q *quotedText, k *schema.Kind, cols []ingest.TemplateColumn, st *templateStyles, l lang.Tag) error {
	f := q.f
	if _, err := f.NewSheet(fieldsSheet); err != nil {
		return err
	}
	rows := [][]any{
		{l.F("%s: one row per operation, up to %s rows. Columns marked * are required.", l.T(k.Title), l.Count(schema.MaxElements))},
		{l.T("Amounts are whole numbers in the currency's smallest unit (1050 = EUR 10.50) unless you choose major units when importing. Leave a cell empty to leave the field out. Row 2 is an example: it is left out of the bulk while unchanged.")},
		{},
		{l.T("Column"), l.T("Header"), l.T("Field"), l.T("Required"), l.T("What it takes"), l.T("Allowed values"), l.T("Description")},
	}
	for i, c := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		req := ""
		switch {
		case c.Required:
			req = l.T("required")
		case c.Field.Required && c.Field.Conditional:
			req = l.T("required in some forms")
		}
		rules := c.Field.Rules(l)
		if c.DateParts {
			rules = l.T("date (YYYY-MM-DD)")
		}
		rows = append(rows, []any{name, c.Header, c.Path, req, rules, strings.Join(c.Field.Enum, ", "), l.T(c.Field.Description)})
	}
	// Styled first: a cell written after keeps its style, quoted where
	// its text begins like a formula.
	if err := f.SetCellStyle(fieldsSheet, "A1", "A1", st.title); err != nil {
		return err
	}
	if err := f.SetCellStyle(fieldsSheet, "A4", "G4", st.header); err != nil {
		return err
	}
	if err := f.SetCellStyle(fieldsSheet, "A5", fmt.Sprintf("G%d", len(rows)), st.wrap); err != nil {
		return err
	}
	for i, r := range rows {
		if err := q.setRow(fieldsSheet, i+1, r); err != nil {
			return err
		}
	}
	for col, w := range map[string]float64{"A": 8, "B": 28, "C": 36, "D": 12, "E": 40, "F": 30, "G": 60} {
		if err := f.SetColWidth(fieldsSheet, col, col, w); err != nil {
			return err
		}
	}
	return f.SetPanes(fieldsSheet, &excelize.Panes{Freeze: true, YSplit: 4, TopLeftCell: "A5", ActivePane: "bottomLeft"})
}

// TemplateCSV writes kind k's template as CSV: the header row and the
// example row.
func TemplateCSV(k *schema.Kind, fields []schema.Field) ([]byte, error) {
	cols := ingest.TemplateColumns(k, fields)
	header := make([]string, len(cols))
	example := make([]string, len(cols))
	for i, c := range cols {
		header[i], example[i] = c.Header, c.Example
	}
	var buf bytes.Buffer
	buf.WriteString("\ufeff") // spreadsheets then open the file as UTF-8
	w := inert.NewCSVWriter(&buf)
	w.Write(header)
	w.Write(example)
	return buf.Bytes(), w.Error()
}

func writeBytes(f *excelize.File) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
