package review

import (
	"cmp"
	"encoding/json"
	"hash/maphash"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

// facts are what the summary needs of one element, kept so that an edit
// recomputes only its own.
type facts struct {
	hash     uint64
	currency string
	// hasAmount says the element has a readable amount: minor when it
	// fits an int64 (large is nil), else large.
	hasAmount bool
	minor     int64
	large     *big.Int
	// source names the source instrument, "" when there is none.
	source string
}

// addTo adds the element's amount, if any, to ts.
func (f *facts) addTo(ts *money.Totals) {
	switch {
	case f.large != nil:
		ts.Add(f.currency, f.large)
	case f.hasAmount:
		ts.AddInt64(f.currency, f.minor)
	}
}

// sourceNames remembers the names of source instruments made while the
// facts of every element are gathered: a file draws on a few instruments
// many times, and each name would be an allocation.
type sourceNames map[[2]string]string

// maxSourceNames bounds sourceNames, for a file of as many instruments as
// elements.
const maxSourceNames = 4096

func (names sourceNames) name(typ, id string) string {
	if s, ok := names[[2]string{typ, id}]; ok {
		return s
	}
	s := strings.TrimSpace(typ + " " + id)
	if names != nil && len(names) < maxSourceNames {
		names[[2]string{typ, id}] = s
	}
	return s
}

// hashSeed is fixed for the life of the program: hashes are compared, never
// stored.
var hashSeed = maphash.MakeSeed()

func (d *Document) factsOf(v any, names sourceNames) facts {
	return factsFrom(hashOf(v), d.Kind.AmountObject(v), d.Kind.SourceObject(v), names)
}

// factsFrom makes the facts of an element from its hash, its amount
// object and its source.
func factsFrom(hash uint64, amount, source any, names sourceNames) facts {
	f := facts{hash: hash}
	// A readable amount counts whatever its currency: one that is not
	// valid ("eur", "EURO", none) goes to the invalid currency's total.
	if cur, n, large, ok := money.SmallAmountOf(amount); ok {
		f.currency, f.hasAmount, f.minor, f.large = cur, true, n, large
	}
	switch src := source.(type) {
	case map[string]any:
		f.source = names.name(display(src["type"]), display(src["id"]))
	case nil:
	default:
		f.source = display(src)
	}
	return f
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
	// Totals sums the amounts per currency, by currency code, the invalid
	// currencies' last.
	Totals []money.Total
	// Sources sums them per source instrument, the most used first.
	Sources []SourceTotal
}

// A SourceTotal is the count and totals of the elements drawn on one
// source instrument ("managed_accounts 1000001").
type SourceTotal struct {
	Source string
	Count  int
	Totals []money.Total
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
	var totals money.Totals
	sources := make(map[string]*SourceTotal)
	bySource := make(map[string]*money.Totals)
	for _, f := range d.facts {
		f.addTo(&totals)
		if f.source == "" {
			continue
		}
		st := sources[f.source]
		if st == nil {
			st = &SourceTotal{Source: f.source}
			sources[f.source] = st
			bySource[f.source] = new(money.Totals)
		}
		st.Count++
		f.addTo(bySource[f.source])
	}
	s.Totals = totals.List()
	for name, st := range sources {
		st.Totals = bySource[name].List()
		s.Sources = append(s.Sources, *st)
	}
	slices.SortFunc(s.Sources, func(a, b SourceTotal) int {
		return cmp.Or(b.Count-a.Count, strings.Compare(a.Source, b.Source))
	})
	return s
}
