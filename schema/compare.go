package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// A Change is one way a kind's fields differ between two contracts: what
// an operator loading a newer contract should know before using it.
type Change struct {
	// Field is the field's path, as Field.Path writes it.
	Field string `json:"field"`
	// What says the change in words: "added", "removed", "now required",
	// "maxLength 35 → 50", ….
	What string `json:"what"`
}

// Compare lists how kind k's fields in newer differ from those in older:
// fields added or removed, newly required or optional, and changed types,
// formats, enums, patterns and bounds. A kind that only one of them
// defines is reported as a single change at "".
func Compare(k *Kind, older, newer *Validator) []Change {
	errOld, errNew := older.Has(k), newer.Has(k)
	switch {
	case errOld != nil && errNew != nil:
		return nil
	case errNew != nil:
		return []Change{{What: "the contract has no " + k.ID + " bulk"}}
	case errOld != nil:
		return []Change{{What: "the contract adds the " + k.ID + " bulk"}}
	}
	was := make(map[string]Field)
	for _, f := range older.Fields(k) {
		was[f.Path] = f
	}
	var out []Change
	seen := make(map[string]bool)
	for _, f := range newer.Fields(k) {
		seen[f.Path] = true
		o, ok := was[f.Path]
		if !ok {
			what := "added: " + f.Rules(lang.English)
			if f.Required {
				what = "added, required: " + f.Rules(lang.English)
			}
			out = append(out, Change{f.Path, what})
			continue
		}
		for _, w := range fieldChanges(o, f) {
			out = append(out, Change{f.Path, w})
		}
	}
	for _, f := range older.Fields(k) {
		if !seen[f.Path] {
			out = append(out, Change{f.Path, "removed"})
		}
	}
	return out
}

// fieldChanges says how one field's rules changed.
func fieldChanges(o, n Field) []string {
	var out []string
	switch {
	case !o.Required && n.Required:
		out = append(out, "now required")
	case o.Required && !n.Required:
		out = append(out, "no longer required")
	}
	if o.Type != n.Type || o.ItemType != n.ItemType {
		out = append(out, fmt.Sprintf("type %s → %s", typeNoun(lang.English, o.Type, o.Format), typeNoun(lang.English, n.Type, n.Format)))
	}
	if o.Format != n.Format {
		out = append(out, fmt.Sprintf("format %s → %s", orNone(o.Format), orNone(n.Format)))
	}
	if added, removed := setDiff(n.Enum, o.Enum), setDiff(o.Enum, n.Enum); len(added)+len(removed) > 0 {
		var parts []string
		if len(added) > 0 {
			parts = append(parts, "adds "+strings.Join(added, ", "))
		}
		if len(removed) > 0 {
			parts = append(parts, "drops "+strings.Join(removed, ", "))
		}
		out = append(out, "allowed values: "+strings.Join(parts, "; "))
	}
	if o.Pattern != n.Pattern {
		out = append(out, fmt.Sprintf("pattern %s → %s", orNone(o.Pattern), orNone(n.Pattern)))
	}
	for _, b := range []struct {
		name string
		o, n *int
	}{{"minLength", o.MinLength, n.MinLength}, {"maxLength", o.MaxLength, n.MaxLength}, {"maxItems", o.MaxItems, n.MaxItems}} {
		if intText(b.o) != intText(b.n) {
			out = append(out, fmt.Sprintf("%s %s → %s", b.name, intText(b.o), intText(b.n)))
		}
	}
	if o.Minimum != n.Minimum {
		out = append(out, fmt.Sprintf("minimum %s → %s", orNone(o.Minimum), orNone(n.Minimum)))
	}
	if o.Maximum != n.Maximum {
		out = append(out, fmt.Sprintf("maximum %s → %s", orNone(o.Maximum), orNone(n.Maximum)))
	}
	return out
}

func setDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func intText(p *int) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}
