package review

import (
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A PassElement is one element as a Document's first pass reads it (the
// pass that finds its facts and, for a request body, its columns): what
// else needs every element once (a schedule's times) reads it there
// rather than in a pass of its own, which for a table builds every row
// again and for a request body reads every element's bytes again.
type PassElement struct {
	i int
	// v is the element decoded, nil while it is read flat from rs.
	v  any
	rs *ingest.RequestElements
	// flat is the element read flat, when it is (isFlat).
	flat   schema.Flat
	isFlat bool
}

// Flat returns the element read flat from a request body's bytes, valid
// until the pass goes on; ok is false for an element given decoded
// (Value).
func (e *PassElement) Flat() (f schema.Flat, ok bool) {
	return e.flat, e.isFlat && e.v == nil
}

// Index is the element's index in the document.
func (e *PassElement) Index() int { return e.i }

// ValueAt returns the value at path tokens toks inside the element, nil
// when there is none, as Document.ValueAt does.
func (e *PassElement) ValueAt(toks []string) any {
	if e.v == nil && e.rs != nil {
		return e.rs.ValueAt(e.i, toks)
	}
	v := e.v
	for _, t := range toks {
		m, _ := v.(map[string]any)
		v = m[t]
	}
	return v
}

// Value returns the element decoded; a request body's element read flat
// is decoded for it. It and its maps must not be kept: a table's are
// reused for the next row.
func (e *PassElement) Value() any {
	if e.v == nil && e.rs != nil {
		e.v = e.rs.At(e.i)
	}
	return e.v
}

// A FirstPass is given each element of a Document's first pass, in
// order, while the Document is made.
type FirstPass func(e *PassElement)
