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
	f := facts{hash: hashOf(v)}
	body := lookup(v, requestBody)
	if d.amountPath != nil {
		if obj, ok := lookup(body, d.amountPath).(map[string]any); ok {
			cur, _ := obj["currency"].(string)
			var digits string
			switch a := obj["amount"].(type) {
			case json.Number:
				digits = a.String()
			case string:
				digits = a
			}
			// A readable amount counts whatever its currency: one that is
			// not valid ("eur", "EURO", none) goes to the invalid
			// currency's total.
			if n, ok := new(big.Int).SetString(digits, 10); ok {
				f.currency, f.amount = cur, n
			}
		}
	}
	if d.sourcePath != nil {
		switch src := lookup(body, d.sourcePath).(type) {
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

// requestBody is the path of an element's body.
var requestBody = []any{"requestBody"}

// pathTokens splits a dotted path of object keys; "" gives nil.
func pathTokens(path string) []any {
	if path == "" {
		return nil
	}
	parts := strings.Split(path, ".")
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// Tags keep values of different types apart in hashOf.
const (
	tagNull uint64 = iota + 0x51ed27
	tagFalse
	tagTrue
	tagString
	tagNumber
	tagList
	tagObject
	tagOther
)

// hashOf hashes a decoded JSON value so that equal values hash alike
// whatever their maps' order: an object's members are combined with a sum,
// which needs no sorting of keys.
func hashOf(v any) uint64 {
	switch v := v.(type) {
	case nil:
		return tagNull
	case bool:
		if v {
			return tagTrue
		}
		return tagFalse
	case string:
		return mix(tagString, maphash.String(hashSeed, v))
	case json.Number:
		return mix(tagNumber, maphash.String(hashSeed, string(v)))
	case []any:
		h := tagList
		for _, x := range v {
			h = mix(h, hashOf(x))
		}
		return h
	case map[string]any:
		var sum uint64
		for k, x := range v {
			sum += mix(maphash.String(hashSeed, k), hashOf(x))
		}
		return mix(tagObject, sum)
	}
	return mix(tagOther, maphash.String(hashSeed, reflect.TypeOf(v).String()))
}

// mix combines two hashes, in order.
func mix(a, b uint64) uint64 {
	h := a ^ (b + 0x9e3779b97f4a7c15 + a<<6 + a>>2)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
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
	// Currency is the ISO 4217 code; "" for the total of invalid
	// currencies.
	Currency string
	// Invalid marks the one total of the amounts whose currency is not a
	// valid ISO 4217 code ("eur", "EURO", none): they are summed together,
	// in minor units, and the codes found are in Codes.
	Invalid bool
	Codes   []string
	// moreCodes says Codes left some out.
	moreCodes bool
	Count     int
	// Minor is the sum in minor units (cents for EUR).
	Minor *big.Int
}

// maxInvalidCodes is how many invalid codes a Total names.
const maxInvalidCodes = 5

// Label names the total's row: its currency, or "invalid currency".
func (t Total) Label() string {
	if t.Invalid {
		return money.InvalidCurrency
	}
	return t.Currency
}

// String writes the total for people: "EUR 12,345.67"; for invalid
// currencies, whose minor units are unknown, the sum in minor units and
// the codes found: `invalid currency: 1,350 in minor units ("eur", "EURO")`.
func (t Total) String() string {
	if !t.Invalid {
		return FormatMinor(t.Minor, t.Currency)
	}
	s := money.InvalidCurrency + ": " + groupDigits(t.Minor) + " in minor units"
	if len(t.Codes) > 0 {
		quoted := make([]string, len(t.Codes))
		for i, c := range t.Codes {
			quoted[i] = strconv.Quote(c)
		}
		s += " (" + strings.Join(quoted, ", ")
		if t.moreCodes {
			s += ", …"
		}
		s += ")"
	}
	return s
}

// groupDigits writes an integer with groups of three digits: "-1,350".
func groupDigits(n *big.Int) string {
	s := new(big.Int).Abs(n).String()
	var b strings.Builder
	if n.Sign() < 0 {
		b.WriteByte('-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

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

// invalidKey is the key of the invalid currencies' total: no currency
// code can be it.
const invalidKey = "\x00invalid"

func add(totals map[string]*Total, currency string, amount *big.Int) {
	key := currency
	if !money.Valid(currency) {
		key = invalidKey
	}
	t := totals[key]
	if t == nil {
		t = &Total{Currency: currency, Minor: new(big.Int)}
		if key == invalidKey {
			t.Currency, t.Invalid = "", true
		}
		totals[key] = t
	}
	if t.Invalid && !slices.Contains(t.Codes, currency) {
		if len(t.Codes) < maxInvalidCodes {
			t.Codes = append(t.Codes, currency)
		} else {
			t.moreCodes = true
		}
	}
	t.Count++
	t.Minor.Add(t.Minor, amount)
}

// sortedTotals orders totals by currency code, the invalid currencies'
// last.
func sortedTotals(m map[string]*Total) []Total {
	out := make([]Total, 0, len(m))
	for _, t := range m {
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
