package ingest

import (
	"strings"

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

// totalRowProblem tells the operator that row r, a total, is left out.
func (rd *reader) totalRowProblem(r *Row) schema.Problem {
	p := schema.Problem{Element: schema.RequestLevel, Code: "total-row", Severity: schema.Warning, Sheet: rd.Table.Sheet, Row: r.Number}
	for col, c := range r.Cells {
		if isTotalLabel(c) {
			p.Column = rd.Table.ColumnName(col)
			p.Message = rd.v.Language().F("row %d adds up the rows above (%s%d: %q); it is left out", r.Number, p.Column, r.Number, c.Value)
		}
	}
	return p
}
