package schema

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The library validates by building a validator, a scope and a record of
// evaluated properties for every subschema and $ref it enters: about 140
// allocations for one transfer, and under WebAssembly garbage collection
// then takes most of the time. Yet almost every element of a real bulk is
// valid, and for a valid element the library's answer is just "valid".
//
// precheck answers that question without allocating, by interpreting the
// library's own compiled schema. It is three-valued: it says valid or
// invalid only when it is certain, and "unsure" for anything it does not
// model exactly (an unsupported keyword, a number it cannot compare
// cheaply), in which case the library decides. Only a certain "valid"
// skips the library; every element with a problem is explained by it. The
// differential tests hold the two to the same answers.

type verdict uint8

const (
	unsure verdict = iota
	valid
	invalid
)

// checkNode is a compiled schema node prepared for precheck.
type checkNode struct {
	boolean     *bool
	types       typeSet
	enum        []string // string values only; enumOther marks anything else
	enumOther   bool
	hasEnum     bool
	constString *string
	constOther  bool
	required    []string
	props       []namedNode
	items       *checkNode
	minItems    int
	maxItems    int
	minLen      int
	maxLen      int
	pattern     jsonschema.Regexp
	format      func(any) error
	formatName  string
	minimum     *big.Rat
	maximum     *big.Rat
	allOf       []*checkNode
	anyOf       []*checkNode
	oneOf       []*checkNode
	not         *checkNode
	ifNode      *checkNode
	thenNode    *checkNode
	elseNode    *checkNode
	ref         *checkNode
	// unsupported is set when the schema uses a keyword precheck does not
	// model; such a node is always unsure.
	unsupported bool
}

type namedNode struct {
	name string
	node *checkNode
}

type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBool
	tInteger
	tNumber
	tString
	tArray
	tObject
)

var typeBits = map[string]typeSet{
	"null": tNull, "boolean": tBool, "integer": tInteger, "number": tNumber,
	"string": tString, "array": tArray, "object": tObject,
}

// prepareCheck builds the precheck tree for a compiled schema.
func prepareCheck(s *jsonschema.Schema) *checkNode {
	return buildCheck(s, make(map[*jsonschema.Schema]*checkNode))
}

func buildCheck(s *jsonschema.Schema, memo map[*jsonschema.Schema]*checkNode) *checkNode {
	if s == nil {
		return nil
	}
	if n, ok := memo[s]; ok {
		return n
	}
	n := &checkNode{minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	memo[s] = n
	n.boolean = s.Bool
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			n.types |= typeBits[t]
		}
	}
	if s.Enum != nil {
		n.hasEnum = true
		for _, v := range s.Enum.Values {
			if str, ok := v.(string); ok {
				n.enum = append(n.enum, str)
			} else {
				n.enumOther = true
			}
		}
	}
	if s.Const != nil {
		if str, ok := (*s.Const).(string); ok {
			n.constString = &str
		} else {
			n.constOther = true
		}
	}
	n.required = s.Required
	for _, name := range writtenOrder(s) {
		n.props = append(n.props, namedNode{name, buildCheck(s.Properties[name], memo)})
	}
	n.items = buildCheck(s.Items2020, memo)
	n.minItems = intOr(s.MinItems, -1)
	n.maxItems = intOr(s.MaxItems, -1)
	n.minLen = intOr(s.MinLength, -1)
	n.maxLen = intOr(s.MaxLength, -1)
	n.pattern = s.Pattern
	if s.Format != nil {
		n.format, n.formatName = s.Format.Validate, s.Format.Name
	}
	n.minimum, n.maximum = s.Minimum, s.Maximum
	for _, c := range s.AllOf {
		n.allOf = append(n.allOf, buildCheck(c, memo))
	}
	for _, c := range s.AnyOf {
		n.anyOf = append(n.anyOf, buildCheck(c, memo))
	}
	for _, c := range s.OneOf {
		n.oneOf = append(n.oneOf, buildCheck(c, memo))
	}
	n.not = buildCheck(s.Not, memo)
	n.ifNode = buildCheck(s.If, memo)
	n.thenNode = buildCheck(s.Then, memo)
	n.elseNode = buildCheck(s.Else, memo)
	n.ref = buildCheck(s.Ref, memo)
	n.unsupported = s.RecursiveRef != nil || s.DynamicRef != nil ||
		s.MaxProperties != nil || s.MinProperties != nil || s.PropertyNames != nil ||
		len(s.PatternProperties) > 0 || s.AdditionalProperties != nil ||
		len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 ||
		s.UnevaluatedProperties != nil || s.UniqueItems || s.Contains != nil ||
		s.MinContains != nil || s.MaxContains != nil || s.Items != nil ||
		s.AdditionalItems != nil || len(s.PrefixItems) > 0 || s.UnevaluatedItems != nil ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil ||
		s.ExclusiveMaximum != nil || s.ExclusiveMinimum != nil || s.MultipleOf != nil ||
		len(s.Extensions) > 0
	return n
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// check evaluates v against the node.
func (n *checkNode) check(v any) verdict {
	if r, ok := n.fixed(); ok {
		return r
	}
	t := tally{valid}
	fold := t.fold

	if n.types != 0 {
		if r := n.checkType(v); fold(r) {
			return invalid
		}
	}
	if n.hasEnum && fold(n.checkEnum(v)) {
		return invalid
	}
	if n.constString != nil || n.constOther {
		if n.constOther {
			t.result = unsure
		} else if s, ok := v.(string); !ok || s != *n.constString {
			return invalid
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range n.required {
			if _, ok := x[r]; !ok {
				return invalid
			}
		}
		for _, p := range n.props {
			if pv, ok := x[p.name]; ok {
				if fold(p.node.check(pv)) {
					return invalid
				}
			}
		}
	case []any:
		if n.minItems >= 0 && len(x) < n.minItems || n.maxItems >= 0 && len(x) > n.maxItems {
			return invalid
		}
		if n.items != nil {
			for _, item := range x {
				if fold(n.items.check(item)) {
					return invalid
				}
			}
		}
	case string:
		if n.minLen >= 0 || n.maxLen >= 0 {
			l := utf8.RuneCountInString(x)
			if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
				return invalid
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(x) {
			return invalid
		}
	case json.Number:
		if (n.minimum != nil || n.maximum != nil) && fold(n.checkBounds(x)) {
			return invalid
		}
	}
	if n.format != nil {
		switch v.(type) {
		case string, json.Number:
			if n.format(v) != nil {
				return invalid
			}
		}
	}
	return n.applicators(t.result, func(c *checkNode) verdict { return c.check(v) })
}

// fixed is the verdict of a node that needs no value: one the pre-check
// does not model, or a boolean schema.
func (n *checkNode) fixed() (verdict, bool) {
	switch {
	case n.unsupported:
		return unsure, true
	case n.boolean != nil && *n.boolean:
		return valid, true
	case n.boolean != nil:
		return invalid, true
	}
	return unsure, false
}

// A tally folds the verdicts of a node's keywords: an invalid one
// decides (fold says to stop), an unsure one leaves the node unsure.
type tally struct{ result verdict }

func (t *tally) fold(r verdict) bool {
	switch r {
	case invalid:
		t.result = invalid
		return true
	case unsure:
		t.result = unsure
	}
	return false
}

// applicators folds into result the verdicts of the node's $ref, allOf,
// anyOf, oneOf, not and if/then/else, each subschema checked by sub: the
// same for decoded values (check) and flat ones (checkFlat).
func (n *checkNode) applicators(result verdict, sub func(*checkNode) verdict) verdict {
	t := tally{result}
	fold := t.fold
	if n.ref != nil && fold(sub(n.ref)) {
		return invalid
	}
	for _, c := range n.allOf {
		if fold(sub(c)) {
			return invalid
		}
	}
	if len(n.anyOf) > 0 && fold(anyOf(n.anyOf, sub)) {
		return invalid
	}
	if len(n.oneOf) > 0 && fold(oneOf(n.oneOf, sub)) {
		return invalid
	}
	if n.not != nil {
		switch sub(n.not) {
		case valid:
			return invalid
		case unsure:
			t.result = unsure
		}
	}
	if n.ifNode != nil {
		switch sub(n.ifNode) {
		case valid:
			if n.thenNode != nil && fold(sub(n.thenNode)) {
				return invalid
			}
		case invalid:
			if n.elseNode != nil && fold(sub(n.elseNode)) {
				return invalid
			}
		case unsure:
			t.result = unsure
		}
	}
	return t.result
}

func anyOf(nodes []*checkNode, sub func(*checkNode) verdict) verdict {
	result := invalid
	for _, c := range nodes {
		switch sub(c) {
		case valid:
			return valid
		case unsure:
			result = unsure
		}
	}
	return result
}

func oneOf(nodes []*checkNode, sub func(*checkNode) verdict) verdict {
	matched := 0
	for _, c := range nodes {
		switch sub(c) {
		case valid:
			matched++
		case unsure:
			return unsure
		}
	}
	if matched == 1 {
		return valid
	}
	return invalid
}

func (n *checkNode) checkType(v any) verdict {
	var t typeSet
	switch x := v.(type) {
	case nil:
		t = tNull
	case bool:
		t = tBool
	case string:
		t = tString
	case []any:
		t = tArray
	case map[string]any:
		t = tObject
	case json.Number:
		if n.types&tNumber != 0 {
			return valid
		}
		if n.types&tInteger == 0 {
			return invalid
		}
		if isIntegerLiteral(string(x)) {
			return valid
		}
		return unsure // 1.0 or 1e3 are whole numbers too: the library decides
	default:
		return unsure
	}
	if n.types&t != 0 {
		return valid
	}
	return invalid
}

func (n *checkNode) checkEnum(v any) verdict {
	if s, ok := v.(string); ok {
		for _, e := range n.enum {
			if e == s {
				return valid
			}
		}
	}
	if n.enumOther {
		return unsure
	}
	return invalid
}

// checkBounds compares a number with the node's minimum and maximum when
// both fit in 64 bits.
func (n *checkNode) checkBounds(x json.Number) verdict {
	if !isIntegerLiteral(string(x)) {
		return unsure
	}
	i, err := strconv.ParseInt(string(x), 10, 64)
	if err != nil {
		return unsure
	}
	if n.minimum != nil {
		if !n.minimum.IsInt() || !n.minimum.Num().IsInt64() {
			return unsure
		}
		if i < n.minimum.Num().Int64() {
			return invalid
		}
	}
	if n.maximum != nil {
		if !n.maximum.IsInt() || !n.maximum.Num().IsInt64() {
			return unsure
		}
		if i > n.maximum.Num().Int64() {
			return invalid
		}
	}
	return valid
}

// isIntegerLiteral reports whether a JSON number is written as an integer
// (no fraction or exponent).
func isIntegerLiteral(s string) bool {
	return !strings.ContainsAny(s, ".eE")
}
