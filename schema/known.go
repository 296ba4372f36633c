package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The contract lets objects carry fields it does not name, and the API may
// ignore them or refuse them. A field the contract does not know is most
// often a typo of one it does, so it is reported as a warning, with the
// nearest known name. The check is a walk over the names every form of each
// object allows, kept apart from the schemas so that an unknown field never
// changes which form of an object matches.

// knownNode is the set of field names an object allows, and what they hold.
type knownNode struct {
	object bool
	props  map[string]*knownNode
	items  *knownNode
}

func knownFields(root *jsonschema.Schema) *knownNode {
	n := buildKnown([]*jsonschema.Schema{root}, 0)
	// Every element is the envelope {pathParams, requestBody}, whatever
	// its kind's schema names: a kind that declares neither takes them
	// empty, and a field inside is what the warning is about.
	if n.object {
		for _, part := range []string{"pathParams", "requestBody"} {
			if n.props[part] == nil {
				n.props[part] = &knownNode{object: true, props: map[string]*knownNode{}}
			}
		}
	}
	return n
}

func buildKnown(defs []*jsonschema.Schema, depth int) *knownNode {
	merged := &flatSchema{props: make(map[string]*propDefs), required: make(map[string]bool)}
	seen := make(map[*jsonschema.Schema]bool)
	for _, d := range defs {
		merged.add(d, false, seen)
	}
	n := &knownNode{object: hasType(merged, "object") || len(merged.props) > 0}
	if depth > 32 {
		n.object = false
		return n
	}
	if n.object {
		n.props = make(map[string]*knownNode, len(merged.props))
		for name, pd := range merged.props {
			var subs []*jsonschema.Schema
			for _, d := range pd.defs {
				subs = append(subs, d.schema)
			}
			n.props[name] = buildKnown(subs, depth+1)
		}
	}
	if merged.items != nil {
		n.items = buildKnown([]*jsonschema.Schema{merged.items}, depth+1)
	}
	return n
}

// check appends a warning to out for every field of element i the contract
// does not know.
// The walk shares one path stack and builds nothing unless it finds an
// unknown field: it runs on every element.
func (n *knownNode) check(w lang.Tag, i int, element map[string]any, out []Problem) []Problem {
	var stack [MaxDepth]string
	return n.walk(w, i, element, stack[:0], out)
}

func (n *knownNode) walk(w lang.Tag, i int, v any, path []string, out []Problem) []Problem {
	switch x := v.(type) {
	case map[string]any:
		if !n.object {
			return out
		}
		for k, child := range x {
			known, ok := n.props[k]
			if !ok {
				out = append(out, n.unknown(w, i, append(slices.Clone(path), k)))
				continue
			}
			out = known.walk(w, i, child, append(path, k), out)
		}
	case []any:
		if n.items == nil {
			return out
		}
		for j, item := range x {
			out = n.items.walk(w, i, item, append(path, strconv.Itoa(j)), out)
		}
	}
	return out
}

func (n *knownNode) unknown(w lang.Tag, i int, path []string) Problem {
	name := path[len(path)-1]
	msg := w.F("%s is not a field of this kind of bulk: the API may ignore or refuse it", FieldName(path))
	switch {
	case len(n.props) == 0 && len(path) == 2 && path[0] == "pathParams":
		msg = w.F("%s is not used: this kind of bulk takes no path parameters", FieldName(path))
	case len(n.props) == 0 && len(path) == 2 && path[0] == "requestBody":
		msg = w.F("%s is not used: this kind of bulk sends no request body", FieldName(path))
	default:
		if near := nearest(name, n.props); near != "" {
			msg = w.F("%s is not a field of this kind of bulk: the API may ignore or refuse it; did you mean %s?", FieldName(path), FieldName(append(slices.Clip(path[:len(path)-1]), near)))
		}
	}
	return Problem{Element: i, Pointer: pointerOf(path), Field: FieldName(path), Code: "unknown-field", Message: msg, Severity: Warning}
}

// nearest returns the known name closest to name, if it is close enough to
// be a typo: the same letters in another case, or at most two edits away.
func nearest(name string, props map[string]*knownNode) string {
	best, bestDist := "", 3
	for k := range props {
		if strings.EqualFold(k, name) {
			return k
		}
		if d := editDistance(strings.ToLower(k), strings.ToLower(name)); d < bestDist || (d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	if len(name) <= 3 && bestDist > 1 {
		return ""
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of two neighbouring letters that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
