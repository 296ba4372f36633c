package ingest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// The detectors of this file read every value of the mapped amount and
// date columns, not a sample, and take a decision only when all of them
// agree (see package reading): one amount typed as 30.50 in a column of
// whole numbers must not turn every amount of the file into major units.

// detected is what the values of a table say about its settings.
type detected struct {
	settings Settings
	units    reading.Decision
	decimal  reading.Decision
	group    reading.Decision
	dates    reading.Decision
}

// detect reads every non-empty cell of the mapped amount and date
// columns, once, and decides the settings they agree on.
func (im *plan) detect() detected {
	var units, dec, grp, dates reading.Tally
	unitCols, dateCols := map[string]bool{}, map[string]bool{}
	first := im.firstDataRow()
	for i := first; i < len(im.Table.Rows); i++ {
		r := &im.Table.Rows[i]
		for ci := range im.cols {
			col := &im.cols[ci]
			c := r.Cell(col.index)
			if c.Empty() || c.Flags&MergedPart != 0 {
				continue
			}
			where := reading.Cell{Sheet: im.Table.Sheet, Row: r.Number, Column: im.Table.ColumnName(col.index), Raw: im.Table.Display(c)}
			switch {
			case isAmount(col.target.Field):
				digits := -1
				if d, ok := money.Digits(im.currencyOf(col, r)); ok {
					digits = d
				}
				if vote, why := im.unitsEvidence(c, digits); vote != "" {
					where.Suggests, where.Why = vote, why
					units.Vote(where)
					unitCols[where.Column] = true
				}
				if c.Kind == Text {
					d, g := separatorEvidence(text(c))
					if d != "" {
						where.Suggests, where.Why = d, "the decimal separator"
						dec.Vote(where)
					}
					if g != "" {
						where.Suggests, where.Why = g, "the digit-group separator"
						grp.Vote(where)
					}
				}
			case col.target.Field.Format == "date" || col.target.DateParts:
				if c.Kind != Text {
					continue
				}
				if o := dateOrderEvidence(c.Value); o == DMY || o == MDY {
					where.Suggests = o
					where.Why = map[string]string{DMY: "the first number is above 12: a day", MDY: "the second number is above 12: a day"}[o]
					dates.Vote(where)
					dateCols[where.Column] = true
				}
			}
		}
	}
	var out detected
	out.units = units.Decide(Minor)
	out.units.Column = columnNames(unitCols)
	out.decimal, out.group = decideSeparators(&dec, &grp)
	out.dates = dates.Decide("")
	out.dates.Column = columnNames(dateCols)
	out.settings = Settings{Amounts: out.units.Value, Decimal: out.decimal.Value, Group: out.group.Value, DateOrder: out.dates.Value}
	return out
}

// mixedUnits says, when the units are undecided, which amounts are not
// written with decimals, for the messages of those that are; nil when
// the units are decided.
func (d detected) mixedUnits() func(n int) string {
	if !d.units.Undecided {
		return nil
	}
	ev := d.units.Evidence
	return func(n int) string {
		for _, c := range ev {
			if c.Suggests == reading.Minor && c.Row != n {
				return fmt.Sprintf("other amounts of the file are not written with their currency's decimals (%s %q: %s)", c.Place(), c.Raw, c.Why)
			}
		}
		return "other amounts of the file are not written with their currency's decimals"
	}
}

// decideSeparators decides the decimal and group separators from their
// votes. A mark seen as the decimal separator in one cell and as a group
// separator in another makes both undecided; a decimal separator decides
// the usual group separator with it, and a group separator alone decides
// the other mark as the decimal one.
func decideSeparators(dec, grp *reading.Tally) (d, g reading.Decision) {
	d = dec.Decide("")
	g = grp.Decide("")
	clash := false
	for _, v := range dec.Values() {
		if grp.Count(v) > 0 {
			clash = true
		}
	}
	if clash {
		var both reading.Tally
		for _, v := range dec.Values() {
			for _, c := range d.Evidence {
				if c.Suggests == v {
					c.Suggests = "decimal " + v
					both.Vote(c)
				}
			}
		}
		for _, c := range g.Evidence {
			if !slices.ContainsFunc(d.Evidence, func(e reading.Cell) bool { return e.Row == c.Row && e.Column == c.Column }) {
				c.Suggests = "groups " + c.Suggests
				both.Vote(c)
			}
		}
		u := both.Decide("")
		u.Undecided = true
		return u, reading.Decision{How: reading.Default, Undecided: true, Evidence: u.Evidence}
	}
	partner := map[string]string{".": ",", ",": "."}
	switch {
	case d.Undecided:
		if !g.Undecided {
			g = reading.Decision{How: reading.Default}
		}
	case d.How == reading.Detected:
		if g.How == reading.Default {
			// No cell is grouped: the other mark, if one is met, can
			// only group digits.
			g = reading.Decision{Value: partner[d.Value], How: reading.Detected}
		}
	case g.How == reading.Detected && partner[g.Value] != "":
		d = reading.Decision{Value: partner[g.Value], How: reading.Detected, Evidence: g.Evidence}
	}
	return d, g
}

// unitsEvidence says what one amount cell tells about the units of the
// file, given its currency's minor digits (-1 when not known): "major"
// when it is written with exactly the currency's decimals, "minor" when
// it cannot be (a whole number, or other decimals), "" when it reads the
// same either way (a whole number of yen) or cannot tell.
func (im *plan) unitsEvidence(c Cell, digits int) (vote, why string) {
	switch c.Kind {
	case Number:
		s := strings.TrimSpace(c.Value)
		if im.Table.IsDate(c) {
			return "", ""
		}
		if fd := formatDecimals(im.Table.NumberFormat(c)); fd > 0 && (digits < 0 || fd == digits) {
			return reading.Major, "shown with " + decimals(fd)
		}
		frac := storedDecimals(s)
		switch {
		case frac < 0:
			return "", ""
		case frac == 0 && digits == 0:
			return "", ""
		case frac == 0:
			return reading.Minor, "a whole number"
		case digits < 0 || frac <= digits:
			// A spreadsheet drops the trailing zeros of 10.50.
			return reading.Major, "a number with decimals"
		}
		return reading.Minor, decimals(frac) + ", more than the currency has"
	case Text:
		s := text(c)
		dec, _ := separatorEvidence(s)
		if dec == "" {
			if ambiguousMark(s) {
				if digits == 3 || digits <= 0 {
					return "", ""
				}
				return reading.Minor, "a whole number with digit groups, or 3 decimals, which the currency does not have"
			}
			if digits == 0 || !hasDigit(s) {
				return "", ""
			}
			return reading.Minor, "a whole number"
		}
		frac := len(s) - strings.LastIndex(s, dec) - 1
		switch {
		case digits < 0:
			return reading.Major, "written with decimals"
		case frac == digits:
			return reading.Major, "written with " + decimals(frac)
		}
		return reading.Minor, fmt.Sprintf("written with %s, not the currency's %d", decimals(frac), digits)
	}
	return "", ""
}

// formatDecimals returns the decimals a number format shows ("#,##0.00"
// shows 2), or 0.
func formatDecimals(format string) int {
	section, _, _ := strings.Cut(format, ";")
	_, frac, ok := strings.Cut(section, ".")
	if !ok {
		return 0
	}
	n := 0
	for _, r := range frac {
		if r != '0' && r != '#' {
			break
		}
		n++
	}
	return n
}

// storedDecimals returns the decimals of a number as a file stores it,
// or -1 for a form this cannot tell from (an exponent).
func storedDecimals(s string) int {
	if strings.ContainsAny(s, "eE") {
		return -1
	}
	_, frac, ok := strings.Cut(s, ".")
	if !ok {
		return 0
	}
	return len(strings.TrimRight(frac, "0"))
}

// ambiguousMark reports a text with a single '.' or ',' followed by
// exactly three digits ("1,500"): a decimal or a digit-group separator.
func ambiguousMark(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if strings.Count(s, ".")+strings.Count(s, ",") != 1 {
		return false
	}
	i := strings.IndexAny(s, ".,")
	return len(s)-i-1 == 3 && i > 0 && i <= 3
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// separatorEvidence says what one amount text tells about the
// separators: the decimal and the group separator it shows, "" for
// either when it does not tell ("1,500" is one or the other).
func separatorEvidence(v string) (dec, grp string) {
	v = strings.TrimLeft(v, "+-")
	dots, commas := strings.Count(v, "."), strings.Count(v, ",")
	if strings.ContainsAny(v, " \u00a0\u202f") && dots+commas <= 1 {
		grp = " "
	}
	switch {
	case dots > 0 && commas > 0:
		if strings.LastIndex(v, ".") > strings.LastIndex(v, ",") {
			return ".", ","
		}
		return ",", "."
	case dots > 1:
		return "", "."
	case commas > 1:
		return "", ","
	case dots == 1 || commas == 1:
		mark := "."
		if commas == 1 {
			mark = ","
		}
		before, after, _ := strings.Cut(v, mark)
		before = strings.TrimSpace(before)
		if len(after) == 3 && len(before) <= 3 && strings.TrimLeft(before, "0") != "" {
			return "", grp // could be either
		}
		return mark, grp
	}
	return "", grp
}

func columnNames(set map[string]bool) string {
	if len(set) != 1 {
		return ""
	}
	for c := range set {
		return c
	}
	return ""
}

func decimals(n int) string {
	if n == 1 {
		return "1 decimal"
	}
	return fmt.Sprintf("%d decimals", n)
}
