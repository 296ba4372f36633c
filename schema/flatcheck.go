package schema

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// checkFlat is check (precheck.go) for node at of an element read flat:
// the same three-valued answer, keyword by keyword, from the element's
// bytes. A string written with escapes is unsure wherever its value
// matters; the differential tests hold the two to the library's answers.
func (n *checkNode) checkFlat(e *flatElement, at int) verdict {
	if r, ok := n.fixed(); ok {
		return r
	}
	t := tally{valid}
	fold := t.fold
	node := &e.nodes[at]
	if n.types != 0 && fold(n.flatType(e, at)) {
		return invalid
	}
	if n.hasEnum && fold(n.flatEnum(e, at)) {
		return invalid
	}
	if n.constString != nil || n.constOther {
		switch {
		case n.constOther, node.kind == flatString && node.escaped:
			t.result = unsure
		case node.kind != flatString || string(e.text(at)) != *n.constString:
			return invalid
		}
	}
	switch node.kind {
	case flatObject:
		for _, r := range n.required {
			if e.member(at, r) == 0 {
				return invalid
			}
		}
		for _, p := range n.props {
			if c := e.member(at, p.name); c != 0 && fold(p.node.checkFlat(e, c)) {
				return invalid
			}
		}
	case flatArray:
		if n.minItems >= 0 && node.count < n.minItems || n.maxItems >= 0 && node.count > n.maxItems {
			return invalid
		}
		if n.items != nil {
			for c := node.first; c != 0; c = e.nodes[c].next {
				if fold(n.items.checkFlat(e, c)) {
					return invalid
				}
			}
		}
	case flatString:
		if node.escaped {
			if n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil || n.format != nil {
				t.result = unsure
			}
			break
		}
		text := e.text(at)
		if n.minLen >= 0 || n.maxLen >= 0 {
			l := utf8.RuneCount(text)
			if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
				return invalid
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(unsafeText(text)) {
			return invalid
		}
		if n.format != nil && fold(n.flatFormat(unsafeText(text), false)) {
			return invalid
		}
	case flatNumber:
		lit := json.Number(unsafeText(e.text(at)))
		if (n.minimum != nil || n.maximum != nil) && fold(n.checkBounds(lit)) {
			return invalid
		}
		if n.format != nil && fold(n.flatFormat(string(lit), true)) {
			return invalid
		}
	}
	return n.applicators(t.result, func(c *checkNode) verdict { return c.checkFlat(e, at) })
}

func (n *checkNode) flatType(e *flatElement, at int) verdict {
	var t typeSet
	switch e.nodes[at].kind {
	case flatNull:
		t = tNull
	case flatTrue, flatFalse:
		t = tBool
	case flatString:
		t = tString
	case flatArray:
		t = tArray
	case flatObject:
		t = tObject
	case flatNumber:
		if n.types&tNumber != 0 {
			return valid
		}
		if n.types&tInteger == 0 {
			return invalid
		}
		if isIntegerLiteral(unsafeText(e.text(at))) {
			return valid
		}
		return unsure
	}
	if n.types&t != 0 {
		return valid
	}
	return invalid
}

func (n *checkNode) flatEnum(e *flatElement, at int) verdict {
	if node := e.nodes[at]; node.kind == flatString {
		if node.escaped {
			return unsure
		}
		for _, s := range n.enum {
			if s == string(e.text(at)) {
				return valid
			}
		}
	}
	if n.enumOther {
		return unsure
	}
	return invalid
}

// flatFormat checks a string's text or a number's literal against the
// node's format. The integer widths (wording.go) are checked here, as
// fitsBits does, without boxing the value; other formats get it boxed.
func (n *checkNode) flatFormat(text string, number bool) verdict {
	bits := 0
	switch n.formatName {
	case "int64":
		bits = 64
	case "int32":
		bits = 32
	}
	switch {
	case bits > 0 && !number:
		return valid // fitsBits looks at numbers only
	case bits > 0:
		if _, err := strconv.ParseInt(text, 10, bits); err == nil {
			return valid
		}
		return unsure // 1.0, 1e3 or out of range: the library decides
	case number:
		if n.format(json.Number(text)) != nil {
			return invalid
		}
	default:
		if n.format(text) != nil {
			return invalid
		}
	}
	return valid
}

// unsafeText views b as a string without copying, for checks that do not
// keep it: an element's bytes are not written while it is checked.
func unsafeText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
