package contract

import (
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

const (
	// maxSize bounds the input: the real contracts are a few MiB, and the
	// WebAssembly module must not be made to hold much more.
	maxSize = 32 << 20
	// maxDepth bounds nesting: real schemas are a dozen levels deep, and a
	// bound keeps recursion safe on hostile input.
	maxDepth = 64
	// maxVisits bounds the nodes visited while deriving, so that aliases
	// pointing at large subtrees cannot multiply the work without end.
	maxVisits = 1 << 20
	// maxExpanded bounds the nodes of the document with every alias
	// expanded, counted once the document is read and before any of it is
	// derived: a few nested aliases (a "billion laughs") would otherwise
	// cost up to maxVisits steps of derivation before they are refused,
	// seconds under WebAssembly. Real contracts use $ref, not aliases, and
	// stay far below it.
	maxExpanded = maxVisits
)

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parse reads the document into its root mapping, checking size and depth.
func parse(source string, data []byte) (*yaml.Node, error) {
	if len(data) > maxSize {
		return nil, &Error{File: source, Msg: "file larger than 32 MiB"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			return nil, &Error{File: source, Place: "line " + m[1], Msg: "not YAML or JSON: " + m[2]}
		}
		return nil, &Error{File: source, Msg: "not YAML or JSON: " + strings.TrimPrefix(msg, "yaml: ")}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{File: source, Msg: "not an OpenAPI 3.x document: not a mapping"}
	}
	root := doc.Content[0]
	if n, ok := tooDeep(root, 1); ok {
		return nil, &Error{File: source, Place: "line " + strconv.Itoa(n.Line), Msg: "nesting deeper than " + strconv.Itoa(maxDepth)}
	}
	if expanded(root, make(map[*yaml.Node]int)) > maxExpanded {
		return nil, &Error{File: source, Msg: "document too large to derive: its aliases expand it to over " + strconv.Itoa(maxExpanded) + " nodes"}
	}
	return root, nil
}

// expanded counts the nodes under n with every alias expanded, saturating
// past maxExpanded. Each node is counted once (memo), so the count costs
// as much as the parsed tree, whatever the aliases multiply it to. A node
// met again while it is being counted (a cycle, which yaml.v3 refuses)
// counts as too many.
func expanded(n *yaml.Node, memo map[*yaml.Node]int) int {
	if v, ok := memo[n]; ok {
		return v
	}
	memo[n] = maxExpanded + 1
	total := 1
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		total += expanded(n.Alias, memo)
	}
	for _, c := range n.Content {
		if total > maxExpanded {
			break
		}
		total += expanded(c, memo)
	}
	total = min(total, maxExpanded+1)
	memo[n] = total
	return total
}

// tooDeep finds a node nested beyond maxDepth. Aliases are not followed:
// each node of the parsed tree is visited once.
func tooDeep(n *yaml.Node, depth int) (*yaml.Node, bool) {
	if depth > maxDepth {
		return n, true
	}
	for _, c := range n.Content {
		if d, ok := tooDeep(c, depth+1); ok {
			return d, true
		}
	}
	return nil, false
}

// get returns the value of key in mapping m, or nil.
func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// scalar returns the text of a scalar node, and whether it is one.
func scalar(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

// isTrue tells whether n is the boolean true.
func isTrue(n *yaml.Node) bool {
	if !isBool(n) {
		return false
	}
	b, err := strconv.ParseBool(n.Value)
	return err == nil && b
}

// isBool tells whether n is a boolean.
func isBool(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool"
}

// escape writes one JSON pointer segment (RFC 6901).
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// lookup follows a JSON pointer ("/a/b", without '#') from root.
// Aliases met on the way are followed; their depth is bounded by the
// pointer's length.
func lookup(root *yaml.Node, ptr string) *yaml.Node {
	n := root
	if ptr == "" {
		return n
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		n = deref(n)
		seg = unescape(seg)
		switch {
		case n == nil:
			return nil
		case n.Kind == yaml.MappingNode:
			n = get(n, seg)
		case n.Kind == yaml.SequenceNode:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.Content) || strconv.Itoa(i) != seg {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
	}
	return deref(n)
}

// deref follows an alias to its anchored node. yaml.v3 refuses an anchor
// that contains itself, so a chain of aliases ends; the bound is a guard.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}
