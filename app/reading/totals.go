package reading

import (
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
)

// A Total is a row under the data that adds it up, as the "Summe",
// "Total" or "Somme" row under a spreadsheet's list of payments does. It
// is no operation, so it is left out; it is the file's own control
// total, so each amount it holds is compared with the elements above it.
type Total struct {
	Sheet string `json:"sheet,omitempty"`
	Row   int    `json:"row"`
	// Label is the text of the cell that names the total ("Summe"), in
	// Column.
	Label  string `json:"label"`
	Column string `json:"column"`
	// Sums compares each amount of the row that could be read with the
	// elements above it; none when no amount of it could be read or
	// compared exactly (an amount above has a problem, or the row names
	// no currency under amounts of several).
	Sums []TotalSum `json:"sums,omitempty"`
}

// A TotalSum is one amount of a total row compared with the sum of the
// elements' amounts of its column in its currency, exactly, in minor
// units.
type TotalSum struct {
	// Column is the column of the row's amount ("C"); Field the field it
	// fills.
	Column   string `json:"column"`
	Field    string `json:"field"`
	Currency string `json:"currency"`
	// Stated is the row's amount, Elements the sum of the Count
	// elements' amounts in Currency.
	Stated   int64 `json:"stated"`
	Elements int64 `json:"elements"`
	Count    int   `json:"count"`
	Matches  bool  `json:"matches"`
}

// StatedText writes the row's amount as w writes amounts: "EUR 26.424,81".
func (s TotalSum) StatedText(w lang.Tag) string {
	return w.Localize(money.Format(s.Stated, s.Currency))
}

// ElementsText writes the elements' sum as w writes amounts.
func (s TotalSum) ElementsText(w lang.Tag) string {
	return w.Localize(money.Format(s.Elements, s.Currency))
}

// totalStatement says a total row in w: left out, and how its amounts
// compare with the rows above. A total that differs is marked: the
// operator looks at the rows and the total before sending.
func totalStatement(t Total, w lang.Tag) Statement {
	if len(t.Sums) == 0 {
		return Statement{Name: "totals", Text: w.F("%q in row %d adds up the rows above: the row is left out.", t.Label, t.Row)}
	}
	parts := make([]string, len(t.Sums))
	marked := false
	for i, s := range t.Sums {
		rows := w.Plural(s.Count, "row", "rows")
		switch {
		case s.Matches && s.Count == 1:
			parts[i] = w.F("%s, as in the one row above", s.StatedText(w))
		case s.Matches:
			parts[i] = w.F("%s, as the %s above add up", s.StatedText(w), rows)
		case s.Count == 1:
			parts[i] = w.F("%s, but the one row above holds %s", s.StatedText(w), s.ElementsText(w))
		default:
			parts[i] = w.F("%s, but the %s above add up to %s", s.StatedText(w), rows, s.ElementsText(w))
		}
		marked = marked || !s.Matches
	}
	return Statement{Name: "totals", Text: w.F("%q in row %d: %s. The row is left out.", t.Label, t.Row, w.Clauses(parts...)), Marked: marked}
}
