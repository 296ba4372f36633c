package inert

import "unicode/utf8"

// JSON returns JSON text with the formula characters inside its strings
// written as \u escapes wherever they could begin a spreadsheet cell: at
// the start of a string, or after any character but an ASCII letter or
// digit (a spreadsheet program's text import may split a line at a comma,
// a space or a semicolon). "2024-01-02" and "a-b" stay as they are.
// Every JSON reader decodes the escapes to the same value, so the data is
// unchanged; only what a spreadsheet program sees of the raw text is.
// data must be JSON text, as encoding/json writes it.
func JSON(data []byte) []byte {
	var out []byte // nil until a character is escaped
	inString, escaped := false, false
	var prev byte
	for i := 0; i < len(data); {
		c := data[i]
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(data[i:])
		}
		switch {
		case !inString:
			inString = c == '"'
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			inString = false
		case trigger(r) && !alnum(prev):
			if out == nil {
				out = append(make([]byte, 0, len(data)+16), data[:i]...)
			}
			out = appendEscape(out, r)
			prev, i = data[i+size-1], i+size
			continue
		}
		if out != nil {
			out = append(out, data[i:i+size]...)
		}
		prev, i = data[i+size-1], i+size
	}
	if out == nil {
		return data
	}
	return out
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// appendEscape appends r as a JSON \u escape; r is below U+10000.
func appendEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
