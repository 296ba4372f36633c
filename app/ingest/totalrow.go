package ingest

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// totalWords are what the label of a row adding up the rows above says,
// in English, German and French, once lowercased and without a colon.
var totalWords = map[string]bool{
	"total": true, "totals": true, "sum": true, "grand total": true,
	"summe": true, "gesamt": true, "gesamtsumme": true, "gesamtbetrag": true, "insgesamt": true, "endsumme": true,
	"somme": true, "total général": true, "total general": true, "montant total": true, "totaux": true,
}

// isTotalLabel reports a cell whose text names a total ("Summe",
// "Total :").
func isTotalLabel(c Cell) bool {
	if c.Kind != Text {
		return false
	}
	v := strings.ToLower(strings.Join(strings.Fields(strings.TrimRight(strings.TrimSpace(c.Value), ": \u00a0")), " "))
	return totalWords[v]
}

// totalRowsFrom returns the index in Table.Rows of the first of the rows
// at the end of the data that add up the rows above, as a spreadsheet's
// "Summe" row under a list of payments does, or len(Table.Rows) when
// there are none. Such a row names a total in one cell and has values
// only in amount columns besides: no payment is written so, and reading
// it as one would send the list's total as an operation.
func (rd *reader) totalRowsFrom() int {
	rows := rd.Table.Rows
	first := rd.firstDataRow()
	end := len(rows)
	for i := len(rows) - 1; i >= first; i-- {
		r := &rows[i]
		if !rowHasValue(r) {
			continue
		}
		if !rd.isTotalRow(r) {
			break
		}
		end = i
	}
	return end
}

// isTotalRow reports a row with exactly one cell naming a total and
// values otherwise only in columns mapped to amounts or their currencies.
func (rd *reader) isTotalRow(r *Row) bool {
	labels := 0
	for col, c := range r.Cells {
		switch {
		case c.Empty():
		case isTotalLabel(c):
			labels++
		case !rd.amountOrCurrency(col):
			return false
		}
	}
	return labels == 1
}

// amountOrCurrency reports whether column col of the file fills an
// amount or an amount's currency.
func (rd *reader) amountOrCurrency(col int) bool {
	for i := range rd.cols {
		c := &rd.cols[i]
		if c.set || c.index != col {
			continue
		}
		if isAmount(c.target.Field) {
			return true
		}
		for k := range rd.cols {
			if rd.cols[k].currency == c.target.Path {
				return true
			}
		}
	}
	return false
}

// TotalDiffersCode marks the amount of a total row under the data that
// differs from the sum of the elements above it: the file's own control
// total says the list is not what was meant.
const TotalDiffersCode = "total-differs"

// totals compares each total row under the data with the elements above
// it: those of the last build when it read the table as the import does
// now, else the amounts of the rows read for it.
func (im *Import) totals() []reading.Total {
	rd := im.p
	end := rd.totalRowsFrom()
	if end == len(rd.Table.Rows) {
		return nil
	}
	c := im.result.currentChecks(rd)
	if c == nil {
		c = rd.amountChecks(end)
	}
	return rd.compareTotals(c, end)
}

// currentChecks returns the checks of the build if it read the table with
// reader rd, else nil.
func (r *Result) currentChecks(rd *reader) *checks {
	if r == nil || r.p != rd {
		return nil
	}
	return r.checks
}

// amountChecks reads the amounts of the rows above end that a build makes
// elements of, and their currencies, as a build's checks keep them.
func (rd *reader) amountChecks(end int) *checks {
	first := rd.firstDataRow()
	c := rd.newChecks(end - first)
	c.ids = nil
	examples := rd.exampleValues()
	vals := make([]any, len(rd.cols))
	read := func(pos int, r *Row) {
		col := &rd.cols[pos]
		vals[pos], _ = rd.coerce(col.cell(r), col, r)
	}
	i := 0
	for n := first; n < end; n++ {
		r := &rd.Table.Rows[n]
		if n == first && examples != nil && isExampleRow(r, examples) || !rd.rowHasMappedValues(r) {
			continue
		}
		for k := range c.amounts {
			a := &c.amounts[k]
			read(a.pos, r)
			if a.curPos >= 0 {
				read(a.curPos, r)
			}
		}
		c.record(i, vals)
		i++
	}
	return c
}

// compareTotals says each total row from index end of Table.Rows on, each
// amount it holds compared with the sum of the elements' amounts of its
// column (c) in its currency: the one the row gives, else the import's,
// else the one every element of the column is in.
func (rd *reader) compareTotals(c *checks, end int) []reading.Total {
	var out []reading.Total
	for i := end; i < len(rd.Table.Rows); i++ {
		r := &rd.Table.Rows[i]
		if !rowHasValue(r) {
			continue
		}
		t := reading.Total{Sheet: rd.Table.Sheet, Row: r.Number}
		for col, cell := range r.Cells {
			if isTotalLabel(cell) {
				t.Label, t.Column = strings.TrimSpace(cell.Value), rd.Table.ColumnName(col)
			}
		}
		for k := range c.amounts {
			if s, ok := rd.totalSum(&c.amounts[k], r); ok {
				t.Sums = append(t.Sums, s)
			}
		}
		out = append(out, t)
	}
	return out
}

// totalSum compares the amount total row r holds in a's column with the
// elements' amounts; false when the row holds none there, it cannot be
// read, or the elements' sum is not known exactly (an amount has a
// problem, or they are in several currencies and the row names none).
func (rd *reader) totalSum(a *amountColumn, r *Row) (reading.TotalSum, bool) {
	col := a.col
	if col.set {
		return reading.TotalSum{}, false
	}
	cell := r.Cell(col.index)
	if cell.Empty() || rd.cellState(cell, col.index, r.Number) != nil {
		return reading.TotalSum{}, false
	}
	cur, ok := rd.rowCurrency(col, r)
	if !ok {
		cur = rd.settings.Currency
	}
	if cur == "" {
		if cur, ok = a.onlyCurrency(); !ok {
			return reading.TotalSum{}, false
		}
	}
	var v any
	var p *cellProblem
	if rd.settings.Amounts == Major {
		v, p = rd.readMajor(cell, cur)
	} else {
		v, p = rd.coerce(cell, col, r)
	}
	stated, ok := wholeNumber(v)
	if p != nil || !ok {
		return reading.TotalSum{}, false
	}
	s := reading.TotalSum{Column: rd.Table.ColumnName(col.index), Field: a.field, Currency: cur, Stated: stated}
	for e, m := range a.minor {
		if m == noAmount {
			return reading.TotalSum{}, false
		}
		if !strings.EqualFold(a.curs[a.cur[e]], cur) {
			continue
		}
		if s.Elements, ok = money.Add(s.Elements, m); !ok {
			return reading.TotalSum{}, false
		}
		s.Count++
	}
	s.Matches = s.Elements == s.Stated
	return s, true
}

// onlyCurrency returns the one currency every element of the column is
// in (case aside); false for none or several.
func (a *amountColumn) onlyCurrency() (string, bool) {
	only := ""
	for _, k := range a.cur {
		switch code := a.curs[k]; {
		case code == "":
			return "", false
		case only == "":
			only = code
		case !strings.EqualFold(code, only):
			return "", false
		}
	}
	return strings.ToUpper(only), only != ""
}

// totalWarnings warns at each amount of a total row under the data that
// differs from the sum of the elements above it, naming both sums and
// the difference.
func (r *Result) totalWarnings() []schema.Problem {
	if r.checks == nil {
		return nil
	}
	rd := r.p
	end := rd.totalRowsFrom()
	if end == len(rd.Table.Rows) {
		return nil
	}
	w := rd.v.Language()
	var out []schema.Problem
	for _, t := range rd.compareTotals(r.checks, end) {
		for _, s := range t.Sums {
			if s.Matches {
				continue
			}
			diff := new(big.Int).Sub(big.NewInt(s.Stated), big.NewInt(s.Elements))
			gap := w.Localize(money.FormatBig(diff.Abs(diff), s.Currency))
			msg := w.F("the total in row %d is %s, but the %s above add up to %s, a difference of %s: check the amounts and the total",
				t.Row, s.StatedText(w), w.Plural(s.Count, "row", "rows"), s.ElementsText(w), gap)
			if s.Count == 1 {
				msg = w.F("the total in row %d is %s, but the one row above holds %s, a difference of %s: check the amounts and the total",
					t.Row, s.StatedText(w), s.ElementsText(w), gap)
			}
			out = append(out, schema.Problem{Element: schema.RequestLevel, Code: TotalDiffersCode, Severity: schema.Warning,
				Sheet: t.Sheet, Row: t.Row, Column: s.Column, Field: s.Field, Value: strconv.FormatInt(s.Stated, 10), Message: msg})
		}
	}
	return out
}
