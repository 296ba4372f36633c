package ingest

import (
	"github.com/bulkdesk/bulkdesk/schema"
)

// RequestElements are the elements of a JSON request body as the review
// and its edits see them. A file's are kept as its bytes (schema.Body):
// an element is decoded each time someone reads it, and kept decoded
// only once it is changed, so that a body of 100,000 transfers is not
// held as 100,000 Go maps (about 170 MB) while the operator reviews it.
// It is not safe for concurrent use; the worker's jobs on one file run
// one at a time.
type RequestElements struct {
	body *schema.Body
	// list holds elements given decoded (a bulk read back from the API).
	list []any
	// edited holds the body's elements that were changed, decoded.
	edited map[int]any
	// reader reads values inside the body's elements (ValueAt).
	reader *schema.BodyReader
}

// NewRequestElements holds elements already decoded.
func NewRequestElements(list []any) *RequestElements { return &RequestElements{list: list} }

// Len is the number of elements.
func (r *RequestElements) Len() int {
	if r.body != nil {
		return r.body.Len()
	}
	return len(r.list)
}

// At returns element i decoded; the caller must not change it (see Own).
func (r *RequestElements) At(i int) any {
	if r.body == nil {
		return r.list[i]
	}
	if v, ok := r.edited[i]; ok {
		return v
	}
	v, _ := r.bodyReader().Element(i) // the body was read whole: it decodes
	return v
}

func (r *RequestElements) bodyReader() *schema.BodyReader {
	if r.reader == nil {
		r.reader = r.body.Reader()
	}
	return r.reader
}

// Own returns element i to be changed in place, keeping it decoded.
func (r *RequestElements) Own(i int) any {
	if r.body == nil {
		return r.list[i]
	}
	v, ok := r.edited[i]
	if !ok {
		v = r.At(i)
		if r.edited == nil {
			r.edited = make(map[int]any)
		}
		r.edited[i] = v
	}
	return v
}

// ValueAt returns the value at path tokens toks inside element i, nil
// when there is none, as valueAt would find it in the element decoded;
// from a body, without decoding the element.
func (r *RequestElements) ValueAt(i int, toks []string) any {
	if r.body == nil {
		return valueAt(r.list[i], toks)
	}
	if v, ok := r.edited[i]; ok {
		return valueAt(v, toks)
	}
	return r.bodyReader().ValueAt(i, toks)
}

// Each calls f with every element in order, decoding one at a time; f
// must not keep or change it.
func (r *RequestElements) Each(f func(i int, v any)) {
	for i := range r.Len() {
		f(i, r.At(i))
	}
}

// Walk calls flat with each element of a body read flat, and decoded
// with the others (given decoded, changed, or that the flat reader
// leaves to the decoder), one at a time and in order: a walk over every
// element of a large body that builds no maps.
func (r *RequestElements) Walk(decoded func(i int, v any), flat func(i int, f schema.Flat)) {
	for i := range r.Len() {
		if r.body != nil {
			if _, changed := r.edited[i]; !changed {
				if f, ok := r.bodyReader().Flat(i); ok {
					flat(i, f)
					continue
				}
			}
		}
		decoded(i, r.At(i))
	}
}

// Edited returns the decoded value of an element that was changed.
func (r *RequestElements) Edited(i int) (any, bool) {
	v, ok := r.edited[i]
	return v, ok
}

// Body returns the body the elements were read from, if they were.
func (r *RequestElements) Body() (*schema.Body, bool) { return r.body, r.body != nil }
