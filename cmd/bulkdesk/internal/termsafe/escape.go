package termsafe

import (
	"strconv"
	"unicode/utf8"
)

// controlRune reports whether a terminal may act on r rather than show
// it: C0 controls, DEL, C1 controls, bidirectional controls and the line
// and paragraph separators.
func controlRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional marks, embeddings, overrides and isolates
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// safeASCII reports whether byte c is shown as it is whatever follows.
func safeASCII(c byte, keepLines bool) bool {
	return c >= 0x20 && c < 0x7f || keepLines && (c == '\n' || c == '\t')
}

// clean reports whether s needs no escape. Most text is plain ASCII and
// passes this without being copied.
func clean[T string | []byte](s T, keepLines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !safeASCII(c, keepLines) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune([]byte(s[i:min(len(s), i+utf8.UTFMax)]))
		if r == utf8.RuneError && n == 1 || controlRune(r) {
			return false
		}
		i += n
	}
	return true
}

// appendEscaped appends s to dst with every control character escaped;
// with keepLines, newlines and tabs are kept.
func appendEscaped[T string | []byte](dst []byte, s T, keepLines bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case safeASCII(c, keepLines):
				dst = append(dst, c)
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c == '\t':
				dst = append(dst, `\t`...)
			case c == 0x7f:
				dst = append(dst, `\u007f`...)
			default:
				dst = appendHex(append(dst, `\x`...), uint32(c), 2)
			}
			continue
		}
		r, n := utf8.DecodeRune([]byte(s[i:min(len(s), i+utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError && n == 1:
			dst = appendHex(append(dst, `\x`...), uint32(c), 2)
		case controlRune(r):
			dst = appendHex(append(dst, `\u`...), uint32(r), 4)
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// appendHex appends v in lowercase hexadecimal, zero-padded to digits.
func appendHex(dst []byte, v uint32, digits int) []byte {
	h := strconv.FormatUint(uint64(v), 16)
	for range digits - len(h) {
		dst = append(dst, '0')
	}
	return append(dst, h...)
}

// Line returns s as one line of text: every control character, newlines
// and tabs included, written as an escape (\x1b, \r, \n, \u202e).
func Line(s string) string {
	if clean(s, false) {
		return s
	}
	return string(appendEscaped(make([]byte, 0, len(s)+16), s, false))
}
