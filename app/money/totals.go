package money

import (
	"cmp"
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// A Total is the count and exact sum of the amounts of one currency: a
// control total. The review's summary, the confirmation before a
// submission and a submitted bulk's facts all sum with Totals.
type Total struct {
	// Currency is the ISO 4217 code; "" for the total of invalid
	// currencies.
	Currency string
	// Invalid marks the one total of the amounts whose currency is not a
	// valid ISO 4217 code ("eur", "EURO", none): they are summed together,
	// in minor units, and the codes found are in Codes.
	Invalid bool
	Codes   []string
	// MoreCodes says Codes left some out.
	MoreCodes bool
	Count     int
	// Minor is the sum in minor units (cents for EUR), of any size.
	Minor *big.Int
}

// maxInvalidCodes is how many invalid codes a Total names.
const maxInvalidCodes = 5

// Label names the total's row: its currency, or "invalid currency".
func (t Total) Label() string {
	if t.Invalid {
		return InvalidCurrency
	}
	return t.Currency
}

// Amount writes the sum in major units as people write them, without the
// currency: "12,345.67"; for invalid currencies, whose minor units are
// unknown, "1,350 in minor units".
func (t Total) Amount() string {
	if t.Invalid {
		return FormatBigWith(t.Minor, 0, Point) + " in minor units"
	}
	d, ok := Digits(t.Currency)
	if !ok {
		d = 2
	}
	return FormatBigWith(t.Minor, d, Point)
}

// String writes the total for people: "EUR 12,345.67"; for invalid
// currencies the sum in minor units and the codes found:
// `invalid currency: 1,350 in minor units ("eur", "EURO")`.
func (t Total) String() string {
	if !t.Invalid {
		return FormatBig(t.Minor, t.Currency)
	}
	return InvalidCurrency + ": " + t.Amount() + CodesNote(t.Codes, t.MoreCodes)
}

// CodesNote names the invalid codes of a total after its sum:
// ` ("eur", "EURO")`, with an ellipsis when there are more; "" for none.
func CodesNote(codes []string, more bool) string { return CodesNoteWith(codes, more, strconv.Quote) }

// CodesNoteWith is CodesNote with the codes quoted by quote: a language's
// quotation marks, ` („eur“, „EURO“)`.
func CodesNoteWith(codes []string, more bool, quote func(string) string) string {
	if len(codes) == 0 {
		return ""
	}
	quoted := make([]string, len(codes))
	for i, c := range codes {
		quoted[i] = quote(c)
	}
	s := " (" + strings.Join(quoted, ", ")
	if more {
		s += ", …"
	}
	return s + ")"
}

// Totals sums amounts by currency, exactly, whatever their number; the
// zero value is ready to use.
type Totals struct {
	by map[string]*Total
	// small holds the amount AddInt64 adds, so that it allocates nothing.
	small big.Int
}

// invalidKey is the key of the invalid currencies' total: no currency
// code can be it.
const invalidKey = "\x00invalid"

// Add counts an amount in minor units of a currency. An amount whose
// currency is not valid (Valid) goes to the one total of invalid
// currencies, which names the codes found.
func (ts *Totals) Add(currency string, minor *big.Int) {
	key := currency
	if !Valid(currency) {
		key = invalidKey
	}
	if ts.by == nil {
		ts.by = make(map[string]*Total)
	}
	t := ts.by[key]
	if t == nil {
		t = &Total{Currency: currency, Minor: new(big.Int)}
		if key == invalidKey {
			t.Currency, t.Invalid = "", true
		}
		ts.by[key] = t
	}
	if t.Invalid && !slices.Contains(t.Codes, currency) {
		if len(t.Codes) < maxInvalidCodes {
			t.Codes = append(t.Codes, currency)
		} else {
			t.MoreCodes = true
		}
	}
	t.Count++
	t.Minor.Add(t.Minor, minor)
}

// AddInt64 is Add for an amount that fits an int64.
func (ts *Totals) AddInt64(currency string, minor int64) {
	ts.Add(currency, ts.small.SetInt64(minor))
}

// List returns the totals by currency code, the invalid currencies' last;
// nil when nothing was added.
func (ts *Totals) List() []Total {
	if len(ts.by) == 0 {
		return nil
	}
	out := make([]Total, 0, len(ts.by))
	for _, t := range ts.by {
		slices.Sort(t.Codes)
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Total) int {
		return cmp.Or(cmp.Compare(btoi(a.Invalid), btoi(b.Invalid)), strings.Compare(a.Currency, b.Currency))
	})
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// AmountOf reads an amount object of a request body as decoded by
// schema.DecodeJSON, {"currency": "EUR", "amount": 1250}, with the amount
// a json.Number or its digits as text. ok is false when the amount is not
// a readable integer; the currency is returned whatever it is, "" when
// missing, so that Totals.Add counts it among the invalid.
func AmountOf(v any) (currency string, minor *big.Int, ok bool) {
	obj, isObj := v.(map[string]any)
	if !isObj {
		return "", nil, false
	}
	var digits string
	switch a := obj["amount"].(type) {
	case json.Number:
		digits = a.String()
	case string:
		digits = a
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return "", nil, false
	}
	cur, _ := obj["currency"].(string)
	return cur, n, true
}

// SmallAmountOf is AmountOf without an allocation when the amount fits
// an int64: it is then in minor, and large is nil; otherwise large holds
// it. A large total of many amounts is summed exactly all the same.
func SmallAmountOf(v any) (currency string, minor int64, large *big.Int, ok bool) {
	obj, isObj := v.(map[string]any)
	if !isObj {
		return "", 0, nil, false
	}
	var digits string
	switch a := obj["amount"].(type) {
	case json.Number:
		digits = a.String()
	case string:
		digits = a
	}
	// ParseInt reads in base 10 what big.Int's SetString does (a sign,
	// then digits): it fails only where SetString fails too, or where
	// the amount is too large for it.
	if n, err := strconv.ParseInt(digits, 10, 64); err == nil {
		cur, _ := obj["currency"].(string)
		return cur, n, nil, true
	}
	cur, n, ok := AmountOf(v)
	return cur, 0, n, ok
}
