package ingest

import (
	"slices"
	"strings"

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
	// kept holds the values at some paths of every element, read in
	// one Walk (KeepPlausibility).
	kept *keptValues
}

// keptValues are the values at paths of every element: values[p][i] is
// element i's at paths[p].
type keptValues struct {
	paths  [][]string
	values [][]any
	// filled counts the elements kept, the first ones.
	filled int
}

// KeepPlausibility makes the next Walk keep, of every element it reads,
// the values the plausibility checks of kind k read (RequestElementWarnings:
// the amount, its currency and the ids), so that the checks read no
// element again; until Forget. A large body is otherwise read once more
// for them, and that was most of its review's time after the walk.
func (r *RequestElements) KeepPlausibility(k *schema.Kind, fields []schema.Field) {
	var paths [][]string
	if k.Amount != "" {
		at := elementTokens(k.Amount)
		paths = append(paths, append(slices.Clip(at), "currency"), append(slices.Clip(at), "amount"))
	}
	for _, f := range fields {
		if isIDField(f) && !strings.Contains(f.Path, "[") {
			paths = append(paths, elementTokens(f.Path))
		}
	}
	r.kept = &keptValues{paths: paths, values: make([][]any, len(paths))}
}

// Forget drops the values KeepPlausibility kept.
func (r *RequestElements) Forget() { r.kept = nil }

// keep reads element i's values at the kept paths, if the walk keeps
// them.
func (r *RequestElements) keep(i int) {
	k := r.kept
	if k == nil {
		return
	}
	for p, toks := range k.paths {
		if len(k.values[p]) != r.Len() {
			k.values[p] = make([]any, r.Len())
		}
		k.values[p][i] = r.valueAt(i, toks)
	}
	k.filled = max(k.filled, i+1)
}

// keptAt returns element i's kept value at toks, if it is kept.
func (r *RequestElements) keptAt(i int, toks []string) (any, bool) {
	k := r.kept
	if k == nil {
		return nil, false
	}
	if i >= k.filled {
		return nil, false
	}
	for p, path := range k.paths {
		if slices.Equal(path, toks) {
			return k.values[p][i], true
		}
	}
	return nil, false
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
	if v, ok := r.keptAt(i, toks); ok {
		if _, changed := r.edited[i]; !changed {
			return v
		}
	}
	return r.valueAt(i, toks)
}

// valueAt is ValueAt without the kept values.
func (r *RequestElements) valueAt(i int, toks []string) any {
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
// element of a large body that builds no maps. It keeps the values
// KeepPlausibility asks for.
func (r *RequestElements) Walk(decoded func(i int, v any), flat func(i int, f schema.Flat)) {
	for i := range r.Len() {
		if r.body != nil {
			if _, changed := r.edited[i]; !changed {
				if f, ok := r.bodyReader().Flat(i); ok {
					r.keep(i)
					flat(i, f)
					continue
				}
			}
		}
		r.keep(i)
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
