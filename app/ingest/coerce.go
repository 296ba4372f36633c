package ingest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The rules in this file turn one cell into the JSON value its field
// takes, guided by the field's schema. The rule throughout: a value is
// never changed silently. Text stays the text the cell shows; a number
// that has lost digits, an amount that does not fit its currency, a date
// that reads two ways is a problem at that cell, not a guess.

// A column is a mapped column, ready to read cells.
type column struct {
	index  int
	target target
	// set marks a value set for every row (Mapping.Values): a column of
	// the import, not of the file (index is -1), whose cell in every row
	// is value.
	set   bool
	value Cell
	// currency is the target path of an amount's currency, or "";
	// currencyPos is the position among the reader's columns of the
	// column mapped to it, or -1 when none is.
	currency    string
	currencyPos int
	// zeroWidth is the width of the values with leading zeros in this
	// column ("00123"), when it has some; numbers shorter than it have
	// lost their zeros.
	zeroWidth int
	// boxes shares the values of a column that repeat ("EUR",
	// "managed_accounts"): each conversion of a string to an interface
	// allocates, and under WebAssembly allocation is most of the cost.
	boxes map[string]any
	// hits and misses count the look-ups in a full boxes: a column whose
	// values seldom repeat (descriptions, references) stops looking.
	hits, misses int
	// stamps keeps what the dates of a timestamp column read as: a
	// payment date repeats down the column (see readTimestamp).
	stamps *stampCache
}

// maxBoxes bounds the values shared per column.
const maxBoxes = 256

// box returns s as an interface value, shared with earlier equal values.
func (col *column) box(s string) any {
	if col.boxes == nil {
		return s
	}
	v, ok := col.boxes[s]
	full := len(col.boxes) >= maxBoxes
	switch {
	case ok && full:
		col.hits++
	case !ok && full:
		col.misses++
		if col.misses >= 4*maxBoxes && col.hits < col.misses/8 {
			col.boxes = nil
		}
	}
	if ok {
		return v
	}
	v = s
	if !full {
		col.boxes[s] = v
	}
	return v
}

// A cellProblem is why a cell could not be read: its message is written
// in the reader's language when it is told (message).
type cellProblem struct {
	code     string
	format   string
	args     []any
	severity schema.Severity
}

func cellError(code, format string, args ...any) *cellProblem {
	return &cellProblem{code: code, format: format, args: args, severity: schema.Error}
}

// cellFailure is a cell's problem that an error of the value's own
// reader (a date's, an amount's) says, in the operator's language when it
// can be said in it (lang.Sayer).
func cellFailure(code string, err error) *cellProblem {
	return &cellProblem{code: code, format: "%s", args: []any{err}, severity: schema.Error}
}

// message says the problem in w.
func (p *cellProblem) message(w lang.Tag) string {
	args := p.args
	for i, a := range p.args {
		if r, ok := a.(fieldRules); ok {
			args = slices.Clone(p.args)
			args[i] = midSentence(r.f.Rules(w), w)
		}
	}
	return w.F(p.format, args...)
}

// midSentence is a phrase that starts a sentence written inside one: its
// first letter in lower case, but in German, whose nouns keep theirs
// ("Text; nur Ziffern").
func midSentence(s string, w lang.Tag) string {
	r, n := utf8.DecodeRuneInString(s)
	if w == lang.German || n == 0 {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// fieldRules is a field's rules as an argument of a cell's problem,
// written in the language the problem is said in.
type fieldRules struct{ f *schema.Field }

// coerce reads cell c of row r for its column's target. A nil value with
// no problem means the field is left out.
func (rd *reader) coerce(c Cell, col *column, r *Row) (any, *cellProblem) {
	if p := rd.cellState(c, col.index, r.Number); p != nil {
		return nil, p
	}
	if c.Empty() {
		return nil, nil
	}
	v, p := rd.coerceValue(c, col, r)
	if p != nil && c.Flags&NumberText != 0 && !col.target.DateParts && (isAmount(col.target.Field) || col.target.Field.Type == "integer" || col.target.Field.Type == "number") {
		// Said plainly: the parsers' own words ("has '"' after the
		// decimal separator") would puzzle over "=HYPERLINK(…)".
		p = cellError(p.code, "the file stores the cell as a number, but it holds the text %q, which is not a number", text(c))
	}
	return v, p
}

// coerceValue is coerce for a cell that holds a value.
func (rd *reader) coerceValue(c Cell, col *column, r *Row) (any, *cellProblem) {
	f := col.target.Field
	switch {
	case col.target.DateParts:
		d, p := rd.readDate(c)
		if p != nil {
			return nil, p
		}
		return map[string]any{"year": itoaNumber(d.y), "month": itoaNumber(d.m), "day": itoaNumber(d.d)}, nil
	case f.Timestamp:
		return rd.readTimestamp(c, col)
	case isAmount(f):
		return rd.readAmount(c, col, r)
	}
	switch f.Type {
	case "string":
		return rd.readString(c, col)
	case "integer":
		return readInteger(c)
	case "number":
		return readNumber(c)
	case "boolean":
		return readBool(c)
	case "array":
		return rd.readList(c, col)
	}
	return rd.readString(c, col)
}

// cellState reports cells whose value is not there to read: merged parts,
// formulas without a result, spreadsheet errors.
func (rd *reader) cellState(c Cell, col, row int) *cellProblem {
	switch {
	case c.Flags&MergedPart != 0:
		m, _ := rd.Table.mergedRange(col, row)
		return cellError("merged-cell", "the cell is part of the merged cells %s, whose value is in %s%d only: unmerge the cells and fill in every row", RangeName(m), rd.Table.ColumnName(m.FirstCol), m.FirstRow)
	case c.Flags&NoCachedValue != 0:
		return cellError("formula-without-value", "the cell holds a formula whose result the file does not carry (it was written by a program that does not calculate): open the file in a spreadsheet program and save it, or paste the values")
	case c.Kind == ErrorValue:
		return cellError("spreadsheet-error", "the cell shows the error %s instead of a value", c.Value)
	}
	return nil
}

func itoaNumber(n int) json.Number { return json.Number(strconv.Itoa(n)) }

// text returns a text cell's value without surrounding spaces, and
// without the apostrophe that CSV exports put before a leading = + - @
// (or tab, or carriage return) to keep spreadsheets from running it as a
// formula (see app/inert).
func text(c Cell) string {
	return strings.TrimSpace(inert.Strip(c.Value))
}

func (rd *reader) readString(c Cell, col *column) (any, *cellProblem) {
	f := col.target.Field
	switch c.Kind {
	case Number:
		if rd.Table.IsDate(c) {
			if f.Pattern == `^[0-9]+$` {
				return nil, cellError("date-not-allowed", "the cell holds a date, but %s takes digits only (%s)", f.Path, fieldRules{&f})
			}
			d, p := rd.readDate(c)
			if p != nil {
				return nil, p
			}
			return d.String(), nil
		}
		s, p := numberText(c.Value, rd.Table.NumberFormat(c))
		if p != nil {
			return nil, p
		}
		if col.zeroWidth > len(s) && allDigits(s) {
			return nil, cellError("lost-leading-zeros", "the cell holds the number %s, but other values in this column are written with leading zeros to %d digits (such as %q): the spreadsheet dropped the zeros. Format the column as Text and type the value with its zeros", s, col.zeroWidth, strings.Repeat("0", col.zeroWidth-len(s))+s)
		}
		return s, nil
	case Bool:
		return c.Value, nil
	case DateText:
		if f.Format == "date" && len(c.Value) >= 10 {
			return c.Value[:10], nil
		}
		return c.Value, nil
	}
	s := text(c)
	if s == "" {
		return nil, nil
	}
	if f.Format == "date" {
		d, err := parseTextDate(s, rd.settings.DateOrder)
		if err != nil {
			return nil, cellFailure("date", err)
		}
		return d.String(), nil
	}
	if len(f.Enum) > 0 {
		return rd.readChoice(s, col)
	}
	return col.box(s), nil
}

// numberText is the text of a number cell read into a text field (an id,
// a reference): the digits it shows, padded as its number format pads
// them. Numbers that cannot be the digits the operator typed are refused.
func numberText(raw, format string) (string, *cellProblem) {
	digits := strings.TrimLeft(raw, "-")
	if strings.ContainsAny(raw, "eE") {
		return "", cellError("lost-digits", "the cell holds the number %s in scientific notation: a spreadsheet keeps only 15 digits of a number, so the digits of this value are lost. Format the column as Text and type the values again, or import the original CSV", raw)
	}
	intPart, _, _ := strings.Cut(digits, ".")
	if len(strings.TrimLeft(intPart, "0")) >= 16 {
		return "", cellError("lost-digits", "the cell holds the number %s, which has 16 digits or more: a spreadsheet keeps only 15 digits of a number, so this value may have lost its last digits. Format the column as Text and type the values again", raw)
	}
	if n := zeroPad(format); n > len(raw) && allDigits(raw) {
		return strings.Repeat("0", n-len(raw)) + raw, nil
	}
	return raw, nil
}

// zeroPad returns the width of a number format made of zeros only
// ("000000" shows 123 as 000123), or 0.
func zeroPad(format string) int {
	if format == "" || strings.Trim(format, "0") != "" {
		return 0
	}
	return len(format)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func readInteger(c Cell) (any, *cellProblem) {
	s := strings.TrimSpace(c.Value)
	switch c.Kind {
	case Number:
		n, err := money.ParseStored(s, 0)
		if err != nil {
			return nil, cellError("not-a-whole-number", "%s is not a whole number", s)
		}
		return json.Number(strconv.FormatInt(n, 10)), nil
	case Text:
		s = text(c)
		n, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
		if err != nil {
			return nil, cellError("not-a-whole-number", "%q is not a whole number", s)
		}
		return json.Number(strconv.FormatInt(n, 10)), nil
	}
	return nil, cellError("not-a-whole-number", "%q is not a whole number", s)
}

func readNumber(c Cell) (any, *cellProblem) {
	s := text(c)
	if _, err := strconv.ParseFloat(s, 64); err != nil || strings.ContainsAny(s, "xXpP_") || strings.EqualFold(s, "nan") || strings.Contains(strings.ToLower(s), "inf") {
		return nil, cellError("not-a-number", "%q is not a number (write it with '.' for decimals)", s)
	}
	return json.Number(strings.TrimPrefix(s, "+")), nil
}

func readBool(c Cell) (any, *cellProblem) {
	switch strings.ToLower(strings.TrimSpace(c.Value)) {
	case "true", "yes", "y", "1", "x", "oui", "ja", "si", "sí":
		return true, nil
	case "false", "no", "n", "0", "non", "nein":
		return false, nil
	}
	return nil, cellError("not-a-boolean", "%q is not TRUE or FALSE (yes/no, Y/N and 1/0 are read too)", strings.TrimSpace(c.Value))
}

// readList splits a cell into the items of a list: "GB, FR; DE".
func (rd *reader) readList(c Cell, col *column) (any, *cellProblem) {
	var raw string
	if c.Kind == Number {
		s, p := numberText(c.Value, rd.Table.NumberFormat(c))
		if p != nil {
			return nil, p
		}
		raw = s
	} else {
		raw = text(c)
	}
	items := []any{}
	for _, part := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == ';' || r == '|' || r == '\n' || r == '\r' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		switch col.target.Field.ItemType {
		case "integer":
			v, p := readInteger(Cell{Kind: Text, Value: part})
			if p != nil {
				return nil, p
			}
			items = append(items, v)
		case "boolean":
			v, p := readBool(Cell{Kind: Text, Value: part})
			if p != nil {
				return nil, p
			}
			items = append(items, v)
		default:
			if v, ok := choiceOf(col.target.Field, part); ok {
				part = v
			}
			items = append(items, part)
		}
	}
	if len(items) == 0 {
		return nil, nil
	}
	return items, nil
}

// readDate reads a date from a date serial, an ISO date cell or text.
func (rd *reader) readDate(c Cell) (date, *cellProblem) {
	switch c.Kind {
	case Number:
		d, err := serialDate(c.Value, rd.Table.Date1904)
		if err != nil {
			return date{}, cellFailure("date", err)
		}
		return d, nil
	case DateText:
		d, err := parseTextDate(c.Value, YMD)
		if err != nil {
			return date{}, cellFailure("date", err)
		}
		return d, nil
	}
	d, err := parseTextDate(text(c), rd.settings.DateOrder)
	if err != nil {
		return date{}, cellFailure("date", err)
	}
	return d, nil
}

// readAmount reads an amount into minor units, as the settings say.
func (rd *reader) readAmount(c Cell, col *column, r *Row) (any, *cellProblem) {
	if rd.settings.Amounts == Major {
		return rd.readMajor(c, rd.currencyOf(col, r))
	}
	s, p := amountText(c)
	if p != nil {
		return nil, p
	}
	var n int64
	var err error
	if p := rd.unitsAsked(c, col, r, s); p != nil {
		return nil, p
	}
	if c.Kind == Number {
		if canonicalInteger(s) {
			return json.Number(s), nil
		}
		n, err = money.ParseStored(s, 0)
		if err != nil {
			err = lang.Errorf("%q has a decimal part, but amounts are read in minor units (cents): write a whole number, or read amounts in major units", s)
			if rd.mixedUnits != nil {
				return nil, cellError("amount", "%q has a decimal part, but %s, so amounts are read in minor units (cents): write this one in cents, or, if the file is in major units, show every amount with its currency's decimals and read amounts in major units", s, rd.mixedUnits.decimalWhy(r.Number))
			}
		}
	} else {
		sep := rd.settings.separators()
		// A plain whole number is sent as written: what ParseMinor
		// and FormatInt would give back, without making it again.
		if canonicalInteger(s) && s[0] != '-' && !isDigit(sep.Decimal) && !isDigit(sep.Group) {
			return json.Number(s), nil
		}
		n, err = money.ParseMinor(s, sep)
	}
	if err != nil {
		if rd.mixedUnits != nil && isDecimal(c, s) {
			return nil, cellError("amount", "%q has a decimal part, but %s, so amounts are read in minor units (cents): write this one in cents, or, if the file is in major units, write every amount with its currency's decimals (EUR 250.00) and read amounts in major units", s, rd.mixedUnits.decimalWhy(r.Number))
		}
		return nil, cellFailure("amount", err)
	}
	return json.Number(strconv.FormatInt(n, 10)), nil
}

// amountText returns the text of an amount cell, or its problem when
// the cell holds no number or text.
func amountText(c Cell) (string, *cellProblem) {
	s := strings.TrimSpace(c.Value)
	if c.Kind == Text {
		s = text(c)
	}
	if c.Kind != Number && c.Kind != Text {
		return "", cellError("amount", "%q is not an amount", s)
	}
	return s, nil
}

// readMajor reads an amount in major units of currency cur into minor
// units.
func (rd *reader) readMajor(c Cell, cur string) (any, *cellProblem) {
	s, p := amountText(c)
	if p != nil {
		return nil, p
	}
	if cur == "" {
		return nil, cellError("amount-currency", "amounts are read in major units, which needs the currency, and this row has none: give the currency, or set the import's currency")
	}
	digits, ok := money.Digits(cur)
	if !ok {
		return nil, cellError("amount-currency", "amounts are read in major units, but %q is not an ISO 4217 currency, so its minor units are unknown", cur)
	}
	var n int64
	var err error
	if c.Kind == Number {
		n, err = money.ParseStored(s, digits)
	} else {
		n, err = money.ParseMajor(s, digits, rd.settings.separators())
	}
	if err != nil {
		return nil, cellFailure("amount", err)
	}
	return json.Number(strconv.FormatInt(n, 10)), nil
}

// isDecimal reports an amount cell written with a decimal part.
func isDecimal(c Cell, s string) bool {
	if c.Kind == Number {
		return storedDecimals(s) > 0
	}
	d, _ := separatorEvidence(s)
	return d != ""
}

// currencyOf returns the currency an amount cell is in: its row's
// currency column, or the import's currency.
func (rd *reader) currencyOf(col *column, r *Row) string {
	if cur, ok := rd.rowCurrency(col, r); ok {
		return cur
	}
	return rd.settings.Currency
}

// rowCurrency returns the currency an amount's row gives in the column
// mapped to it, upper-cased; false when no column is mapped to it or the
// row leaves it empty.
func (rd *reader) rowCurrency(col *column, r *Row) (string, bool) {
	if col.currencyPos < 0 {
		return "", false
	}
	c := rd.cols[col.currencyPos].cell(r)
	if c.Empty() {
		return "", false
	}
	return strings.ToUpper(strings.TrimSpace(c.Value)), true
}

// canonicalInteger reports a whole number written as JSON writes it:
// digits without leading zeros, an optional minus.
func canonicalInteger(s string) bool {
	d := strings.TrimPrefix(s, "-")
	return allDigits(d) && (d == "0" || d[0] != '0') && len(d) < 19
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }
