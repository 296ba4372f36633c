package ingest

import (
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
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
	// zone is the time zone the dates of timestamp columns need.
	zone reading.Decision
	// w is the language evidence is told in; headerRow the row of the
	// headers, and majorHeaders the amount columns whose header names
	// the currency (see unitsQuestion).
	w            lang.Tag
	headerRow    int
	majorHeaders map[int]bool
}

// detect reads every non-empty cell of the mapped amount and date
// columns, once, and decides the settings they agree on.
func (rd *reader) detect() detected {
	w := rd.v.Language()
	var units, dec, grp, dates reading.Tally
	var shown shownWhole
	// ambiguous keeps amounts such as "1,500" that no other cell
	// explains: with nothing else to go by, they make the separators
	// undecided.
	var ambiguous []reading.Cell
	unitCols, dateCols := map[string]bool{}, map[string]bool{}
	zone := zoneEvidence{columns: map[int]bool{}}
	type source struct {
		col    *column
		amount bool
	}
	var sources []source
	for ci := range rd.cols {
		col := &rd.cols[ci]
		s := source{col: col, amount: isAmount(col.target.Field)}
		if !s.amount && col.target.Field.Format != "date" && !col.target.DateParts && !col.target.Field.Timestamp {
			continue
		}
		sources = append(sources, s)
	}
	majorHeaders := rd.unitsHeaders(&units, unitCols)
	fixed := -1
	if d, ok := money.Digits(rd.settings.Currency); ok {
		fixed = d
	}
	for i := rd.firstDataRow(); i < len(rd.Table.Rows); i++ {
		r := &rd.Table.Rows[i]
		for _, src := range sources {
			c := r.Cell(src.col.index)
			if c.Empty() || c.Flags&MergedPart != 0 {
				continue
			}
			if !src.amount {
				if src.col.target.Field.Timestamp {
					rd.noteMoment(&zone, r, src.col.index, c)
				}
				if c.Kind != Text {
					continue
				}
				if o := dateOrderEvidence(c.Value); o == DMY || o == MDY {
					if dates.Count1(o) {
						dates.Keep(rd.evidence(r, src.col.index, c, o, w.T(dateWhy[o])))
					}
					dateCols[rd.Table.ColumnName(src.col.index)] = true
				}
				continue
			}
			// The row's currency, when a column gives it; an empty one
			// leaves the digits unknown rather than the import's.
			digits := fixed
			if src.col.currencyPos >= 0 {
				digits = -1
				if cur, ok := rd.rowCurrency(src.col, r); ok {
					if d, ok := money.Digits(cur); ok {
						digits = d
					}
				}
			}
			var d, g string
			if c.Kind == Text {
				d, g = separatorEvidence(text(c))
			}
			if vote, why := rd.unitsEvidence(c, digits, d); vote == shownVote {
				shown.add(rd.evidence(r, src.col.index, c, "", ""), why.decimals)
				unitCols[rd.Table.ColumnName(src.col.index)] = true
			} else if vote != "" {
				if units.Count1(vote) {
					units.Keep(rd.evidence(r, src.col.index, c, vote, why.text(w)))
					unitCols[rd.Table.ColumnName(src.col.index)] = true
				}
			}
			if c.Kind == Text {
				if d == "" && g == "" && len(ambiguous) < keepAmbiguous && ambiguousMark(text(c)) {
					ambiguous = append(ambiguous, rd.evidence(r, src.col.index, c, "", ""))
				}
				if d != "" && dec.Count1(d) {
					dec.Keep(rd.evidence(r, src.col.index, c, d, w.T("the decimal separator")))
				}
				if g != "" && grp.Count1(g) {
					grp.Keep(rd.evidence(r, src.col.index, c, g, w.T("the digit-group separator")))
				}
			}
		}
	}
	shown.vote(&units, w)
	out := detected{w: w, headerRow: rd.mapping.HeaderRow, majorHeaders: majorHeaders}
	out.units = units.Decide(Minor)
	out.units.Column = columnNames(unitCols)
	out.decimal, out.group = decideSeparators(&dec, &grp, ambiguous, w)
	out.dates = dates.Decide("")
	out.dates.Column = columnNames(dateCols)
	out.zone = zone.decision(rd)
	out.settings = Settings{Amounts: out.units.Value, Decimal: out.decimal.Value, Group: out.group.Value, DateOrder: out.dates.Value}
	return out
}

var dateWhy = map[string]string{DMY: lang.Mark("the first number is above 12: a day"), MDY: lang.Mark("the second number is above 12: a day")}

// evidence describes cell c of row r, column col, as evidence.
func (rd *reader) evidence(r *Row, col int, c Cell, suggests, why string) reading.Cell {
	return reading.Cell{Sheet: rd.Table.Sheet, Row: r.Number, Column: rd.Table.ColumnName(col), Raw: rd.Table.DisplayIn(c, rd.v.Language()), Suggests: suggests, Why: why}
}

// mixedUnits is what the reader needs to say, when the units are
// undecided, why an amount read otherwise is an error; nil when the units
// are decided.
func (d detected) mixedUnits() *unitsQuestion {
	if !d.units.Undecided {
		return nil
	}
	return &unitsQuestion{w: d.w, evidence: d.units.Evidence, headerRow: d.headerRow, majorHeaders: d.majorHeaders}
}

// keepAmbiguous is how many amounts that read two ways are kept to show.
const keepAmbiguous = 5

// decideSeparators decides the decimal and group separators from their
// votes. A mark seen as the decimal separator in one cell and as a group
// separator in another makes both undecided; a decimal separator decides
// the usual group separator with it, and a group separator alone decides
// the other mark as the decimal one.
//
// Amounts that read two ways ("1,500") and that no other cell explains
// make the decimal separator undecided: each is an error at its cell
// until the operator says which mark is the decimal one.
func decideSeparators(dec, grp *reading.Tally, ambiguous []reading.Cell, w lang.Tag) (d, g reading.Decision) {
	defer func() {
		if d.How != reading.Default || d.Undecided || len(ambiguous) == 0 {
			return
		}
		d.Undecided = true
		for _, c := range ambiguous {
			mark := ","
			if strings.Contains(c.Raw, ".") {
				mark = "."
			}
			asDecimal, asGroups := c, c
			asDecimal.Suggests, asDecimal.Why = "decimal "+mark, w.F("if %s is the decimal separator", mark)
			asGroups.Suggests, asGroups.Why = "groups "+mark, w.F("if %s groups digits", mark)
			d.Evidence = append(d.Evidence, asDecimal, asGroups)
		}
	}()
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

// unitsWhy is why a cell votes for its units, written out only for the
// few cells a tally keeps.
type unitsWhy struct {
	shown, written, stored, whole, grouped bool
	decimals, digits                       int
}

// text says why in l.
func (w unitsWhy) text(l lang.Tag) string {
	switch {
	case w.whole:
		return l.T("a whole number")
	case w.grouped:
		return l.T("a whole number with digit groups, or 3 decimals, which the currency does not have")
	case w.shown:
		return l.F("shown with %s", plainDecimals(l, w.decimals))
	case w.stored && w.digits >= 0 && w.decimals > w.digits:
		return l.F("%s, more than the currency has", plainDecimals(l, w.decimals))
	case w.stored:
		return l.T("a number with decimals")
	case w.digits >= 0 && w.decimals != w.digits:
		return l.F("written with %s, not the currency's %d", plainDecimals(l, w.decimals), w.digits)
	}
	return l.F("written with %s", plainDecimals(l, w.decimals))
}

// unitsEvidence says what one amount cell tells about the units of the
// file, given its currency's minor digits (-1 when not known): "major"
// when it is written with exactly the currency's decimals, "minor" when
// it cannot be (a whole number, or other decimals), "" when it reads the
// same either way (a whole number of yen) or cannot tell, and shownVote
// for a whole number whose format shows the currency's decimals (see
// shownWhole): a format alone never decides.
// dec is the decimal separator the cell's text shows, if any.
func (rd *reader) unitsEvidence(c Cell, digits int, dec string) (string, unitsWhy) {
	why := unitsWhy{digits: digits}
	switch c.Kind {
	case Number:
		s := strings.TrimSpace(c.Value)
		if rd.Table.IsDate(c) {
			return "", why
		}
		frac := storedDecimals(s)
		if format := rd.Table.NumberFormat(c); showsDecimals(format, digits) {
			why.shown, why.decimals = true, formatDecimals(format)
			if frac == 0 {
				return shownVote, why
			}
			// Decimals in the value and its format: major units (more
			// decimals than the currency has are an error at the cell).
			return reading.Major, why
		}
		why.stored, why.decimals = true, frac
		switch {
		case frac < 0:
			return "", why
		case frac == 0 && digits == 0:
			return "", why
		case frac == 0:
			why.whole = true
			return reading.Minor, why
		case digits < 0 || frac <= digits:
			// A spreadsheet drops the trailing zeros of 10.50.
			return reading.Major, why
		}
		return reading.Minor, why
	case Text:
		s := text(c)
		if dec == "" {
			if ambiguousMark(s) {
				if digits == 3 || digits <= 0 {
					return "", why
				}
				why.grouped = true
				return reading.Minor, why
			}
			if digits == 0 || !hasDigit(s) {
				return "", why
			}
			why.whole = true
			return reading.Minor, why
		}
		why.written, why.decimals = true, len(s)-strings.LastIndex(s, dec)-1
		if digits < 0 || why.decimals == digits {
			return reading.Major, why
		}
		return reading.Minor, why
	}
	return "", why
}

// formatDecimals returns the decimals a number format's first section
// shows ("#,##0.00" and "#,##0.00 [$€-407]" show 2), or 0; quoted text,
// escaped characters and bracketed codes are not part of the number.
func formatDecimals(format string) int {
	for i := 0; i < len(format); i++ {
		switch format[i] {
		case ';':
			return 0
		case '"':
			if end := strings.IndexByte(format[i+1:], '"'); end >= 0 {
				i += end + 1
			}
		case '[':
			if end := strings.IndexByte(format[i:], ']'); end >= 0 {
				i += end
			}
		case '\\', '_', '*':
			i++
		case '.':
			n := 0
			for _, r := range format[i+1:] {
				if r != '0' && r != '#' && r != '?' {
					break
				}
				n++
			}
			return n
		}
	}
	return 0
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
// either when it does not tell ("1,500" is one or the other). It reads
// the text once: it runs on every amount of a file.
func separatorEvidence(v string) (dec, grp string) {
	for len(v) > 0 && (v[0] == '+' || v[0] == '-') {
		v = v[1:]
	}
	dots, commas, lastDot, lastComma, spaced := 0, 0, -1, -1, false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '.':
			dots++
			lastDot = i
		case ',':
			commas++
			lastComma = i
		case ' ':
			spaced = true
		case 0xc2, 0xe2: // the first byte of U+00A0 and U+202F
			spaced = spaced || strings.HasPrefix(v[i:], "\u00a0") || strings.HasPrefix(v[i:], "\u202f")
		}
	}
	if spaced && dots+commas <= 1 {
		grp = " "
	}
	switch {
	case dots > 0 && commas > 0:
		if lastDot > lastComma {
			return ".", ","
		}
		return ",", "."
	case dots > 1:
		return "", "."
	case commas > 1:
		return "", ","
	case dots == 1 || commas == 1:
		mark, at := ".", lastDot
		if commas == 1 {
			mark, at = ",", lastComma
		}
		before := strings.TrimSpace(v[:at])
		if len(v)-at-1 == 3 && len(before) <= 3 && strings.TrimLeft(before, "0") != "" {
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
