package schema

import (
	"bytes"
	"fmt"

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
	for _, a := range ck.advice {
		from := len(out)
		if a.check != nil {
			out = a.check(v, k, a.entry.ID, i, element, out)
		} else if a.rule.check.check(element) != valid {
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
