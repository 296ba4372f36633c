// Package workbook writes the files Bulkdesk hands back to operators:
// templates to fill in, error workbooks that show every problem at its
// cell, and CSV exports that a spreadsheet cannot run as formulas. Each
// writes to bytes in memory, so it works in the browser too. No cell is
// ever a formula, and text that begins like one is written so that a
// spreadsheet program shows it as text (quotedText, app/inert).
//
// Whatever it writes reads back through app/ingest with no mapping step.
// A template's data sheet is headed in the operator's words and typed as
// people type (amounts with their decimals, dates in date cells, choices
// from dropdowns in words); a hidden sheet carries its mark
// (ingest.TemplateMark), which tells the reader exactly how its columns
// read. Workbooks of elements and error workbooks are headed with the
// fields' paths (or names the import knows), and the columns they add
// (Errors) are ignored on import.
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

// listsSheet is the hidden sheet of a template's dropdown lists; its
// Fields sheet is named in its language.
const listsSheet = "Lists"

// Template says how to write a template.
type Template struct {
	// Lang is the language of its headers, words and formats.
	Lang lang.Tag
	// TimeZone, when set, is the IANA time zone its dates and times are
	// in: the workbook says so and reads back in it.
	TimeZone string
	// BackOffice marks a template of the kind's back-office variant.
	BackOffice bool
}

// TemplateXLSX writes kind k's template in language l (see WriteTemplate).
func TemplateXLSX(k *schema.Kind, fields []schema.Field, l lang.Tag) ([]byte, error) {
	return WriteTemplate(k, fields, Template{Lang: l})
}

// WriteTemplate writes kind k's template as an xlsx workbook: a sheet
// named after the kind whose header row names the fields in the
// operator's words (required ones marked with *), with each column typed
// as people type it (amounts in the currency's units with its decimals,
// dates and times in date cells, choices from dropdowns in words, ids as
// text), a frozen header and a filter; a Fields sheet that explains
// every column, with its field's path and an example; and the hidden
// mark that reads it back as it was typed.
func WriteTemplate(k *schema.Kind, fields []schema.Field, o Template) ([]byte, error) {
	l := o.Lang
	cols := ingest.TemplateColumns(k, fields)
	words := ingest.TemplateWords(cols, l)
	f := excelize.NewFile()
	defer f.Close()
	sheet := sheetName(l.T(k.Title))
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	// The Fields sheet comes second, before the hidden ones the columns
	// add; it is filled once they are written.
	if _, err := f.NewSheet(l.T("Fields")); err != nil {
		return nil, err
	}
	st, err := newTemplateStyles(f, l)
	if err != nil {
		return nil, err
	}
	q := newQuotedText(f)
	lists := &listWriter{q: q}
	for i, c := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		tc := templateColumn{TemplateColumn: c, letter: name, header: words[i], currency: currencyLetter(cols, c)}
		if err := writeTemplateColumn(q, sheet, tc, st, lists, l); err != nil {
			return nil, fmt.Errorf("column %s (%s): %w", name, c.Path, err)
		}
	}
	if err := f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return nil, err
	}
	last, _ := excelize.ColumnNumberToName(len(cols))
	if err := f.AutoFilter(sheet, "A1:"+last+"1", nil); err != nil {
		return nil, err
	}
	if err := writeFieldsSheet(q, k, cols, words, st, o); err != nil {
		return nil, err
	}
	if lists.used {
		if err := f.SetSheetVisible(listsSheet, false); err != nil {
			return nil, err
		}
	}
	if err := writeMark(f, k, sheet, cols, words, o); err != nil {
		return nil, err
	}
	f.SetActiveSheet(0)
	return writeBytes(f)
}

// sheetName makes a title a sheet's name: at most 31 characters, none of
// those a sheet's name cannot hold.
func sheetName(title string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) {
			return ' '
		}
		return r
	}, title)
	if r := []rune(name); len(r) > 31 {
		name = strings.TrimSpace(string(r[:31]))
	}
	return name
}

// A templateColumn is a column of the data sheet as it is written.
type templateColumn struct {
	ingest.TemplateColumn
	letter, header string
	// currency is the letter of the column that gives an amount's
	// currency, "" when none does.
	currency string
}

// currencyLetter returns the letter of the column that gives amount
// column c its currency: its sibling, or for an amount without one (a
// card's transaction limits) the template's only currency column, as
// the reader takes it.
func currencyLetter(cols []ingest.TemplateColumn, c ingest.TemplateColumn) string {
	if c.Reads() != ingest.ReadsAmount {
		return ""
	}
	sibling := c.Path[:strings.LastIndexByte(c.Path, '.')+1] + "currency"
	only, n := -1, 0
	for i, o := range cols {
		if o.Path == sibling {
			name, _ := excelize.ColumnNumberToName(i + 1)
			return name
		}
		if strings.HasSuffix(o.Path, "currency") {
			only, n = i, n+1
		}
	}
	if n != 1 || strings.Contains(c.Path, ".") {
		return ""
	}
	name, _ := excelize.ColumnNumberToName(only + 1)
	return name
}

// templateStyles are the cell styles a template uses.
type templateStyles struct {
	header, required, text, number, amount, moment, date, title, wrap, note int
	// wholeAmount and fineAmount show an amount of a currency without
	// minor units (JPY) and of one with three (BHD).
	wholeAmount, fineAmount int
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

func (m *styleMaker) conditional(s *excelize.Style) int {
	if m.err != nil {
		return 0
	}
	id, err := m.f.NewConditionalStyle(s)
	m.err = err
	return id
}

// dateFormats are the number formats of dates and of dates with a time,
// in the order each language writes them.
var dateFormats = map[lang.Tag][2]string{
	lang.English: {"yyyy-mm-dd", "yyyy-mm-dd hh:mm"},
	lang.German:  {"dd.mm.yyyy", "dd.mm.yyyy hh:mm"},
	lang.French:  {"dd/mm/yyyy", "dd/mm/yyyy hh:mm"},
}

// amountFormat shows an amount with two decimals, the usual currency's;
// currencies with other minor units get theirs through conditional
// formats (amountFormats).
const amountFormat = "#,##0.00"

func newTemplateStyles(f *excelize.File, l lang.Tag) (*templateStyles, error) {
	var st templateStyles
	m := &styleMaker{f: f}
	mk := m.style
	textFmt, amount, whole, fine := "@", amountFormat, "#,##0", "#,##0.000"
	dates, ok := dateFormats[l]
	if !ok {
		dates = dateFormats[lang.English]
	}
	// excelize numbers the formats of conditional styles 165, 166, …
	// whatever the cells' own formats are numbered, and a spreadsheet
	// program may look a number up among the cells' formats: the cells'
	// 164, 165 and 166 are made "@" and the two conditional formats first,
	// so that each number names one format wherever it is looked up.
	st.text = mk(&excelize.Style{CustomNumFmt: &textFmt})
	mk(&excelize.Style{CustomNumFmt: &whole})
	mk(&excelize.Style{CustomNumFmt: &fine})
	st.header = mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}}, NumFmt: 49})
	st.required = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Color: "9C0006"}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FCE4D6"}}, NumFmt: 49})
	st.number = mk(&excelize.Style{NumFmt: 1})
	st.amount = mk(&excelize.Style{CustomNumFmt: &amount})
	st.date = mk(&excelize.Style{CustomNumFmt: &dates[0]})
	st.moment = mk(&excelize.Style{CustomNumFmt: &dates[1]})
	st.title = mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 13}})
	st.wrap = mk(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	st.note = mk(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}, Font: &excelize.Font{Color: "404040"}})
	st.wholeAmount = m.conditional(&excelize.Style{CustomNumFmt: &whole})
	st.fineAmount = m.conditional(&excelize.Style{CustomNumFmt: &fine})
	return &st, m.err
}

// bodyStyle is the style of a column's cells: how people type its values.
func (st *templateStyles) bodyStyle(c ingest.TemplateColumn) int {
	switch c.Reads() {
	case ingest.ReadsAmount:
		return st.amount
	case ingest.ReadsMoment:
		return st.moment
	case ingest.ReadsDate:
		return st.date
	case ingest.ReadsNumber:
		return st.number
	case ingest.ReadsYesNo:
		return 0
	}
	return st.text // text keeps ids' digits and leading zeros as typed
}

func writeTemplateColumn(q *quotedText, sheet string, c templateColumn, st *templateStyles, lists *listWriter, l lang.Tag) error {
	f := q.f
	name := c.letter
	header := st.header
	if c.Required {
		header = st.required
	}
	if body := st.bodyStyle(c.TemplateColumn); body != 0 {
		// A column style formats every cell typed later without writing
		// ten thousand empty cells.
		if err := f.SetColStyle(sheet, name, body); err != nil {
			return err
		}
	}
	if err := q.setStr(sheet, name+"1", c.header); err != nil {
		return err
	}
	if err := q.setStyle(sheet, name+"1", header); err != nil {
		return err
	}
	if err := f.SetColWidth(sheet, name, name, float64(min(40, max(14, len([]rune(c.header))+4)))); err != nil {
		return err
	}
	if c.currency != "" {
		if err := amountFormats(f, sheet, c, st); err != nil {
			return err
		}
	}
	return dropdown(f, sheet, c, lists, l)
}

// otherDigits are the currencies whose minor units are not two: an
// amount column shows their amounts with their own decimals.
var otherDigits = map[int][]string{
	0: {"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"},
	3: {"BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"},
}

// amountFormats shows the amounts of a row whose currency has no minor
// units, or three, with as many decimals as it has: 1,000 JPY, not
// 1,000.00.
func amountFormats(f *excelize.File, sheet string, c templateColumn, st *templateStyles) error {
	ref := fmt.Sprintf("%s2:%s%d", c.letter, c.letter, templateRows+1)
	var rules []excelize.ConditionalFormatOptions
	for _, n := range []int{0, 3} {
		var tests []string
		for _, code := range otherDigits[n] {
			tests = append(tests, fmt.Sprintf(`$%s2="%s"`, c.currency, code))
		}
		style := st.wholeAmount
		if n == 3 {
			style = st.fineAmount
		}
		// A rule of type formula takes its formula as its Criteria.
		rules = append(rules, excelize.ConditionalFormatOptions{Type: "formula", Criteria: "OR(" + strings.Join(tests, ",") + ")", Format: &style})
	}
	return f.SetConditionalFormat(sheet, ref, rules)
}

// dropdown offers a column's choices, or yes and no, in the operator's
// words; anything else typed is refused by the spreadsheet, and by the
// reader when it is pasted in.
func dropdown(f *excelize.File, sheet string, c templateColumn, lists *listWriter, l lang.Tag) error {
	var words []string
	switch c.Reads() {
	case ingest.ReadsChoice:
		words = ingest.Choices(c.Field, l)
	case ingest.ReadsYesNo:
		words = []string{l.T("Yes"), l.T("No")}
	default:
		return nil
	}
	dv := excelize.NewDataValidation(true)
	dv.Sqref = fmt.Sprintf("%s2:%s%d", c.letter, c.letter, templateRows+1)
	ref, err := lists.add(words)
	if err != nil {
		return err
	}
	dv.SetSqrefDropList(ref)
	dv.SetError(excelize.DataValidationErrorStyleStop, strings.TrimSuffix(c.header, " *"), l.F("Choose one of: %s.", strings.Join(words, ", ")))
	return f.AddDataValidation(sheet, dv)
}

// listWriter puts the words of dropdowns on a hidden sheet: a list typed
// into a dropdown is limited to 255 characters and split at commas.
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

// TemplateCSV writes kind k's template as CSV in the API's own form, for
// files a program writes: the fields' paths as headers, amounts in minor
// units, and an example row, which an import leaves out while unchanged.
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
