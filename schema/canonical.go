package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendCanonical appends the canonical JSON of a value decoded by
// DecodeJSON: compact, object keys sorted, numbers exactly as written
// (json.Number), strings escaped minimally. It is the one form of an
// element on the wire: the bodies app/submission sends and fingerprints,
// the request bodies the console exports, the payloads the sandbox keeps.
// It is several times faster than encoding/json on generic values, which
// matters in the browser.
func AppendCanonical(buf []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case bool:
		return strconv.AppendBool(buf, v), nil
	case string:
		return appendString(buf, v), nil
	case json.Number:
		if v == "" {
			return nil, fmt.Errorf("an empty number")
		}
		return append(buf, v...), nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("the number %v has no JSON form", v)
		}
		return strconv.AppendFloat(buf, v, 'g', -1, 64), nil
	case int:
		return strconv.AppendInt(buf, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(buf, v, 10), nil
	case []any:
		buf = append(buf, '[')
		for i, e := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = AppendCanonical(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case map[string]any:
		buf = append(buf, '{')
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, k)
			buf = append(buf, ':')
			var err error
			if buf, err = AppendCanonical(buf, v[k]); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	}
	return nil, fmt.Errorf("a value of type %T has no JSON form here", v)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, bad UTF-8 replaced by U+FFFD.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, "\ufffd"...)
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// CanonicalArray writes elements (those listed in only, in that order, or
// all when only is nil) as a JSON array of their canonical forms: a
// request body exactly as the console sends it.
func CanonicalArray(elements []any, only []int) ([]byte, error) {
	return CanonicalEach(len(elements), func(i int) any { return elements[i] }, only)
}

// CanonicalEach is CanonicalArray for n elements that element gives one
// at a time, so that a body kept as its bytes is written without holding
// every element decoded at once.
func CanonicalEach(count int, element func(i int) any, only []int) ([]byte, error) {
	n := count
	if only != nil {
		n = len(only)
	}
	buf := make([]byte, 0, 256*n+2)
	buf = append(buf, '[')
	for k := range n {
		i := k
		if only != nil {
			i = only[k]
		}
		if k > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = AppendCanonical(buf, element(i)); err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
	}
	return append(buf, ']'), nil
}
