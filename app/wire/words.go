package wire

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// Count writes n with thousands separators: 10000 → "10,000".
func Count(n int) string { return money.FormatWith(int64(n), 0, money.Point) }

// Plural writes "1 chunk" or "3 chunks".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}

// Sentence makes a message a sentence: a capital first, a full stop last.
func Sentence(s string) string {
	if s == "" {
		return s
	}
	first, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(first)) + s[size:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// FileStem is a file's name without its folder and extension, or "bulk":
// the start of the name of a file written from it.
func FileStem(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" || name == "" {
		return "bulk"
	}
	return strings.TrimSuffix(name, path.Ext(name))
}

// XLSXType is the media type of the workbooks the console writes.
const XLSXType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
