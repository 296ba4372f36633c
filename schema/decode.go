package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// Limits of the JSON reader. They are far beyond anything a bulk element
// needs and keep hostile input from costing unbounded time or stack.
const (
	// MaxDepth is how deeply arrays and objects may nest.
	MaxDepth = 64
	// maxNumberLen bounds a number literal, and maxExponent its exponent:
	// the validator turns numbers into exact rationals, whose size grows
	// with the exponent.
	maxNumberLen = 100
	maxExponent  = 400
)

// A SyntaxError is input that is not JSON the reader accepts. Line and
// Column are 1-based; Column counts characters, not bytes. Msg says what
// is wrong in English; the console says it in the operator's language
// (Say).
type SyntaxError struct {
	Line, Column int
	Offset       int
	Msg          string
	said         *lang.Error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Say returns the error's place and what is wrong, for lang to say in
// the operator's language.
func (e *SyntaxError) Say() (string, []any) {
	var what any = e.Msg
	if e.said != nil {
		what = e.said
	}
	return lang.Mark("line %d, column %d: %s"), []any{e.Line, e.Column, what}
}

// DecodeJSON reads one JSON document into generic values: map[string]any,
// []any, string, json.Number (numbers are kept exactly as written), bool and
// nil. A key that appears twice in one object is not an error here: the last
// value wins, as in most JSON readers, and the key's pointer is returned in
// dups so that callers can report it. A UTF-8 byte order mark is skipped.
func DecodeJSON(data []byte) (v any, dups []string, err error) {
	d := decoder{data: data}
	// The caches grow with the input, so that a small document costs
	// little: one slot per 64 bytes, up to maxInterned.
	slots := 16
	for slots < maxInterned && slots*64 < len(data) {
		slots *= 2
	}
	d.keys = make([]string, slots)
	d.values = make([]interned, slots)
	return d.decode()
}

// decode reads d.data from its start as DecodeJSON does, with the caches
// d holds.
func (d *decoder) decode() (v any, dups []string, err error) {
	data := d.data
	if strings.HasPrefix(string(data[:min(3, len(data))]), "\ufeff") {
		d.pos = 3
	}
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, nil, d.errorf("no JSON value: the input is empty")
	}
	v, err = d.value()
	if err != nil {
		return nil, nil, err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return nil, nil, d.errorf("unexpected %s after the end of the JSON value", d.describe())
	}
	return v, d.dups, nil
}

type decoder struct {
	data  []byte
	pos   int
	depth int
	// path is where the reader is, for the pointers of repeated keys:
	// written out only when a key repeats.
	path []step
	dups []string
	// keys interns object keys: a bulk repeats the same few keys thousands
	// of times, and sharing them saves an allocation per key. It is a
	// cache indexed by a hash of the key's bytes, each slot holding the
	// last key seen there: cheaper than a map, above all in WebAssembly,
	// where a map's hashing is slow.
	keys []string
	// values interns short string values and number literals the same way
	// (currencies, types of account, dates, amounts repeat from element to
	// element), boxed: each held in an any otherwise costs a copy and a
	// box.
	values []interned
	// text is the block the strings are copied into (see save).
	text []byte
}

// An interned value is a short string or number literal, and its box.
type interned struct {
	text   string
	number bool
	v      any
}

// hashByte adds a byte to an FNV-1a hash.
func hashByte(h uint32, c byte) uint32 { return (h ^ uint32(c)) * 16777619 }

const hashStart uint32 = 2166136261

// A step is one key, or one array position when key is "" and index is
// not negative.
type step struct {
	key   string
	index int
}

// textBlock is the size of the blocks a document's strings share: one
// allocation per block instead of one per string.
const textBlock = 16 << 10

// save returns a string of b's bytes, copied into the decoder's current
// text block. A block is never written again where it holds a string, so
// its strings stay immutable; a long string gets an allocation of its own.
func (d *decoder) save(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > textBlock/8 {
		return string(b)
	}
	if cap(d.text)-len(d.text) < len(b) {
		// What is left of the input bounds the strings still to come: a
		// small document (an operation's payload) gets a small block, not
		// one it would keep alive for a few bytes.
		d.text = make([]byte, 0, min(textBlock, len(b)+len(d.data)-d.pos))
	}
	off := len(d.text)
	d.text = append(d.text, b...)
	return unsafe.String(&d.text[off], len(b))
}

// Bounds of the interned values: short ones, and a cache of at most
// maxInterned slots of each kind.
const (
	maxInternedLen = 32
	maxInterned    = 4096
)

func (d *decoder) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, r := range string(d.data[:min(d.pos, len(d.data))]) {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	said := lang.Errorf(format, args...)
	return &SyntaxError{Line: line, Column: col, Offset: d.pos, Msg: said.Error(), said: said}
}

// describe names the byte at the current position for error messages.
func (d *decoder) describe() any {
	if d.pos >= len(d.data) {
		return lang.Word(lang.Mark("end of input"))
	}
	r, _ := utf8.DecodeRune(d.data[d.pos:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", d.data[d.pos])
	}
	return strconv.QuoteRune(r)
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value() (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of input: a value is missing")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.stringValue()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return nil, d.errorf("unexpected %s where a value should start", d.describe())
	}
}

func (d *decoder) literal(word string) error {
	if !strings.HasPrefix(string(d.data[d.pos:min(len(d.data), d.pos+len(word))]), word) {
		return d.errorf("unexpected %s where a value should start", d.describe())
	}
	d.pos += len(word)
	return nil
}

func (d *decoder) enter() error {
	d.depth++
	if d.depth > MaxDepth {
		return d.errorf("values nested more than %d levels deep", MaxDepth)
	}
	return nil
}

func (d *decoder) object() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // {
	obj := make(map[string]any)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return obj, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.errorf("unexpected %s where an object key in double quotes should be", d.describe())
		}
		key, err := d.key()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errorf("unexpected %s after object key %q: expected ':'", d.describe(), key)
		}
		d.pos++
		d.skipSpace()
		d.path = append(d.path, step{key: key, index: -1})
		val, err := d.value()
		if err != nil {
			return nil, err
		}
		// A key written twice leaves the count as it was: one hashing of
		// the key instead of a look-up and then a store.
		n := len(obj)
		obj[key] = val
		if len(obj) == n {
			d.dups = append(d.dups, d.pointerOf())
		}
		d.path = d.path[:len(d.path)-1]
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input: an object is not closed")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			d.depth--
			return obj, nil
		default:
			return nil, d.errorf("unexpected %s in an object: expected ',' or '}'", d.describe())
		}
	}
}

func (d *decoder) array() (any, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	d.pos++ // [
	arr := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return arr, nil
	}
	for {
		d.skipSpace()
		d.path = append(d.path, step{index: len(arr)})
		val, err := d.value()
		if err != nil {
			return nil, err
		}
		d.path = d.path[:len(d.path)-1]
		arr = append(arr, val)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input: an array is not closed")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			d.depth--
			return arr, nil
		default:
			return nil, d.errorf("unexpected %s in an array: expected ',' or ']'", d.describe())
		}
	}
}

// key reads an object key, reusing an earlier identical key's string.
func (d *decoder) key() (string, error) {
	start := d.pos + 1
	end := start
	h := hashStart
	for end < len(d.data) && d.data[end] != '"' && d.data[end] != '\\' && d.data[end] >= 0x20 && d.data[end] < utf8.RuneSelf {
		h = hashByte(h, d.data[end])
		end++
	}
	plain := end < len(d.data) && d.data[end] == '"'
	slot := &d.keys[h&uint32(len(d.keys)-1)]
	if plain && *slot == string(d.data[start:end]) {
		d.pos = end + 1
		return *slot, nil
	}
	k, err := d.string()
	if err != nil {
		return "", err
	}
	if plain {
		*slot = k
	}
	return k, nil
}

// stringValue reads a string literal that is a value, reusing an earlier
// identical short value.
func (d *decoder) stringValue() (any, error) {
	start := d.pos + 1
	end := start
	h := hashStart
	for end < len(d.data) && end-start <= maxInternedLen && d.data[end] != '"' && d.data[end] != '\\' && d.data[end] >= 0x20 && d.data[end] < utf8.RuneSelf {
		h = hashByte(h, d.data[end])
		end++
	}
	short := end < len(d.data) && d.data[end] == '"'
	slot := &d.values[h&uint32(len(d.values)-1)]
	if short && slot.v != nil && !slot.number && slot.text == string(d.data[start:end]) {
		d.pos = end + 1
		return slot.v, nil
	}
	s, err := d.string()
	if err != nil {
		return nil, err
	}
	var v any = s
	if short {
		*slot = interned{text: s, v: v}
	}
	return v, nil
}

// string reads a string literal. Invalid UTF-8 and unpaired surrogate
// escapes are errors rather than being replaced: a value must reach the API
// exactly as the operator wrote it.
func (d *decoder) string() (string, error) {
	d.pos++ // opening quote
	start := d.pos
	ascii := true
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := d.data[start:d.pos]
			if !ascii && !utf8.Valid(s) {
				d.pos = start + firstInvalidUTF8(s)
				return "", d.errorf("invalid UTF-8 in a string")
			}
			d.pos++
			return d.save(s), nil
		case c == '\\':
			if s := d.data[start:d.pos]; !ascii && !utf8.Valid(s) {
				d.pos = start + firstInvalidUTF8(s)
				return "", d.errorf("invalid UTF-8 in a string")
			}
			return d.escapedString(start)
		case c < 0x20:
			return "", d.errorf("control character %s in a string: write it as an escape such as \\n", strconv.QuoteRune(rune(c)))
		case c >= utf8.RuneSelf:
			ascii = false
		}
		d.pos++
	}
	return "", d.errorf("unexpected end of input: a string is not closed")
}

// escapedString finishes a string that contains escapes, from its start.
func (d *decoder) escapedString(start int) (string, error) {
	var b strings.Builder
	b.Write(d.data[start:d.pos])
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return b.String(), nil
		case c < 0x20:
			return "", d.errorf("control character %s in a string: write it as an escape such as \\n", strconv.QuoteRune(rune(c)))
		case c == '\\':
			if d.pos+1 >= len(d.data) {
				return "", d.errorf("unexpected end of input in a string escape")
			}
			esc := d.data[d.pos+1]
			switch esc {
			case '"', '\\', '/':
				b.WriteByte(esc)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, n, err := d.unicodeEscape()
				if err != nil {
					return "", err
				}
				b.WriteRune(r)
				d.pos += n
				continue
			default:
				return "", d.errorf("invalid escape \\%c in a string", esc)
			}
			d.pos += 2
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", d.errorf("invalid UTF-8 in a string")
			}
			b.WriteRune(r)
			d.pos += size
		}
	}
	return "", d.errorf("unexpected end of input: a string is not closed")
}

// unicodeEscape reads \uXXXX at the current position, and a second one when
// the first is a high surrogate. n is the number of bytes read.
func (d *decoder) unicodeEscape() (r rune, n int, err error) {
	hex := func(at int) (rune, bool) {
		if at+6 > len(d.data) || d.data[at] != '\\' || d.data[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(d.data[at+2:at+6]), 16, 16)
		return rune(v), err == nil
	}
	r1, ok := hex(d.pos)
	if !ok {
		return 0, 0, d.errorf("invalid \\u escape in a string: four hexadecimal digits must follow")
	}
	if !utf16.IsSurrogate(r1) {
		return r1, 6, nil
	}
	if r2, ok := hex(d.pos + 6); ok {
		if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
			return r, 12, nil
		}
	}
	return 0, 0, d.errorf("invalid \\u escape in a string: \\u%04x is half of a surrogate pair", r1)
}

func firstInvalidUTF8(s []byte) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(s)
}

// number reads a number literal and keeps its text.
func (d *decoder) number() (any, error) {
	lit, err := d.numberLiteral()
	if err != nil {
		return nil, err
	}
	if len(lit) > maxInternedLen {
		return json.Number(d.save(lit)), nil
	}
	h := hashStart
	for _, c := range lit {
		h = hashByte(h, c)
	}
	slot := &d.values[h&uint32(len(d.values)-1)]
	if slot.number && slot.text == string(lit) {
		return slot.v, nil
	}
	n := d.save(lit)
	var v any = json.Number(n)
	*slot = interned{text: n, number: true, v: v}
	return v, nil
}

// numberLiteral reads a number literal, checking it as number does, and
// returns its text: the reader of elements as bytes (flat.go) shares it.
func (d *decoder) numberLiteral() ([]byte, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	intStart := d.pos
	if n := digits(); n == 0 {
		return nil, d.errorf("invalid number: a digit must follow '-'")
	}
	if d.data[intStart] == '0' && d.pos-intStart > 1 {
		d.pos = intStart + 1
		return nil, d.errorf("invalid number: a leading zero must stand alone (write the value as a string if the zeros matter)")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return nil, d.errorf("invalid number: a digit must follow '.'")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		expStart := d.pos
		if digits() == 0 {
			return nil, d.errorf("invalid number: a digit must follow the exponent")
		}
		if exp, err := strconv.Atoi(string(d.data[expStart:d.pos])); err != nil || exp > maxExponent {
			d.pos = start
			return nil, d.errorf("number %s is out of range", truncate(string(d.data[start:min(len(d.data), start+40)]), 40))
		}
	}
	if d.pos-start > maxNumberLen {
		d.pos = start
		return nil, d.errorf("number is too long (over %d characters)", maxNumberLen)
	}
	return d.data[start:d.pos], nil
}

// pointerOf builds a JSON pointer (RFC 6901) from the reader's path.
func (d *decoder) pointerOf() string {
	tokens := make([]string, len(d.path))
	for i, s := range d.path {
		tokens[i] = s.key
		if s.key == "" && s.index >= 0 {
			tokens[i] = strconv.Itoa(s.index)
		}
	}
	return pointerOf(tokens)
}

// pointerOf builds a JSON pointer (RFC 6901) from path tokens.
func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}
