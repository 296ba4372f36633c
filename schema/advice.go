package schema

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// advice is one advise entry of the overlay, ready to run on elements of
// a kind: a schema every element should also satisfy, or a check in Go.
type advice struct {
	entry OverlayEntry
	// rule is the compiled schema, for a schema entry.
	rule *compiledKind
	// check is the Go check, for a check entry.
	check checkFunc
	// value is the Go check of each value at the entry's pointers, split
	// into tokens in at, for a check entry that names one.
	value valueCheck
	at    [][]string
}

// A checkFunc appends the problems it finds in element i to out, each
// with the entry's id as its code.
type checkFunc func(v *Validator, k *Kind, id string, i int, element map[string]any, out []Problem) []Problem

// compileAdvice prepares kind k's advise entries.
func (v *Validator) compileAdvice(k *Kind) ([]advice, error) {
	var out []advice
	for _, e := range v.overlay.For(k) {
		if e.Severity != Advise {
			continue
		}
		a := advice{entry: e}
		switch {
		case valueChecks[e.Rule.Check] != nil:
			a.value = valueChecks[e.Rule.Check]
			for _, p := range e.Pointers {
				a.at = append(a.at, pointerTokens(p))
			}
		case e.Rule.Check != "":
			a.check = checks[e.Rule.Check]
			if a.check == nil {
				return nil, fmt.Errorf("overlay entry %s: no check called %q", e.ID, e.Rule.Check)
			}
		case len(e.Rule.Schema) > 0:
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(e.Rule.Schema))
			if err != nil {
				return nil, fmt.Errorf("overlay entry %s: %w", e.ID, err)
			}
			url := v.base + "advice/" + e.ID + ".json"
			if err := v.compiler.AddResource(url, doc); err != nil {
				return nil, fmt.Errorf("overlay entry %s: %w", e.ID, err)
			}
			sch, err := v.compiler.Compile(url)
			if err != nil {
				return nil, fmt.Errorf("overlay entry %s: %w", e.ID, err)
			}
			a.rule = newCompiledKind(sch, v.w)
			a.rule.advisory = true
		default:
			return nil, fmt.Errorf("overlay entry %s advises nothing", e.ID)
		}
		out = append(out, a)
	}
	return out, nil
}

// advise appends what kind k's advise entries find in element i: warnings,
// or errors when the Validator is strict.
func (v *Validator) advise(k *Kind, ck *compiledKind, i int, element map[string]any, out []Problem) []Problem {
	for j := range ck.advice {
		a := &ck.advice[j]
		from := len(out)
		switch {
		case a.value != nil:
			for _, ptr := range a.at {
				out = a.valuesAt(v, i, element, ptr, nil, out)
			}
		case a.check != nil:
			out = a.check(v, k, a.entry.ID, i, element, out)
		case a.rule.check.check(element) != valid:
			if err := a.rule.schema.Validate(element); err != nil {
				out = append(out, a.rule.explain(i, element, err)...)
			}
		}
		for j := from; j < len(out); j++ {
			out[j].Code = a.entry.ID
			out[j].Severity = Warning
			if v.strict {
				out[j].Severity = Error
			}
		}
	}
	return out
}

// valueChecks are the Go checks the overlay can name that look at one
// value at each of the entry's pointers, "*" standing for every item of a
// list; loc is where the value is in the element.
var valueChecks = map[string]valueCheck{
	CurrencyCode: isoCurrency,
}

// A valueCheck appends the problems it finds in one value of element i.
type valueCheck func(v *Validator, id string, i int, loc []string, value any, out []Problem) []Problem

// valuesAt runs the entry's value check on every value at pointer
// tokens ptr in node, "*" going through every item of a list; prefix
// holds the tokens that reached node from the element. A pointer without
// "*" allocates nothing on its way: this runs on every element.
func (a *advice) valuesAt(v *Validator, i int, node any, ptr, prefix []string, out []Problem) []Problem {
	star := slices.Index(ptr, "*")
	if star < 0 {
		x, ok := lookup(node, ptr)
		if !ok {
			return out
		}
		loc := ptr
		if prefix != nil {
			loc = append(slices.Clip(prefix), ptr...)
		}
		return a.value(v, a.entry.ID, i, loc, x, out)
	}
	list, _ := lookup(node, ptr[:star])
	items, _ := list.([]any)
	for n, item := range items {
		at := append(append(slices.Clip(prefix), ptr[:star]...), strconv.Itoa(n))
		out = a.valuesAt(v, i, item, ptr[star+1:], at, out)
	}
	return out
}

// pointerTokens splits a JSON pointer of the overlay into its tokens.
func pointerTokens(p string) []string {
	if p == "" {
		return nil
	}
	tokens := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens
}
