package ingest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// Amount units of an import.
const (
	// Minor means amounts are written in minor units, as the API takes
	// them: 1050 is EUR 10.50. It is the default.
	Minor = reading.Minor
	// Major means amounts are written as people write them: 10.50.
	Major = reading.Major
)

// Settings say how to read the values of a file: amounts, separators and
// dates. They are detected from the file, shown to the operator as raw →
// parsed examples, and can be overridden.
type Settings struct {
	// Amounts is Minor or Major.
	Amounts string `json:"amounts"`
	// Decimal is the decimal separator of amounts written as text: "." or
	// ","; "" when unknown, and then an amount that reads two ways is an
	// error.
	Decimal string `json:"decimal,omitempty"`
	// Group is the digit-group separator: ",", ".", " ", "'" or "" for none.
	Group string `json:"group,omitempty"`
	// DateOrder is DMY, MDY or YMD for text dates such as 03/04/2025; ""
	// when unknown, and then a date that reads two ways is an error.
	DateOrder string `json:"dateOrder,omitempty"`
	// Currency is the ISO 4217 code of amounts that have no currency of
	// their own in the element (card spend rules' transaction limits); it
	// is needed only to read them in major units.
	Currency string `json:"currency,omitempty"`
	// TimeZone is the IANA name of the time zone the dates and times of
	// timestamp fields are in ("Europe/Berlin"); "" when not chosen, and
	// then such a date is an error. It is never detected: a file does not
	// say which zone its dates are in.
	TimeZone string `json:"timeZone,omitempty"`
}

// Check reports settings that cannot be used.
func (s Settings) Check() error {
	switch s.Amounts {
	case "", Minor, Major:
	default:
		return lang.Errorf("amounts must be %q or %q, not %q", Minor, Major, s.Amounts)
	}
	switch s.Decimal {
	case "", ".", ",":
	default:
		return lang.Errorf("the decimal separator must be \".\" or \",\", not %q", s.Decimal)
	}
	switch s.Group {
	case "", ",", ".", " ", "'":
	default:
		return lang.Errorf("the group separator must be \",\", \".\", a space or \"'\", not %q", s.Group)
	}
	if s.Decimal != "" && s.Decimal == s.Group {
		return lang.Errorf("the decimal and group separators are both %q", s.Decimal)
	}
	switch strings.ToUpper(s.DateOrder) {
	case "", DMY, MDY, YMD:
	default:
		return lang.Errorf("the date order must be DMY, MDY or YMD, not %q", s.DateOrder)
	}
	if s.Currency != "" {
		if _, ok := money.Digits(s.Currency); !ok {
			return lang.Errorf("%q is not an ISO 4217 currency code", s.Currency)
		}
	}
	if s.TimeZone != "" {
		if _, err := loadZone(s.TimeZone); err != nil {
			return err
		}
	}
	return nil
}

// separators returns the money separators of the settings.
func (s Settings) separators() money.Separators {
	var sep money.Separators
	if s.Decimal != "" {
		sep.Decimal = rune(s.Decimal[0])
	}
	if s.Group != "" {
		sep.Group = rune(s.Group[0])
	}
	return sep
}

// String describes the settings in one line for people.
func (s Settings) String() string {
	amounts := "amounts in minor units (1050 = 10.50)"
	if s.Amounts == Major {
		amounts = "amounts in major units (10.50)"
	}
	parts := []string{amounts}
	if s.Decimal != "" || s.Group != "" {
		parts = append(parts, s.separators().String())
	}
	if s.DateOrder != "" {
		parts = append(parts, "dates "+s.DateOrder)
	}
	if s.Currency != "" {
		parts = append(parts, "currency "+s.Currency)
	}
	if s.TimeZone != "" {
		parts = append(parts, "times in "+s.TimeZone)
	}
	return strings.Join(parts, ", ")
}

// In says the settings in w's words, as String does in English:
// "Beträge in Haupteinheiten (10,50), Dezimaltrennzeichen Komma, Tausendertrennzeichen Punkt".
func (s Settings) In(w lang.Tag) string {
	if w == lang.English || w == "" {
		return s.String()
	}
	parts := []string{w.T("amounts in minor units (1050 = 10.50)")}
	if s.Amounts == Major {
		parts[0] = w.T("amounts in major units (10.50)")
	}
	if s.Decimal != "" || s.Group != "" {
		dec, grp := w.T("unknown"), w.T("none")
		if s.Decimal != "" {
			dec = reading.MarkName(s.Decimal, w)
		}
		if s.Group != "" {
			grp = reading.MarkName(s.Group, w)
		}
		parts = append(parts, w.F("decimal separator %s, digit groups %s", dec, grp))
	}
	if s.DateOrder != "" {
		parts = append(parts, w.F("dates %s", reading.Suggestion("dateOrder", s.DateOrder, w)))
	}
	if s.Currency != "" {
		parts = append(parts, w.F("currency %s", s.Currency))
	}
	if s.TimeZone != "" {
		parts = append(parts, w.F("times in %s", s.TimeZone))
	}
	return strings.Join(parts, ", ")
}

// sampleRows bounds the rows the examples of one column look at.
const sampleRows = 500

// Examples returns, for each mapped amount and date column (a timestamp
// column when it holds dates), up to three
// raw → parsed examples under the current settings, errors first, so the
// operator can see the settings are right before building. When the
// file's cells disagree on how to read them, the cells behind each
// undecided reading come first, the smaller sides first, whatever the
// operator chose since: they are the cells to look at.
func (im *Import) Examples() []Example {
	var first []reading.Cell
	for _, d := range []reading.Decision{im.found.units, im.found.decimal, im.found.group, im.found.dates} {
		if d.Undecided {
			first = append(first, d.Evidence...)
		}
	}
	return im.p.examples(first)
}

// An Example shows how one value of the file is read with the current
// settings: the raw text and what it becomes, or why it cannot be read.
type Example struct {
	Column string `json:"column"`
	Row    int    `json:"row"`
	Field  string `json:"field"`
	Raw    string `json:"raw"`
	Parsed string `json:"parsed,omitempty"`
	Error  string `json:"error,omitempty"`
}

// maxFirst bounds the cells of one column that examples puts first.
const maxFirst = 6

func (rd *reader) examples(first []reading.Cell) []Example {
	var out []Example
	// A total under the data is no value of the file's operations.
	totals := rd.totalRowsFrom()
	for ci := range rd.cols {
		col := &rd.cols[ci]
		if !isAmount(col.target.Field) && col.target.Field.Format != "date" && !col.target.DateParts && !rd.holdsMoments(col) {
			continue
		}
		example := func(r *Row) Example {
			c := r.Cell(col.index)
			ex := Example{Column: rd.Table.ColumnName(col.index), Row: r.Number, Field: col.target.Path, Raw: rd.shown(c)}
			v, p := rd.coerce(c, col, r)
			if p != nil {
				ex.Error = p.message(rd.v.Language())
			} else {
				ex.Parsed = rd.describeValue(v, col, r)
			}
			return ex
		}
		var lead []Example
		shown := make(map[int]bool)
		for _, c := range first {
			k := rd.Table.RowIndex(c.Row)
			if len(lead) == maxFirst || c.Column != rd.Table.ColumnName(col.index) || k < 0 || k >= totals || shown[c.Row] || c.Row <= rd.mapping.HeaderRow {
				continue
			}
			if c.Sheet != "" && c.Sheet != rd.Table.Sheet || rd.Table.Rows[k].Cell(col.index).Empty() {
				continue
			}
			shown[c.Row] = true
			lead = append(lead, example(&rd.Table.Rows[k]))
		}
		// Among them, those that do not read under the settings first.
		slices.SortStableFunc(lead, func(a, b Example) int { return btoi(a.Error == "") - btoi(b.Error == "") })
		var good, bad []Example
		for i := range rd.Table.Rows[:totals] {
			r := &rd.Table.Rows[i]
			if r.Number <= rd.mapping.HeaderRow || shown[r.Number] {
				continue
			}
			if r.Cell(col.index).Empty() {
				continue
			}
			ex := example(r)
			if ex.Error != "" {
				bad = append(bad, ex)
			} else {
				good = append(good, ex)
			}
			if len(bad) >= 3 || len(good)+len(bad) >= sampleRows {
				break
			}
		}
		// The disagreeing cells, then those that do not read, then others.
		all := append(append(lead, bad...), good...)
		out = append(out, all[:min(max(3, len(lead)+len(bad)), len(all))]...)
	}
	return out
}

// shown is a cell's value as the operator would recognise it, with the
// serial of a date cell.
func (rd *reader) shown(c Cell) string {
	if rd.Table.IsDate(c) {
		return rd.v.Language().F("%s (date cell %s)", rd.Table.DisplayIn(c, rd.v.Language()), c.Value)
	}
	return rd.Table.Display(c)
}

// describeValue writes a coerced value for an example: amounts with their
// currency.
func (rd *reader) describeValue(v any, col *column, r *Row) string {
	w := rd.v.Language()
	if isAmount(col.target.Field) {
		cur := rd.currencyOf(col, r)
		if n, ok := v.(interface{ String() string }); ok {
			var minor int64
			fmt.Sscan(n.String(), &minor)
			if cur == "" {
				return w.F("%s in minor units", w.Count(int(minor)))
			}
			return w.Localize(money.Format(minor, cur))
		}
	}
	if x, ok := v.(map[string]any); ok {
		var y, m, d int
		_, err := fmt.Sscan(fmt.Sprint(x["year"], " ", x["month"], " ", x["day"]), &y, &m, &d)
		if err == nil && (date{y, m, d}).valid() {
			return w.Date(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), false)
		}
		return fmt.Sprint(x["year"], "-", x["month"], "-", x["day"])
	}
	if col.target.Field.Timestamp {
		return rd.describeTimestamp(v, rd.v.Language())
	}
	return fmt.Sprint(v)
}
