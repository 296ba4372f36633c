package ingest

import (
	"strings"
	"unicode"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// Whether amounts are in minor units (1050 is EUR 10.50) or in major
// units (10.50 is EUR 10.50) is read from three kinds of evidence, none of
// which decides alone:
//
//   - the values: a value with its currency's decimals can only be major
//     units; a whole number reads as minor units;
//   - the header of the amount's column: the field's API path
//     ("destinationAmount.amount", the old template's header) or words
//     for minor units ("Betrag in Cent") say minor units, since the API
//     takes them; a header that names a currency or major units
//     ("Betrag (EUR)", "Amount in EUR", "Montant €", "in Euro") says major
//     units, since an amount "in EUR" is counted in euros; any other
//     header ("Betrag", "Amount") says nothing;
//   - a number cell's display format: "#,##0.00", "0.00" or a currency
//     format shows the currency's decimals, but it changes only how the
//     number looks, so a whole number under it (1050 shown as 1,050.00)
//     says major units only when a value with decimals or the header says
//     so too. Alone, against its own whole value, it is a conflict.
//
// Every piece votes; unanimous votes decide and any disagreement leaves
// the units undecided, with the cells of each side as evidence: the
// operator is asked. Until they choose, amounts are read in minor units,
// and each amount that some evidence reads otherwise (a value with
// decimals, a whole number shown with decimals or under a header naming
// the currency) is an error at its cell, so that no such file is checked
// valid or submitted before the question is answered.

// shownVote is what unitsEvidence returns for a whole number whose format
// shows its currency's decimals: evidence for major units only if other
// evidence agrees (see shownWhole).
const shownVote = "shown"

// shownWhole gathers the whole numbers shown with decimals.
type shownWhole struct {
	n        int
	decimals int
	cells    []reading.Cell
}

func (s *shownWhole) add(c reading.Cell, decimals int) {
	s.n++
	s.decimals = decimals
	if len(s.cells) < keepAmbiguous {
		s.cells = append(s.cells, c)
	}
}

// vote adds the whole numbers shown with decimals to the units' votes:
// for major units when other evidence (a value with decimals, a header
// naming the currency) already says so; otherwise their format says major
// units and their value minor units, which leaves the units undecided.
func (s *shownWhole) vote(units *reading.Tally, w lang.Tag) {
	if s.n == 0 {
		return
	}
	corroborated := units.Count(reading.Major) > 0
	for i := range s.n {
		if units.Count1(reading.Major) && i < len(s.cells) {
			c := s.cells[i]
			c.Suggests, c.Why = reading.Major, w.F("shown with %s", plainDecimals(w, s.decimals))
			units.Keep(c)
		}
		if corroborated {
			continue
		}
		if units.Count1(reading.Minor) && i < len(s.cells) {
			c := s.cells[i]
			c.Suggests, c.Why = reading.Minor, w.F("a whole number, only shown with %s", plainDecimals(w, s.decimals))
			units.Keep(c)
		}
	}
}

// headerUnits says what an amount column's header tells about the units
// of the field at path: minor and major hold why it says so, "" when it
// does not. A header can say both ("destinationAmount.amount (EUR)").
func headerUnits(header, path string, w lang.Tag) (minor, major string) {
	words := unitWords(header)
	for _, word := range words {
		switch strings.ToLower(word) {
		case "cent", "cents", "centime", "centimes", "pence", "penny", "rappen", "minor":
			return w.T("the header names minor units"), ""
		}
	}
	if isAPIPath(header, path) {
		minor = w.T("the header is the field's API path, which takes minor units")
	}
	for _, word := range words {
		if namesMajor(word) {
			major = w.T("the header names the currency or major units, as amounts in major units are")
			break
		}
	}
	return minor, major
}

// isAPIPath reports whether a header is the field's path as the API
// writes it, without the notes in parentheses and the '*' templates
// mark required fields with: "destinationAmount.amount",
// "spendLimit[0].value.amount" or "spendLimit.0.value.amount".
func isAPIPath(header, path string) bool {
	h, _, _ := strings.Cut(header, "(")
	h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "*"))
	if strings.ContainsAny(h, " \u00a0") {
		return false
	}
	dotted := strings.NewReplacer("[", ".", "]", "").Replace(path)
	return strings.EqualFold(h, path) || strings.EqualFold(h, dotted)
}

// unitWords splits a header into its words and currency symbols.
func unitWords(header string) []string {
	var out []string
	start := -1
	for i, r := range header {
		letter := unicode.IsLetter(r)
		if letter && start < 0 {
			start = i
		}
		if !letter && start >= 0 {
			out = append(out, header[start:i])
			start = -1
		}
		if strings.ContainsRune("€$£¥₣", r) {
			out = append(out, string(r))
		}
	}
	if start >= 0 {
		out = append(out, header[start:])
	}
	return out
}

// namesMajor reports a word of a header that names a currency or major
// units: a currency code in capitals ("EUR"), a common one in any case,
// a currency's symbol or name.
func namesMajor(word string) bool {
	if len(word) == 3 && strings.ToUpper(word) == word && money.Valid(word) {
		return true
	}
	switch strings.ToLower(word) {
	case "€", "$", "£", "¥", "₣", "eur", "usd", "gbp", "chf",
		"euro", "euros", "dollar", "dollars", "pound", "pounds", "franken", "franc", "francs", "major":
		return true
	}
	return false
}

// unitsHeaders votes, once per amount column, what its header says, and
// returns the columns whose header says major units.
func (rd *reader) unitsHeaders(units *reading.Tally, unitCols map[string]bool) map[int]bool {
	w := rd.v.Language()
	major := map[int]bool{}
	for ci := range rd.cols {
		col := &rd.cols[ci]
		if col.index < 0 || !isAmount(col.target.Field) {
			continue
		}
		header := ""
		for _, m := range rd.mapping.Columns {
			if m.Column == col.index {
				header = m.Header
			}
		}
		minorWhy, majorWhy := headerUnits(header, col.target.Path, w)
		name := rd.Table.ColumnName(col.index)
		for _, v := range [][2]string{{reading.Minor, minorWhy}, {reading.Major, majorWhy}} {
			if v[1] == "" {
				continue
			}
			if units.Count1(v[0]) {
				units.Keep(reading.Cell{Sheet: rd.Table.Sheet, Row: rd.mapping.HeaderRow, Column: name, Raw: header, Suggests: v[0], Why: v[1]})
			}
			unitCols[name] = true
		}
		if majorWhy != "" {
			major[col.index] = true
		}
	}
	return major
}

// A unitsQuestion is what the reader knows of units the file leaves
// undecided, for the messages of the amounts read otherwise.
type unitsQuestion struct {
	w         lang.Tag
	evidence  []reading.Cell
	headerRow int
	// majorHeaders are the amount columns whose header says major units.
	majorHeaders map[int]bool
	// settled is set once the operator chose the units: whole amounts are
	// then read as chosen, without a question.
	settled bool
}

// settledIf returns q settled when the operator chose the units.
func (q *unitsQuestion) settledIf(chosen bool) *unitsQuestion {
	if q == nil || !chosen || q.settled {
		return q
	}
	s := *q
	s.settled = true
	return &s
}

// decimalWhy says, for the message of an amount with decimals in row n
// read in minor units, what reads as minor units: another amount of the
// file written without decimals, or a header.
func (q *unitsQuestion) decimalWhy(n int) string {
	w := q.w
	var header *reading.Cell
	for i, c := range q.evidence {
		if c.Suggests != reading.Minor || c.Row == n {
			continue
		}
		if c.Row == q.headerRow {
			if header == nil {
				header = &q.evidence[i]
			}
			continue
		}
		return w.F("other amounts of the file are not written with their currency's decimals (%s %q: %s)", c.Place(w), c.Raw, c.Why)
	}
	if header != nil {
		return w.F("the column's header %q says minor units (%s)", header.Raw, header.Why)
	}
	return w.T("other amounts of the file are not written with their currency's decimals")
}

// unitsAsked is the problem of a whole amount, read in minor units while
// the file leaves the units undecided, that some evidence reads in major
// units: it is shown with its currency's decimals, or its column's header
// names the currency. nil when nothing reads it otherwise, when the units
// are decided or chosen, or when amounts are read in major units.
func (rd *reader) unitsAsked(c Cell, col *column, r *Row, s string) *cellProblem {
	q := rd.mixedUnits
	if q == nil || q.settled || rd.settings.Amounts != Minor || isDecimal(c, s) {
		return nil
	}
	digits := -1
	cur := rd.currencyOf(col, r)
	if d, ok := money.Digits(cur); ok {
		digits = d
	}
	if digits == 0 {
		return nil // a whole yen is the same in both units
	}
	shown := c.Kind == Number && showsDecimals(rd.Table.NumberFormat(c), digits)
	if !shown && !q.majorHeaders[col.index] {
		return nil
	}
	if digits < 0 {
		return cellError("amount-units", "%q may be in minor or in major units, and the file does not say which: choose how the amounts are written", s)
	}
	n, err := money.ParseStored(s, 0)
	if err != nil {
		if n, err = money.ParseMinor(s, rd.settings.separators()); err != nil {
			return nil // the reading of the amount says what is wrong
		}
	}
	asMinor := q.w.Localize(money.Format(n, cur))
	asMajor := asMinor
	if big, ok := scaleUp(n, digits); ok {
		asMajor = q.w.Localize(money.Format(big, cur))
	}
	return cellError("amount-units", "%q is %s in minor units but %s in major units, and the file does not say which: choose how the amounts are written", s, asMinor, asMajor)
}

// scaleUp returns n × 10^digits, and false when it overflows.
func scaleUp(n int64, digits int) (int64, bool) {
	for range digits {
		if n > 1<<62/10 || n < -(1<<62)/10 {
			return 0, false
		}
		n *= 10
	}
	return n, true
}

// showsDecimals reports whether a number format shows the decimals of a
// currency with digits minor digits (-1: any decimals, the currency
// being unknown).
func showsDecimals(format string, digits int) bool {
	fd := formatDecimals(format)
	return fd > 0 && (digits < 0 || fd == digits)
}

// plainDecimals writes "2 decimals" in w.
func plainDecimals(w lang.Tag, n int) string { return w.Plural(n, "decimal", "decimals") }
