package workbook

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// exampleMoment is the moment the Fields sheet shows as an example of a
// date and time.
var exampleMoment = time.Date(2030, 1, 15, 9, 30, 0, 0, time.UTC)

// dateLayouts write a date, and a date and time, as the template's date
// cells show them in each language.
var dateLayouts = map[lang.Tag][2]string{
	lang.English: {"2006-01-02", "2006-01-02 15:04"},
	lang.German:  {"02.01.2006", "02.01.2006 15:04"},
	lang.French:  {"02/01/2006", "02/01/2006 15:04"},
}

func layouts(l lang.Tag) [2]string {
	if d, ok := dateLayouts[l]; ok {
		return d
	}
	return dateLayouts[lang.English]
}

// templateDescriptions replace, in a template, the descriptions of
// fields that the template types otherwise than the API takes them.
var templateDescriptions = map[string]string{
	"scheduledTimestamp":           lang.Mark("When the transaction should run. Leave empty to run it at once."),
	"spendLimit[0].startTimestamp": lang.Mark("When the limit starts to apply."),
}

// writeFieldsSheet explains every column of the template in words, with
// its field's path, what it takes and an example.
func writeFieldsSheet(q *quotedText, k *schema.Kind, cols []ingest.TemplateColumn, words []string, st *templateStyles, o Template) error {
	l := o.Lang
	f := q.f
	fieldsSheet := l.T("Fields")
	zone := l.T("Dates and times are read in the time zone you choose when you import the file.")
	if o.TimeZone != "" {
		zone = l.F("Dates and times are in the time zone %s.", o.TimeZone)
	}
	notes := []string{
		l.F("Amounts are written in the currency's units, with its decimals: %s is EUR %s. Dates and times go in date cells, as your spreadsheet writes them: %s.",
			money.FormatWith(1050, 2, l.Separators()), money.FormatWith(1050, 2, l.Separators()), exampleMoment.Format(layouts(l)[1])),
		zone,
		l.T("A column with a list takes one of its entries. Leave a cell empty to leave the field out. Keep this sheet: with a hidden one, it tells Bulkdesk how to read the workbook."),
	}
	rows := [][]any{
		{l.F("%s: one row per operation, up to %s rows. Columns marked * are required.", l.T(k.Title), l.Count(schema.MaxElements))},
	}
	for _, n := range notes {
		rows = append(rows, []any{n})
	}
	rows = append(rows, []any{}, []any{l.T("Column"), l.T("Header"), l.T("Field"), l.T("Required"), l.T("What it takes"), l.T("Allowed values"), l.T("Example"), l.T("Description")})
	headerRow := len(rows)
	for i, c := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		req := ""
		switch {
		case c.Required:
			req = l.T("required")
		case c.Field.Required && c.Field.Conditional:
			req = l.T("required in some forms")
		}
		allowed := ""
		if len(c.Field.Enum) > 0 {
			allowed = strings.Join(ingest.Choices(c.Field, l), ", ")
		}
		desc := c.Field.Description
		if d, ok := templateDescriptions[c.Path]; ok {
			desc = d
		}
		rows = append(rows, []any{name, words[i], c.Path, req, takes(c, cols, words, l), allowed, exampleText(c, l), l.T(desc)})
	}
	// Styled first: a cell written after keeps its style, quoted where
	// its text begins like a formula.
	if err := f.SetCellStyle(fieldsSheet, "A1", "A1", st.title); err != nil {
		return err
	}
	if err := f.SetCellStyle(fieldsSheet, "A2", fmt.Sprintf("A%d", 1+len(notes)), st.note); err != nil {
		return err
	}
	for n := 2; n <= 1+len(notes); n++ {
		if err := f.MergeCell(fieldsSheet, fmt.Sprintf("A%d", n), fmt.Sprintf("H%d", n)); err != nil {
			return err
		}
		if err := f.SetRowHeight(fieldsSheet, n, 32); err != nil {
			return err
		}
	}
	if err := f.SetCellStyle(fieldsSheet, fmt.Sprintf("A%d", headerRow), fmt.Sprintf("H%d", headerRow), st.header); err != nil {
		return err
	}
	if err := f.SetCellStyle(fieldsSheet, fmt.Sprintf("A%d", headerRow+1), fmt.Sprintf("H%d", len(rows)), st.wrap); err != nil {
		return err
	}
	for i, r := range rows {
		if err := q.setRow(fieldsSheet, i+1, r); err != nil {
			return err
		}
	}
	for col, w := range map[string]float64{"A": 8, "B": 28, "C": 36, "D": 12, "E": 40, "F": 30, "G": 20, "H": 60} {
		if err := f.SetColWidth(fieldsSheet, col, col, w); err != nil {
			return err
		}
	}
	top := "A" + strconv.Itoa(headerRow+1)
	return f.SetPanes(fieldsSheet, &excelize.Panes{Freeze: true, YSplit: headerRow, TopLeftCell: top, ActivePane: "bottomLeft"})
}

// takes says in words what a column takes, as the template types it.
func takes(c ingest.TemplateColumn, cols []ingest.TemplateColumn, words []string, l lang.Tag) string {
	switch c.Reads() {
	case ingest.ReadsAmount:
		if letter := currencyLetter(cols, c); letter != "" && !strings.Contains(c.Path, ".") {
			n, _ := excelize.ColumnNameToNumber(letter)
			return l.F("amount in the currency of column %s (%s), with its decimals", letter, strings.TrimSuffix(words[n-1], " *"))
		}
		return l.T("amount in the currency's units, with its decimals")
	case ingest.ReadsMoment:
		return l.F("date, or date and time (%s)", exampleMoment.Format(layouts(l)[1]))
	case ingest.ReadsDate:
		return l.F("date (%s)", exampleMoment.Format(layouts(l)[0]))
	case ingest.ReadsChoice:
		return l.T("one entry of the list")
	case ingest.ReadsYesNo:
		return l.T("yes or no")
	}
	return c.Field.Rules(l)
}

// exampleText is a column's example as the operator types it.
func exampleText(c ingest.TemplateColumn, l lang.Tag) string {
	if c.Example == "" {
		return ""
	}
	switch c.Reads() {
	case ingest.ReadsAmount:
		n, err := strconv.ParseInt(c.Example, 10, 64)
		if err != nil {
			return c.Example
		}
		return money.FormatWith(n, 2, l.Separators())
	case ingest.ReadsMoment:
		return exampleMoment.Format(layouts(l)[1])
	case ingest.ReadsDate:
		d, err := time.Parse("2006-01-02", c.Example)
		if err != nil {
			return c.Example
		}
		return d.Format(layouts(l)[0])
	case ingest.ReadsChoice:
		return ingest.ChoiceWords(c.Example, l)
	case ingest.ReadsYesNo:
		return l.T("Yes")
	}
	return c.Example
}

// writeMark writes the template's mark on a sheet of its own, hidden
// from the spreadsheet program's list of sheets: what the template is,
// and how each column of its data sheet reads.
func writeMark(f *excelize.File, k *schema.Kind, sheet string, cols []ingest.TemplateColumn, words []string, o Template) error {
	m := ingest.TemplateMark{Version: ingest.TemplateVersion, Kind: k.ID, BackOffice: o.BackOffice, Lang: string(o.Lang), Sheet: sheet, TimeZone: o.TimeZone}
	for i, c := range cols {
		m.Columns = append(m.Columns, ingest.MarkedColumn{Header: words[i], Field: c.Path, Reads: c.Reads()})
	}
	text, err := ingest.MarshalTemplateMark(m)
	if err != nil {
		return err
	}
	if _, err := f.NewSheet(ingest.TemplateMarkSheet); err != nil {
		return err
	}
	if err := f.SetCellStr(ingest.TemplateMarkSheet, "A1", o.Lang.T("This sheet tells Bulkdesk how to read the workbook: leave it as it is.")); err != nil {
		return err
	}
	if err := f.SetCellStr(ingest.TemplateMarkSheet, "A2", ingest.TemplateMarkToken); err != nil {
		return err
	}
	if err := f.SetCellStr(ingest.TemplateMarkSheet, "B2", text); err != nil {
		return err
	}
	return f.SetSheetVisible(ingest.TemplateMarkSheet, false, true)
}
