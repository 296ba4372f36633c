package submission

import (
	"github.com/bulkdesk/bulkdesk/app/money"
)

// Totals are what the confirmation step shows before anything is sent.
type Totals struct {
	Kind     string
	Elements int
	// Chunks is how many bulks the elements make.
	Chunks int
	// Amounts holds one total per currency, by currency code, for kinds
	// that move money, then one of the invalid currencies, grouped as the
	// review's totals group them (money.Totals); elements without a
	// readable amount are left out.
	Amounts []money.Total
}

// ControlTotals sums the plan's elements (decoded as by schema.DecodeJSON;
// only the plan's ones count) exactly, whatever their number.
func ControlTotals(p *Plan, elements []any) Totals {
	t := Totals{Kind: p.Kind.ID, Elements: p.Elements, Chunks: len(p.Chunks)}
	if !p.Kind.MovesMoney() {
		return t
	}
	var sums money.Totals
	for _, c := range p.Chunks {
		for _, i := range c.Elements.Indexes() {
			// An amount without a currency counts, in the invalid
			// currencies' total.
			if cur, amount, ok := money.AmountOf(p.Kind.AmountObject(elements[i])); ok {
				sums.Add(cur, amount)
			}
		}
	}
	t.Amounts = sums.List()
	return t
}
