package submission

import (
	"encoding/json"
	"math/big"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A CurrencyTotal is the control total of one currency: the sum of the
// amounts in minor units (cents for EUR), and how many elements it sums.
type CurrencyTotal struct {
	// Currency is the ISO 4217 code, "" for the invalid currencies.
	Currency string
	// Invalid marks the one total of the amounts whose currency is not a
	// valid ISO 4217 code ("eur", "EURO", none), as the review's totals
	// group them (money.Valid).
	Invalid bool
	Minor   *big.Int
	Count   int
}

// Label names the total: its currency, or "invalid currency".
func (ct CurrencyTotal) Label() string {
	if ct.Invalid {
		return money.InvalidCurrency
	}
	return ct.Currency
}

// Totals are what the confirmation step shows before anything is sent.
type Totals struct {
	Kind     string
	Elements int
	// Chunks is how many bulks the elements make.
	Chunks int
	// Amounts holds one total per currency, by currency code, for kinds
	// that move money, then one of the invalid currencies; elements
	// without a readable amount are left out.
	Amounts []CurrencyTotal
}

// ControlTotals sums the plan's elements (decoded as by schema.DecodeJSON;
// only the plan's ones count) exactly, whatever their number.
func ControlTotals(p *Plan, elements []any) Totals {
	t := Totals{Kind: p.Kind.ID, Elements: p.Elements, Chunks: len(p.Chunks)}
	if !p.Kind.MovesMoney() {
		return t
	}
	by := make(map[string]*CurrencyTotal)
	for _, c := range p.Chunks {
		for _, i := range c.Elements.Indexes() {
			cur, amount, ok := amountOf(elements[i], p.Kind)
			if !ok {
				continue
			}
			key := cur
			if !money.Valid(cur) {
				key = invalidKey
			}
			ct := by[key]
			if ct == nil {
				ct = &CurrencyTotal{Currency: cur, Minor: new(big.Int)}
				if key == invalidKey {
					ct.Currency, ct.Invalid = "", true
				}
				by[key] = ct
			}
			ct.Minor.Add(ct.Minor, amount)
			ct.Count++
		}
	}
	for _, ct := range by {
		t.Amounts = append(t.Amounts, *ct)
	}
	slices.SortFunc(t.Amounts, func(a, b CurrencyTotal) int {
		if a.Invalid != b.Invalid {
			if a.Invalid {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Currency, b.Currency)
	})
	return t
}

// invalidKey is the key of the invalid currencies' total: no currency
// code can be it.
const invalidKey = "\x00invalid"

// amountOf reads requestBody.<k.Amount>.{currency, amount}.
func amountOf(element any, k *schema.Kind) (string, *big.Int, bool) {
	v := element
	for _, key := range append([]string{"requestBody"}, strings.Split(k.Amount, ".")...) {
		obj, ok := v.(map[string]any)
		if !ok {
			return "", nil, false
		}
		v = obj[key]
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", nil, false
	}
	cur, _ := obj["currency"].(string)
	var digits string
	switch a := obj["amount"].(type) {
	case json.Number:
		digits = a.String()
	case string:
		digits = a
	}
	// An amount without a currency counts, in the invalid currencies'
	// total.
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return "", nil, false
	}
	return cur, n, true
}
