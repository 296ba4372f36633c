package review

import (
	"cmp"
	"encoding/json"
	"hash/maphash"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

// facts are what the summary needs of one element, kept so that an edit
// recomputes only its own.
type facts struct {
	hash     uint64
	currency string
	// amount is nil when the element has no readable amount.
	amount *big.Int
	// source names the source instrument, "" when there is none.
	source string
}

// hashSeed is fixed for the life of the program: hashes are compared, never
// stored.
var hashSeed = maphash.MakeSeed()

func (d *Document) factsOf(v any) facts {
	var f facts
	var h maphash.Hash
	h.SetSeed(hashSeed)
	hashValue(&h, v)
	f.hash = h.Sum64()
	body := lookup(v, []any{"requestBody"})
	if d.Kind.Amount != "" {
		if obj, ok := lookup(body, pathTokens(d.Kind.Amount)).(map[string]any); ok {
			cur, _ := obj["currency"].(string)
			var digits string
			switch a := obj["amount"].(type) {
			case json.Number:
				digits = a.String()
			case string:
				digits = a
			}
			if n, ok := new(big.Int).SetString(digits, 10); ok && cur != "" {
				f.currency, f.amount = cur, n
			}
		}
	}
	if d.Kind.Source != "" {
		switch src := lookup(body, pathTokens(d.Kind.Source)).(type) {
		case map[string]any:
			typ, id := display(src["type"]), display(src["id"])
			f.source = strings.TrimSpace(typ + " " + id)
		case nil:
		default:
			f.source = display(src)
		}
	}
	return f
}

// pathTokens splits a dotted path of object keys.
func pathTokens(path string) []any {
	parts := strings.Split(path, ".")
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// hashValue writes a decoded JSON value to h, object keys in order, so that
// equal values hash alike whatever their maps' order.
func hashValue(h *maphash.Hash, v any) {
	switch v := v.(type) {
	case nil:
		h.WriteByte('n')
	case bool:
		if v {
			h.WriteByte('t')
		} else {
			h.WriteByte('f')
		}
	case string:
		h.WriteByte('s')
		h.WriteString(strconv.Itoa(len(v)))
		h.WriteByte(':')
		h.WriteString(v)
	case json.Number:
		h.WriteByte('#')
		h.WriteString(string(v))
		h.WriteByte(';')
	case []any:
		h.WriteByte('[')
		for _, x := range v {
			hashValue(h, x)
		}
		h.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		h.WriteByte('{')
		for _, k := range keys {
			hashValue(h, k)
			hashValue(h, v[k])
		}
		h.WriteByte('}')
	default:
		h.WriteByte('?')
		h.WriteString(reflect.TypeOf(v).String())
	}
}

// duplicates returns, for each element, the index of the first earlier
// element with the same content, or -1.
func (d *Document) duplicates() []int {
	out := make([]int, len(d.facts))
	first := make(map[uint64]int, len(d.facts))
	for i, f := range d.facts {
		out[i] = -1
		j, seen := first[f.hash]
		if !seen {
			first[f.hash] = i
			continue
		}
		// Equal hashes of different content are unlikely, not impossible.
		if reflect.DeepEqual(d.src.value(j), d.src.value(i)) {
			out[i] = j
		}
	}
	return out
}

// A Summary is what an operator checks before submitting: the counts and
// the control totals.
type Summary struct {
	Elements int
	// Valid and Invalid split the elements by whether they have errors.
	Valid, Invalid int
	// Errors and Warnings count the problems, those of the request as a
	// whole included.
	Errors, Warnings int
	// Duplicates counts the elements that repeat an earlier one.
	Duplicates int
	// Totals sums the amounts per currency, by currency code.
	Totals []Total
	// Sources sums them per source instrument, the most used first.
	Sources []SourceTotal
}

// A Total is the count and exact sum of the amounts in one currency.
type Total struct {
	Currency string
	Count    int
	// Minor is the sum in minor units (cents for EUR).
	Minor *big.Int
}

// String writes the total for people: "EUR 12,345.67".
func (t Total) String() string { return FormatMinor(t.Minor, t.Currency) }

// A SourceTotal is the count and totals of the elements drawn on one
// source instrument ("managed_accounts 1000001").
type SourceTotal struct {
	Source string
	Count  int
	Totals []Total
}

// Summary counts the document's elements and sums their amounts.
func (d *Document) Summary() Summary {
	s := Summary{Elements: d.src.count(), Invalid: len(d.invalid)}
	s.Valid = s.Elements - s.Invalid
	for _, p := range d.report.Problems {
		if p.Severity == schema.Error {
			s.Errors++
		} else {
			s.Warnings++
		}
	}
	for _, j := range d.dupOf {
		if j >= 0 {
			s.Duplicates++
		}
	}
	totals := make(map[string]*Total)
	sources := make(map[string]*SourceTotal)
	bySource := make(map[string]map[string]*Total)
	for _, f := range d.facts {
		if f.amount != nil {
			add(totals, f.currency, f.amount)
		}
		if f.source == "" {
			continue
		}
		st := sources[f.source]
		if st == nil {
			st = &SourceTotal{Source: f.source}
			sources[f.source] = st
			bySource[f.source] = make(map[string]*Total)
		}
		st.Count++
		if f.amount != nil {
			add(bySource[f.source], f.currency, f.amount)
		}
	}
	s.Totals = sortedTotals(totals)
	for name, st := range sources {
		st.Totals = sortedTotals(bySource[name])
		s.Sources = append(s.Sources, *st)
	}
	slices.SortFunc(s.Sources, func(a, b SourceTotal) int {
		return cmp.Or(b.Count-a.Count, strings.Compare(a.Source, b.Source))
	})
	return s
}

func add(totals map[string]*Total, currency string, amount *big.Int) {
	t := totals[currency]
	if t == nil {
		t = &Total{Currency: currency, Minor: new(big.Int)}
		totals[currency] = t
	}
	t.Count++
	t.Minor.Add(t.Minor, amount)
}

func sortedTotals(m map[string]*Total) []Total {
	out := make([]Total, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Total) int { return strings.Compare(a.Currency, b.Currency) })
	return out
}

// FormatMinor writes an amount in minor units with its currency, in major
// units: "EUR 12,345.67". Sums too large for 64 bits are written the same
// way.
func FormatMinor(n *big.Int, currency string) string {
	if n.IsInt64() {
		return money.Format(n.Int64(), currency)
	}
	digits, ok := money.Digits(currency)
	if !ok {
		digits = 2
	}
	s := new(big.Int).Abs(n).String()
	for len(s) <= digits {
		s = "0" + s
	}
	whole, frac := s[:len(s)-digits], s[len(s)-digits:]
	var b strings.Builder
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	if digits > 0 {
		b.WriteString("." + frac)
	}
	sign := ""
	if n.Sign() < 0 {
		sign = "-"
	}
	return currency + " " + sign + b.String()
}
