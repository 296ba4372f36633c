package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The element schemas are derived from the API's OpenAPI document as they
// are (see the contract package). What this project decides on top of
// them lives in one file, overlay.json: a short list of entries, each with
// an id, the places it concerns, its rule and why, and the words operators
// read for each field.
//
// An entry's severity says what it may do:
//   - relax changes the upstream schema where it cannot be satisfied;
//   - require adds what the single operation behind each element needs and
//     the item schema leaves out;
//   - advise adds a warning: a rule from the documentation's prose or a
//     likely mistake. Strict validation makes these errors.
//
// So an element is invalid exactly when the upstream schema, after the
// relax and require entries, refuses it.

//go:embed overlay.json
var overlayFile []byte

// An OverlaySeverity is what an overlay entry may do to the verdict.
type OverlaySeverity string

const (
	Relax   OverlaySeverity = "relax"
	Require OverlaySeverity = "require"
	Advise  OverlaySeverity = "advise"
)

// An OverlayEntry is one decision of this project about the contract.
type OverlayEntry struct {
	ID       string          `json:"id"`
	Severity OverlaySeverity `json:"severity"`
	Kinds    []string        `json:"kinds"`
	// Pointers are the places the entry concerns: JSON pointers into the
	// kind's schema for relax and require, into the element for advise
	// ("*" standing for every item of a list).
	Pointers []string    `json:"pointers"`
	Rule     OverlayRule `json:"rule"`
	Why      string      `json:"why"`
}

// OverlayRule is what an entry does: an operation on the schema (Op), a
// schema every element should also satisfy (Schema), or a check written
// in Go (Check).
type OverlayRule struct {
	Op     string          `json:"op,omitempty"`
	At     string          `json:"at,omitempty"`
	Names  []string        `json:"names,omitempty"`
	Schema json.RawMessage `json:"schema,omitempty"`
	Check  string          `json:"check,omitempty"`
}

// Describe says in a few words what the rule does, for the README's table
// and the CLI.
func (r OverlayRule) Describe() string {
	switch {
	case r.Op == "merge-identical-branches":
		return "identical oneOf branches count once"
	case r.Op == "require":
		return "require " + strings.Join(r.Names, ", ")
	case r.Op == "require-path-param":
		return "require the path parameter"
	case r.Check != "":
		return "check " + r.Check
	case len(r.Schema) > 0:
		return "schema"
	}
	return r.Op
}

// Words are this project's title and description of a field.
type Words struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Overlay is the whole file: the entries, the names of the shapes a
// oneOf chooses between, the words of each field by kind ("*" for every
// kind) and field path (as Field.Path writes it), and the fields that take
// epoch milliseconds, by kind and path too (the contract says only
// "digits" or "int64" of them).
type Overlay struct {
	Entries    []OverlayEntry              `json:"entries"`
	Shapes     map[string]string           `json:"shapes"`
	Fields     map[string]map[string]Words `json:"fields"`
	Timestamps map[string][]string         `json:"timestamps"`
}

// TheOverlay returns the project's overlay. It is part of the binary; an
// error reading it is a build defect that the tests catch.
var TheOverlay = sync.OnceValue(func() *Overlay {
	var o Overlay
	dec := json.NewDecoder(bytes.NewReader(overlayFile))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		panic(fmt.Sprintf("reading overlay.json: %v", err))
	}
	return &o
})

// For returns the entries that concern kind k.
func (o *Overlay) For(k *Kind) []OverlayEntry {
	var out []OverlayEntry
	for _, e := range o.Entries {
		if slices.Contains(e.Kinds, k.ID) {
			out = append(out, e)
		}
	}
	return out
}

// WordsFor returns this project's words for a field of kind k.
func (o *Overlay) WordsFor(k *Kind, path string) (Words, bool) {
	if w, ok := o.Fields[k.ID][path]; ok {
		return w, true
	}
	w, ok := o.Fields["*"][path]
	return w, ok
}

// IsTimestamp reports whether the overlay says a field of kind k takes
// epoch milliseconds.
func (o *Overlay) IsTimestamp(k *Kind, path string) bool {
	return slices.Contains(o.Timestamps[k.ID], path) || slices.Contains(o.Timestamps["*"], path)
}

// applyOverlay changes a kind's decoded schema document in place by the
// relax and require entries, names the shapes it defines, and returns the
// entries it could not apply (a newer contract may have moved the place
// they concern).
func applyOverlay(k *Kind, doc any, o *Overlay) []string {
	var skipped []string
	for _, e := range o.For(k) {
		var err error
		switch e.Severity {
		case Relax, Require:
			err = applyRule(k, doc, e)
		}
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", e.ID, err))
		}
	}
	if root, ok := doc.(map[string]any); ok {
		defs, _ := root["$defs"].(map[string]any)
		for name, title := range o.Shapes {
			if d, ok := defs[name].(map[string]any); ok {
				d["title"] = title
			}
		}
	}
	return skipped
}

func applyRule(k *Kind, doc any, e OverlayEntry) error {
	switch e.Rule.Op {
	case "merge-identical-branches":
		for _, p := range e.Pointers {
			parent, last, err := parentOf(doc, p)
			if err != nil {
				return err
			}
			branches, ok := parent[last].([]any)
			if !ok {
				return fmt.Errorf("%s is not a list of branches", p)
			}
			parent[last] = mergeIdentical(doc, branches)
		}
		return nil
	case "require":
		return requireAt(doc, e.Rule.At, e.Rule.Names...)
	case "require-path-param":
		if k.PathParam == "" {
			return fmt.Errorf("%s has no path parameter", k.ID)
		}
		if err := requireAt(doc, "", "pathParams"); err != nil {
			return err
		}
		return requireAt(doc, "/properties/pathParams", k.PathParam)
	}
	return fmt.Errorf("unknown operation %q", e.Rule.Op)
}

// mergeIdentical keeps the first of branches that are the same schema once
// their references are followed.
func mergeIdentical(doc any, branches []any) []any {
	var out, seen []any
	for _, b := range branches {
		r := resolveRef(doc, b)
		if slices.ContainsFunc(seen, func(s any) bool { return reflect.DeepEqual(s, r) }) {
			continue
		}
		seen = append(seen, r)
		out = append(out, b)
	}
	return out
}

// resolveRef follows a local "$ref" of schema s, if it is only that.
func resolveRef(doc, s any) any {
	for range 16 {
		m, ok := s.(map[string]any)
		if !ok || len(m) != 1 {
			return s
		}
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return s
		}
		target, err := at(doc, strings.TrimPrefix(ref, "#"))
		if err != nil {
			return s
		}
		s = target
	}
	return s
}

// requireAt adds names to the "required" list of the schema at pointer p,
// making the schema an object schema if it says nothing of its type.
func requireAt(doc any, p string, names ...string) error {
	s, err := at(doc, p)
	if err != nil {
		return err
	}
	m, ok := s.(map[string]any)
	if !ok {
		return fmt.Errorf("%q is not a schema object", p)
	}
	have, _ := m["required"].([]any)
	for _, n := range names {
		if !slices.Contains(have, any(n)) {
			have = append(have, n)
		}
	}
	m["required"] = have
	return nil
}

// at returns the value at JSON pointer p in doc.
func at(doc any, p string) (any, error) {
	v := doc
	if p == "" {
		return v, nil
	}
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("%s: no %q", p, tok)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%s: no item %q", p, tok)
			}
			v = c[i]
		default:
			return nil, fmt.Errorf("%s: nothing at %q", p, tok)
		}
	}
	return v, nil
}

// parentOf returns the object holding the last token of p, and that token.
func parentOf(doc any, p string) (map[string]any, string, error) {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return nil, "", fmt.Errorf("%q is not a pointer", p)
	}
	parent, err := at(doc, p[:i])
	if err != nil {
		return nil, "", err
	}
	m, ok := parent.(map[string]any)
	if !ok {
		return nil, "", fmt.Errorf("%s is not an object", p[:i])
	}
	last := p[i+1:]
	if _, ok := m[last]; !ok {
		return nil, "", fmt.Errorf("%s: no %q", p, last)
	}
	return m, last, nil
}
