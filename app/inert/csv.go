package inert

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A CSVWriter writes records as comma-separated values (RFC 4180, lines
// ending in \n) with every field inert: a field a spreadsheet program
// could run gets a leading apostrophe and is quoted, as the OWASP
// guidance on CSV injection says; other fields are quoted only when they
// must be, as encoding/csv does. encoding/csv cannot quote a field that
// does not need it, hence this writer.
type CSVWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// NewCSVWriter returns a writer of CSV records to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: w} }

// Write writes one record; a nil or empty record writes an empty line.
// The first error of w is kept for Error, and later writes do nothing.
func (c *CSVWriter) Write(record []string) {
	if c.err != nil {
		return
	}
	b := c.buf[:0]
	for i, field := range record {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case Formula(field):
			b = appendQuoted(append(b, '"', '\''), field)
		case needsQuotes(field):
			b = appendQuoted(append(b, '"'), field)
		default:
			b = append(b, field...)
		}
	}
	b = append(b, '\n')
	c.buf = b
	_, c.err = c.w.Write(b)
}

// Error returns the first error met while writing.
func (c *CSVWriter) Error() error { return c.err }

// appendQuoted appends field with its quotes doubled, and the closing
// quote.
func appendQuoted(b []byte, field string) []byte {
	for {
		i := strings.IndexByte(field, '"')
		if i < 0 {
			break
		}
		b = append(b, field[:i+1]...)
		b = append(b, '"')
		field = field[i+1:]
	}
	b = append(b, field...)
	return append(b, '"')
}

// needsQuotes is encoding/csv's rule: a field with a separator, a quote
// or a line break, one that begins with a space, and `\.` (which some
// programs take for the end of data) are quoted.
func needsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` || strings.ContainsAny(field, ",\"\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
}
