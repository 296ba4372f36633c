package schema

import (
	"slices"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// An element the contract accepts may still draw a warning: a field the
// contract does not know, or the overlay's advice (a currency ISO 4217
// does not know, an amount of zero, a time in seconds…). Most advice
// concerns every transfer, so the flat path answers it too: each check
// here says whether its namesake could find anything in the element
// read flat ("quiet" when it certainly finds nothing), and when one is
// not sure, the element takes the decoded path, which writes the
// messages.

// quietFlat reports whether element e, read flat, certainly has no
// problem at all: valid, every field known, no advice.
func (v *Validator) quietFlat(k *Kind, ck *compiledKind, e *flatElement) bool {
	if e.tricky || ck.check.checkFlat(e, 0) != valid {
		return false
	}
	if e.nodes[0].kind != flatObject {
		return true // ValidateElement looks at objects only for these
	}
	if !ck.known.allKnown(e, 0) {
		return false
	}
	for j := range ck.advice {
		if !ck.advice[j].quietFlat(v, k, e) {
			return false
		}
	}
	return true
}

// allKnown reports whether check would find no unknown field in node at.
func (n *knownNode) allKnown(e *flatElement, at int) bool {
	switch node := &e.nodes[at]; node.kind {
	case flatObject:
		if !n.object {
			return true
		}
		for c := node.first; c != 0; c = e.nodes[c].next {
			known, ok := n.props[string(e.data[e.nodes[c].keyStart:e.nodes[c].keyEnd])]
			if !ok || !known.allKnown(e, c) {
				return false
			}
		}
	case flatArray:
		if n.items == nil {
			return true
		}
		for c := node.first; c != 0; c = e.nodes[c].next {
			if !n.items.allKnown(e, c) {
				return false
			}
		}
	}
	return true
}

// quietFlat reports whether the advise entry certainly finds nothing in
// element e; an entry without a flat form is never quiet.
func (a *advice) quietFlat(v *Validator, k *Kind, e *flatElement) bool {
	switch {
	case a.value != nil:
		quiet := flatValueChecks[a.entry.Rule.Check]
		if quiet == nil {
			return false
		}
		for _, ptr := range a.at {
			if !e.quietAt(0, ptr, quiet) {
				return false
			}
		}
		return true
	case a.check != nil:
		quiet := flatChecks[a.entry.Rule.Check]
		return quiet != nil && quiet(v, k, e)
	default:
		return a.rule.check.checkFlat(e, 0) == valid
	}
}

// quietAt runs a flat value check on every value at pointer tokens ptr
// from node n, "*" going through every item of a list, as valuesAt does.
func (e *flatElement) quietAt(n int, ptr []string, quiet func(*flatElement, int) bool) bool {
	star := slices.Index(ptr, "*")
	if star < 0 {
		x := e.at(n, ptr)
		return x == 0 || quiet(e, x)
	}
	list := e.at(n, ptr[:star])
	if list == 0 || e.nodes[list].kind != flatArray {
		return true
	}
	for c := e.nodes[list].first; c != 0; c = e.nodes[c].next {
		if !e.quietAt(c, ptr[star+1:], quiet) {
			return false
		}
	}
	return true
}

// flatValueChecks are the flat forms of valueChecks.
var flatValueChecks = map[string]func(e *flatElement, n int) bool{
	CurrencyCode: func(e *flatElement, n int) bool {
		node := e.nodes[n]
		if node.kind != flatString {
			return true // isoCurrency speaks of strings only
		}
		return !node.escaped && money.Valid(unsafeText(e.text(n)))
	},
}

// flatChecks are the flat forms of the Go checks of mistakes.go.
var flatChecks = map[string]func(v *Validator, k *Kind, e *flatElement) bool{
	"non-positive-amount": func(_ *Validator, k *Kind, e *flatElement) bool {
		if k.Amount == "" {
			return true
		}
		n := e.at(0, []string{"requestBody", k.Amount, "amount"})
		return n == 0 || e.nodes[n].kind != flatNumber || literalSign(e.text(n)) > 0
	},
	"timestamp-in-seconds": func(_ *Validator, _ *Kind, e *flatElement) bool {
		ts, ms, ok, sure := e.scheduledAt()
		return sure && (!ok || !inSeconds(ts, ms))
	},
	"scheduled-in-past": func(v *Validator, _ *Kind, e *flatElement) bool {
		ts, ms, ok, sure := e.scheduledAt()
		return sure && (!ok || !v.inPast(ts, ms))
	},
	"scheduled-far-ahead": func(v *Validator, _ *Kind, e *flatElement) bool {
		ts, ms, ok, sure := e.scheduledAt()
		return sure && (!ok || !v.tooFarAhead(ts, ms))
	},
	"no-change": func(_ *Validator, _ *Kind, e *flatElement) bool {
		body := e.member(0, "requestBody")
		return body == 0 || e.nodes[body].kind != flatObject || e.nodes[body].count > 0
	},
	"min-above-max": func(_ *Validator, _ *Kind, e *flatElement) bool {
		lo := e.at(0, []string{"requestBody", "minTransactionAmount"})
		hi := e.at(0, []string{"requestBody", "maxTransactionAmount"})
		if lo == 0 || hi == 0 || e.nodes[lo].kind != flatNumber || e.nodes[hi].kind != flatNumber {
			return true
		}
		l, errLo := strconv.ParseInt(unsafeText(e.text(lo)), 10, 64)
		h, errHi := strconv.ParseInt(unsafeText(e.text(hi)), 10, 64)
		return errLo == nil && errHi == nil && l <= h // else the decoded path compares exactly
	},
	"negative-limit": func(_ *Validator, _ *Kind, e *flatElement) bool {
		list := e.at(0, []string{"requestBody", "spendLimit"})
		if list == 0 || e.nodes[list].kind != flatArray {
			return true
		}
		for c := e.nodes[list].first; c != 0; c = e.nodes[c].next {
			if n := e.at(c, []string{"value", "amount"}); n != 0 && e.nodes[n].kind == flatNumber && literalSign(e.text(n)) < 0 {
				return false
			}
		}
		return true
	},
}

// scheduledAt is the flat form of scheduledAt (mistakes.go); sure is
// false for a time written with escapes, which the flat path cannot read.
func (e *flatElement) scheduledAt() (ts string, ms int64, ok, sure bool) {
	n := e.at(0, scheduleLoc)
	if n == 0 || e.nodes[n].kind != flatString {
		return "", 0, false, true
	}
	if e.nodes[n].escaped {
		return "", 0, false, false
	}
	ts = unsafeText(e.text(n))
	ms, err := strconv.ParseInt(ts, 10, 64)
	return ts, ms, err == nil, true
}

// literalSign is the sign of a JSON number literal: its exponent never
// changes it, and it is zero when every digit before the exponent is.
func literalSign(lit []byte) int {
	for _, c := range lit {
		switch {
		case c == 'e' || c == 'E':
			return 0
		case c >= '1' && c <= '9':
			if lit[0] == '-' {
				return -1
			}
			return 1
		}
	}
	return 0
}
