package ingest

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// Text encodings a CSV file may come in. ERP systems and older Excel
// versions on Windows still write Windows-1252; Excel's "Unicode text"
// is UTF-16 with a byte order mark.
const (
	UTF8        = "utf-8"
	UTF16LE     = "utf-16le"
	UTF16BE     = "utf-16be"
	Windows1252 = "windows-1252"
)

// Encodings lists the encodings an operator can choose.
var Encodings = []string{UTF8, UTF16LE, UTF16BE, Windows1252}

// normalizeEncoding maps the names operators type to ours.
func normalizeEncoding(name string) (string, error) {
	switch strings.ToLower(strings.NewReplacer("_", "-", " ", "").Replace(name)) {
	case "":
		return "", nil
	case "utf-8", "utf8":
		return UTF8, nil
	case "utf-16", "utf16", "utf-16le", "utf16le", "unicode":
		return UTF16LE, nil
	case "utf-16be", "utf16be":
		return UTF16BE, nil
	case "windows-1252", "cp1252", "1252", "latin1", "latin-1", "iso-8859-1", "ansi":
		// WHATWG treats ISO-8859-1 labels as Windows-1252, and so do we.
		return Windows1252, nil
	}
	return "", lang.Errorf("unknown encoding %q: use one of %s", name, strings.Join(Encodings, ", "))
}

// encodingDecision names the encoding of text data from its byte order
// mark or, without one, from its bytes. Text that holds both valid UTF-8
// characters and bytes UTF-8 cannot hold is undecided: it is read as
// UTF-8, whose damage is reported at its row, rather than as
// Windows-1252, which would garble every accented letter.
func encodingDecision(data []byte, w lang.Tag) reading.Decision {
	detected := func(enc, why string) reading.Decision {
		return reading.Decision{Value: enc, How: reading.Detected, Evidence: []reading.Cell{{Row: 1, Raw: w.T(why), Suggests: enc}}}
	}
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return detected(UTF8, lang.Mark("byte order mark"))
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return detected(UTF16LE, lang.Mark("byte order mark"))
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return detected(UTF16BE, lang.Mark("byte order mark"))
	case utf16Likely(data):
		if data[0] == 0 {
			return detected(UTF16BE, lang.Mark("every other byte is zero"))
		}
		return detected(UTF16LE, lang.Mark("every other byte is zero"))
	}
	utf8Chars, notUTF8 := w.T("UTF-8 characters"), w.T("bytes that are not UTF-8")
	good, bad := -1, -1
	line := 1
	for i := 0; i < len(data) && (good < 0 || bad < 0); {
		if data[i] < utf8.RuneSelf {
			if data[i] == '\n' {
				line++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			if bad < 0 {
				bad = line
			}
			i++
			continue
		}
		if good < 0 {
			good = line
		}
		i += size
	}
	switch {
	case bad < 0 && good < 0:
		return reading.Decision{Value: UTF8, How: reading.Default}
	case bad < 0:
		return reading.Decision{Value: UTF8, How: reading.Detected, Evidence: []reading.Cell{{Row: good, Raw: utf8Chars, Suggests: UTF8}}}
	case good < 0:
		return reading.Decision{Value: Windows1252, How: reading.Detected, Evidence: []reading.Cell{{Row: bad, Raw: notUTF8, Suggests: Windows1252}}}
	}
	return reading.Decision{Value: UTF8, How: reading.Default, Undecided: true, Evidence: []reading.Cell{
		{Row: bad, Raw: notUTF8, Suggests: Windows1252},
		{Row: good, Raw: utf8Chars, Suggests: UTF8},
	}}
}

// utf16Likely reports ASCII text written as UTF-16 without a byte order
// mark: every other byte is zero.
func utf16Likely(data []byte) bool {
	n := min(len(data), 512) &^ 1
	if n < 4 {
		return false
	}
	even, odd := 0, 0
	for i := 0; i < n; i += 2 {
		if data[i] == 0 {
			even++
		}
		if data[i+1] == 0 {
			odd++
		}
	}
	half := n / 2
	return (even*10 >= half*8 && odd*10 <= half) || (odd*10 >= half*8 && even*10 <= half)
}

// decodeText turns data in the given encoding into a UTF-8 string, without
// its byte order mark. Invalid UTF-8 is kept as it is, for the CSV reader
// to report at its row and column.
func decodeText(data []byte, enc string) (string, error) {
	switch enc {
	case UTF8:
		return string(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})), nil
	case UTF16LE, UTF16BE:
		return decodeUTF16(data, enc == UTF16BE)
	case Windows1252:
		return decode1252(data), nil
	}
	return "", lang.Errorf("unknown encoding %q", enc)
}

func decodeUTF16(data []byte, bigEndian bool) (string, error) {
	if bigEndian {
		data = bytes.TrimPrefix(data, []byte{0xFE, 0xFF})
	} else {
		data = bytes.TrimPrefix(data, []byte{0xFF, 0xFE})
	}
	if len(data)%2 != 0 {
		return "", lang.Errorf("the file is not UTF-16: it has an odd number of bytes")
	}
	var b strings.Builder
	b.Grow(len(data) / 2)
	line := 1
	for i := 0; i < len(data); i += 2 {
		u := uint16(data[i]) | uint16(data[i+1])<<8
		if bigEndian {
			u = uint16(data[i])<<8 | uint16(data[i+1])
		}
		r := rune(u)
		if utf16.IsSurrogate(r) {
			var u2 uint16
			if i+3 < len(data) {
				u2 = uint16(data[i+2]) | uint16(data[i+3])<<8
				if bigEndian {
					u2 = uint16(data[i+2])<<8 | uint16(data[i+3])
				}
			}
			r = utf16.DecodeRune(r, rune(u2))
			if r == utf8.RuneError {
				return "", lang.Errorf("the file is not valid UTF-16: a broken character on line %d", line)
			}
			i += 2
		}
		if r == '\n' {
			line++
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// cp1252 maps the bytes 0x80-0x9F, where Windows-1252 differs from
// Latin-1; the five undefined ones keep their C1 code points.
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}

func decode1252(data []byte) string {
	var b strings.Builder
	b.Grow(len(data) + len(data)/8)
	for _, c := range data {
		switch {
		case c < 0x80:
			b.WriteByte(c)
		case c < 0xA0:
			b.WriteRune(cp1252[c-0x80])
		default:
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}
