package schema

import (
	"errors"
	"unicode/utf8"
)

// A request body of 100,000 transfers decoded into Go maps holds about
// 170 MB of maps, and under WebAssembly building them (hashing, write
// barriers, the collector marking what they hold) is most of the time a
// check takes. Yet a valid element's values are needed by no one until
// the operator looks at it or it is sent. So an element is first read as
// it is written: a flat list of its values, each the place of its text
// in the body, in one slice reused from element to element. The checks
// of flatcheck.go run on that list; only an element they cannot call
// valid is decoded (DecodeJSON) and checked as before.

// A flatKind is the JSON type of a flat value.
type flatKind uint8

const (
	flatNull flatKind = iota
	flatFalse
	flatTrue
	flatNumber
	flatString
	flatArray
	flatObject
)

// A flatNode is one value of an element, found by offsets in its body.
type flatNode struct {
	kind flatKind
	// escaped marks a string written with escapes: its text is not its
	// value, which the flat checks then do not judge.
	escaped bool
	// start and end delimit a string's text between its quotes, a
	// number's literal, an array's or object's whole text.
	start, end int
	// keyStart and keyEnd delimit the key of an object's member.
	keyStart, keyEnd int
	// first is the index of the first member or item, next that of the
	// following sibling; 0 for none (the root is nobody's sibling).
	first, next int
	count       int
}

// A flatElement is one element read flat.
type flatElement struct {
	data  []byte
	nodes []flatNode
	// tricky marks what the flat checks do not model: a key written with
	// escapes, a key written twice in one object, an object of more keys
	// than are cheap to compare for repeats. Such an element is decoded.
	tricky bool
}

// maxFlatKeys is how many keys of one object the reader compares for
// repeats, each with every other: past it the element is tricky.
const maxFlatKeys = 64

// text returns node n's text (see flatNode.start).
func (e *flatElement) text(n int) []byte { return e.data[e.nodes[n].start:e.nodes[n].end] }

// member returns the index of object node n's member named name, or 0.
// The last one written wins, as in a decoded element; an element with a
// repeated key is tricky and never checked flat anyway.
func (e *flatElement) member(n int, name string) int {
	if e.nodes[n].kind != flatObject {
		return 0
	}
	for c := e.nodes[n].first; c != 0; c = e.nodes[c].next {
		if string(e.data[e.nodes[c].keyStart:e.nodes[c].keyEnd]) == name {
			return c
		}
	}
	return 0
}

// at returns the node at path tokens loc from node n, as lookup does for
// decoded values; 0 when there is none.
func (e *flatElement) at(n int, loc []string) int {
	for _, t := range loc {
		switch e.nodes[n].kind {
		case flatObject:
			if n = e.member(n, t); n == 0 {
				return 0
			}
		case flatArray:
			i, ok := smallIndex(t)
			if !ok || i >= e.nodes[n].count {
				return 0
			}
			n = e.nodes[n].first
			for ; i > 0; i-- {
				n = e.nodes[n].next
			}
		default:
			return 0
		}
	}
	return n
}

// smallIndex reads a list position as strconv.Atoi would, for positions
// that fit an int without question.
func smallIndex(t string) (int, bool) {
	if t == "" || len(t) > 9 {
		return 0, false
	}
	i := 0
	for j := 0; j < len(t); j++ {
		c := t[j]
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, true
}

// readFlat reads the value at d.pos into e, as DecodeJSON's value would,
// with the same limits and errors, and returns its node's index.
func (d *decoder) readFlat(e *flatElement) (int, error) {
	if d.pos >= len(d.data) {
		return 0, d.errorf("unexpected end of input: a value is missing")
	}
	n := len(e.nodes)
	e.nodes = append(e.nodes, flatNode{start: d.pos})
	switch c := d.data[d.pos]; {
	case c == '{':
		return n, d.flatObject(e, n)
	case c == '[':
		return n, d.flatArray(e, n)
	case c == '"':
		start, end, escaped, err := d.flatString()
		e.nodes[n] = flatNode{kind: flatString, start: start, end: end, escaped: escaped}
		return n, err
	case c == '-' || (c >= '0' && c <= '9'):
		lit, err := d.numberLiteral()
		e.nodes[n] = flatNode{kind: flatNumber, start: d.pos - len(lit), end: d.pos}
		return n, err
	case c == 't':
		e.nodes[n].kind = flatTrue
		return n, d.literal("true")
	case c == 'f':
		e.nodes[n].kind = flatFalse
		return n, d.literal("false")
	case c == 'n':
		e.nodes[n].kind = flatNull
		return n, d.literal("null")
	default:
		return 0, d.errorf("unexpected %s where a value should start", d.describe())
	}
}

// flatString reads a string literal and returns where its text is. A
// string with escapes, control characters or bad UTF-8 is read by the
// decoder's own string, for its exact errors.
func (d *decoder) flatString() (start, end int, escaped bool, err error) {
	open := d.pos
	start = d.pos + 1
	ascii := true
	for i := start; i < len(d.data); i++ {
		c := d.data[i]
		switch {
		case c == '"':
			if ascii || utf8.Valid(d.data[start:i]) {
				d.pos = i + 1
				return start, i, false, nil
			}
			i = len(d.data) // the decoder says where
		case c == '\\' || c < 0x20:
			i = len(d.data)
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	d.pos = open
	if _, err := d.string(); err != nil {
		return 0, 0, false, err
	}
	return start, d.pos - 1, true, nil
}

// openFlat enters object or array n (of kind) at its opening bracket,
// and reads it whole when it is empty (closed by end): empty says so.
func (d *decoder) openFlat(e *flatElement, n int, kind flatKind, end byte) (empty bool, err error) {
	if err := d.enter(); err != nil {
		return false, err
	}
	d.pos++ // { or [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == end {
		d.pos++
		d.depth--
		e.nodes[n] = flatNode{kind: kind, start: e.nodes[n].start, end: d.pos}
		return true, nil
	}
	return false, nil
}

func (d *decoder) flatObject(e *flatElement, n int) error {
	if empty, err := d.openFlat(e, n, flatObject, '}'); empty || err != nil {
		return err
	}
	last, count := 0, 0
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return d.errorf("unexpected %s where an object key in double quotes should be", d.describe())
		}
		keyStart, keyEnd, escaped, err := d.flatString()
		if err != nil {
			return err
		}
		if escaped {
			e.tricky = true
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.errorf("unexpected %s after object key %q: expected ':'", d.describe(), d.data[keyStart:keyEnd])
		}
		d.pos++
		d.skipSpace()
		c, err := d.readFlat(e)
		if err != nil {
			return err
		}
		e.nodes[c].keyStart, e.nodes[c].keyEnd = keyStart, keyEnd
		count++
		if count > maxFlatKeys {
			e.tricky = true
		} else if !escaped {
			key := d.data[keyStart:keyEnd]
			for s := e.nodes[n].first; s != 0; s = e.nodes[s].next {
				if string(d.data[e.nodes[s].keyStart:e.nodes[s].keyEnd]) == string(key) {
					e.tricky = true
				}
			}
		}
		if done, err := d.flatNext(e, n, &last, c, count, flatObject); done || err != nil {
			return err
		}
	}
}

func (d *decoder) flatArray(e *flatElement, n int) error {
	if empty, err := d.openFlat(e, n, flatArray, ']'); empty || err != nil {
		return err
	}
	last, count := 0, 0
	for {
		d.skipSpace()
		c, err := d.readFlat(e)
		if err != nil {
			return err
		}
		count++
		if done, err := d.flatNext(e, n, &last, c, count, flatArray); done || err != nil {
			return err
		}
	}
}

// flatNext links child c of object or array n after *last and reads what
// follows it: a comma, or the end of n, which done reports.
func (d *decoder) flatNext(e *flatElement, n int, last *int, c, count int, kind flatKind) (done bool, err error) {
	if *last == 0 {
		e.nodes[n].first = c
	} else {
		e.nodes[*last].next = c
	}
	*last = c
	closer := byte('}')
	if kind == flatArray {
		closer = ']'
	}
	d.skipSpace()
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == ',':
		d.pos++
		return false, nil
	case d.pos < len(d.data) && d.data[d.pos] == closer:
		d.pos++
		d.depth--
		e.nodes[n].kind, e.nodes[n].end, e.nodes[n].count = kind, d.pos, count
		return true, nil
	}
	// Not JSON: the body is read again by DecodeJSON, which says where
	// and what is wrong.
	return false, errFlat
}

// errFlat is what the flat reader returns of a body that is not JSON.
var errFlat = errors.New("not JSON")

// read reads one element's bytes flat into e, reusing its nodes.
func (e *flatElement) read(data []byte) error {
	e.data, e.nodes, e.tricky = data, e.nodes[:0], false
	d := decoder{data: data, depth: 1} // the element is inside its body's array
	d.skipSpace()
	if _, err := d.readFlat(e); err != nil {
		return err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.errorf("unexpected %s after the end of the JSON value", d.describe())
	}
	return nil
}
