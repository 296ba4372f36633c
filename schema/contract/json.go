package contract

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// value is one JSON value of the output, kept as a tree so that key order
// is the source's and numbers keep their literal text.
type value interface{}

// object is a JSON object with its keys in order.
type object struct {
	keys []string
	vals []value
}

func (o *object) set(k string, v value) {
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

func (o *object) has(k string) bool {
	for _, x := range o.keys {
		if x == k {
			return true
		}
	}
	return false
}

type array []value

// raw is JSON text written as is: a number, true, false or null.
type raw string

// str is a string, escaped on output.
type str string

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// number turns the text of a YAML number into JSON number text: the
// literal when it already is one, so that 1.10 stays 1.10; otherwise the
// parsed value (0x1F, +5, 1_000, 1.5E3 written by YAML rules).
func number(text string, isInt bool) (raw, bool) {
	if jsonNumber.MatchString(text) {
		return raw(text), true
	}
	if isInt {
		t := strings.ReplaceAll(text, "_", "")
		t = strings.TrimPrefix(t, "+")
		if strings.HasPrefix(t, "0o") || strings.HasPrefix(t, "-0o") {
			t = strings.Replace(t, "0o", "0", 1)
		}
		if i, ok := new(big.Int).SetString(t, 0); ok {
			return raw(i.String()), true
		}
		return "", false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	return raw(strconv.FormatFloat(f, 'g', -1, 64)), true
}

// encode writes v indented by two spaces, ending in a newline.
func encode(v value) []byte {
	var b bytes.Buffer
	write(&b, v, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func write(b *bytes.Buffer, v value, indent int) {
	switch v := v.(type) {
	case *object:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range v.keys {
			pad(b, indent+1)
			writeString(b, k)
			b.WriteString(": ")
			write(b, v.vals[i], indent+1)
			if i < len(v.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(b, indent)
		b.WriteByte('}')
	case array:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			pad(b, indent+1)
			write(b, e, indent+1)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(b, indent)
		b.WriteByte(']')
	case str:
		writeString(b, string(v))
	case raw:
		b.WriteString(string(v))
	default:
		b.WriteString("null")
	}
}

func pad(b *bytes.Buffer, n int) {
	for i := 0; i < n; i++ {
		b.WriteString("  ")
	}
}

// writeString escapes by encoding/json's rules, but leaves <, > and &
// alone: patterns are full of them and the output is not HTML.
func writeString(b *bytes.Buffer, s string) {
	var t bytes.Buffer
	e := json.NewEncoder(&t)
	e.SetEscapeHTML(false)
	_ = e.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(t.Bytes(), []byte("\n")))
}
