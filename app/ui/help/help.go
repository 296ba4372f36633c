// Package help holds the operator's guide that the console's Help page
// shows, in each of the console's languages.
//
// Each guide is a file of its own (en.md, de.md, fr.md), written by hand
// in the operator's words rather than assembled from catalog entries, so
// that a translator reads and writes whole sections. The files use a small
// part of Markdown, which [Parse] reads into blocks the page draws:
//
//	An introduction, before the first heading.
//
//	## A section's title {#its-id}
//
//	A paragraph, over one line or several.
//
//	- an item of a list
//	1. a step
//
//	**Submit…** names a button, a page or a field as the console shows
//	it; `EUR:10000` is text written exactly so.
//
// The guides are embedded: the Help page opens offline, and the three
// cost the page's WebAssembly a few kilobytes once compressed. Its tests
// hold every language to the English guide's sections, and every name in
// bold to a text the console shows in that language.
package help

import (
	"embed"
	"fmt"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

//go:embed en.md de.md fr.md
var files embed.FS

// A Guide is the Help page's content in one language.
type Guide struct {
	// Intro comes before the first section.
	Intro    []Block
	Sections []Section
}

// A Section is one heading of the guide and what stands under it.
type Section struct {
	// ID names the section in every language, for links to it.
	ID     string
	Title  string
	Blocks []Block
}

// A BlockKind is what a block is drawn as.
type BlockKind int

const (
	// Paragraph is running text: one item.
	Paragraph BlockKind = iota
	// List is a list whose order does not matter.
	List
	// Steps is a numbered list, taken in order.
	Steps
)

// A Block is a paragraph or a list.
type Block struct {
	Kind BlockKind
	// Items are a list's items; a paragraph has one.
	Items []Text
}

// Text is a run of spans.
type Text []Span

// A Span is a piece of text with one look.
type Span struct {
	Text string
	// Label marks a name the console shows (a page, a button, a field);
	// Code marks text to be typed or read exactly as written.
	Label, Code bool
}

// String returns t without its marks.
func (t Text) String() string {
	var b strings.Builder
	for _, s := range t {
		b.WriteString(s.Text)
	}
	return b.String()
}

// guides reads each language's guide once: the page draws it again on
// every change of the shell around it.
var guides = func() map[lang.Tag]func() (Guide, error) {
	m := map[lang.Tag]func() (Guide, error){}
	for _, l := range lang.All {
		m[l] = sync.OnceValues(func() (Guide, error) {
			b, err := files.ReadFile(string(l) + ".md")
			if err != nil {
				return Guide{}, fmt.Errorf("the %s guide: %w", l.Name(), err)
			}
			g, err := Parse(string(b))
			if err != nil {
				return Guide{}, fmt.Errorf("the %s guide: %w", l.Name(), err)
			}
			return g, nil
		})
	}
	return m
}()

// For returns the guide in l.
func For(l lang.Tag) (Guide, error) {
	read, ok := guides[l]
	if !ok {
		return Guide{}, fmt.Errorf("no guide in %q", string(l))
	}
	return read()
}
