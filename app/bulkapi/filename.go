package bulkapi

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// HeaderFileName names, on a submission, the file it comes from, for the
// console's server (bulkdesk serve), which records it with the bulk under
// its four-eyes rule and never passes it on to the API: percent-encoded
// UTF-8, at most MaxFileName bytes once decoded, without control
// characters.
const HeaderFileName = "Bulkdesk-File-Name"

// MaxFileName is the longest file name, in bytes, HeaderFileName carries.
const MaxFileName = 255

// WithFileName returns a copy of the client whose submissions name the
// file they come from in HeaderFileName ("" names none). Use it only for
// calls through the console's server: in a browser, a header the API
// does not know makes the browser ask the API first whether it takes it,
// and it may not.
func (c *Client) WithFileName(name string) *Client {
	d := *c
	d.fileName = fileNameHeader(name)
	return &d
}

// fileNameHeader writes a file name as HeaderFileName carries it: without
// the characters the server refuses (controls, and the bidirectional
// marks that could make a name read as another), cut to MaxFileName bytes
// at a character's end, then percent-encoded. A name the server would
// refuse would fail the submission: it is mended, never sent as it is.
func fileNameHeader(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, name)
	for len(name) > MaxFileName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return url.PathEscape(name)
}
