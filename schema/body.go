package schema

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
)

// A Body is a JSON request body kept as it was written: its bytes and
// where each element is in them. Reading one checks the whole body as
// DecodeJSON would and decodes nothing but the elements that repeat a
// key; each element is decoded when someone needs its value (Element),
// and checked from its bytes (Validator.CheckBody). A decoded body of
// 100,000 transfers holds about 170 MB of Go maps; this one, the file
// and a slice of offsets.
type Body struct {
	data  []byte
	spans []span
	dups  []string
	// shaped says the body is a request body rather than a table of
	// flat objects: see RequestShaped.
	shaped bool
}

// A span is where an element is in its body: data[start:end].
type span struct{ start, end int }

// ReadBody reads a JSON array of elements. ok is false when data is not
// an array, or not JSON the reader accepts: DecodeJSON then says what it
// holds, or what is wrong, exactly as before.
func ReadBody(data []byte) (b *Body, ok bool) {
	d := decoder{data: data}
	if strings.HasPrefix(string(data[:min(3, len(data))]), "\ufeff") {
		d.pos = 3
	}
	d.skipSpace()
	if d.pos >= len(data) || data[d.pos] != '[' {
		return nil, false
	}
	_ = d.enter()
	d.pos++
	d.skipSpace()
	b = &Body{data: data}
	var e flatElement
	if d.pos < len(data) && data[d.pos] == ']' {
		d.pos++
	} else {
		for {
			d.skipSpace()
			start := d.pos
			e.data, e.nodes, e.tricky = data, e.nodes[:0], false
			if _, err := d.readFlat(&e); err != nil {
				return nil, false
			}
			b.spans = append(b.spans, span{start, d.pos})
			b.note(&e, len(b.spans)-1)
			d.skipSpace()
			if d.pos >= len(data) {
				return nil, false
			}
			if data[d.pos] == ']' {
				d.pos++
				break
			}
			if data[d.pos] != ',' {
				return nil, false
			}
			d.pos++
		}
	}
	d.skipSpace()
	if d.pos < len(data) {
		return nil, false
	}
	b.shaped = b.shaped || len(b.spans) == 0
	return b, true
}

// note records what element i, just read flat into e, tells of the
// body: the keys it repeats, and whether it is shaped as a request's.
func (b *Body) note(e *flatElement, i int) {
	if e.tricky {
		// Keys written with escapes or repeated: the decoder reads them.
		v, dups, err := DecodeJSON(b.Raw(i))
		if err != nil {
			return // cannot be: the body was read whole
		}
		for _, p := range dups {
			b.dups = append(b.dups, "/"+strconv.Itoa(i)+p)
		}
		obj, isObject := v.(map[string]any)
		_, p := obj["pathParams"]
		_, r := obj["requestBody"]
		b.shaped = b.shaped || !isObject || p || r
		return
	}
	b.shaped = b.shaped || e.nodes[0].kind != flatObject ||
		e.member(0, "pathParams") != 0 || e.member(0, "requestBody") != 0
}

// Len is the number of elements.
func (b *Body) Len() int { return len(b.spans) }

// Raw returns element i as written in the body; it must not be changed.
func (b *Body) Raw(i int) []byte { return b.data[b.spans[i].start:b.spans[i].end] }

// Element decodes element i, as DecodeJSON decodes it within the body.
func (b *Body) Element(i int) (any, error) {
	v, _, err := DecodeJSON(b.Raw(i))
	return v, err
}

// ValueAt returns the value at path tokens toks inside element i, as
// looking it up in the element decoded would (nil when there is none),
// decoding only that value: the checks that read a field or two of every
// element (amounts, ids) take them without decoding the elements. It is
// safe for concurrent use; a BodyReader reads faster.
func (b *Body) ValueAt(i int, toks []string) any {
	r := readers.Get().(*BodyReader)
	defer readers.Put(r)
	r.b, r.at = b, -1
	return r.ValueAt(i, toks)
}

// readers are the BodyReaders ValueAt reuses.
var readers = sync.Pool{New: func() any { return new(BodyReader) }}

// A BodyReader reads values inside a body's elements as Body.ValueAt
// does, keeping the last element it read flat for the next value asked
// of it, and decodes elements as Body.Element does, sharing the strings
// that repeat from one element to the next. It is not safe for
// concurrent use.
type BodyReader struct {
	b  *Body
	e  flatElement
	at int
	// whole is the last element read, when it had to be decoded.
	whole any
	// d decodes elements; its caches of keys and short values last.
	d decoder
}

// Element is Body.Element.
func (r *BodyReader) Element(i int) (any, error) { return r.decode(r.b.Raw(i)) }

// decode decodes data as DecodeJSON does, with the reader's caches.
func (r *BodyReader) decode(data []byte) (any, error) {
	if r.d.keys == nil {
		r.d.keys, r.d.values = make([]string, 256), make([]interned, 256)
	}
	r.d.data, r.d.pos, r.d.depth, r.d.path, r.d.dups = data, 0, 0, r.d.path[:0], nil
	v, _, err := r.d.decode()
	return v, err
}

// Reader returns a BodyReader of b.
func (b *Body) Reader() *BodyReader { return &BodyReader{b: b, at: -1} }

// ValueAt is Body.ValueAt.
func (r *BodyReader) ValueAt(i int, toks []string) any {
	if r.at != i {
		r.at, r.whole = i, nil
		if r.e.read(r.b.Raw(i)) != nil || r.e.tricky {
			r.whole, _ = r.b.Element(i)
		}
	}
	if r.whole != nil {
		v, _ := lookup(r.whole, toks)
		return v
	}
	e := &r.e
	n := e.at(0, toks)
	if n == 0 {
		return nil
	}
	node := e.nodes[n]
	switch node.kind {
	case flatNull:
		return nil
	case flatTrue:
		return true
	case flatFalse:
		return false
	case flatString:
		if !node.escaped {
			return string(e.text(n))
		}
		node.start, node.end = node.start-1, node.end+1 // with its quotes
	case flatNumber:
		return json.Number(string(e.text(n)))
	}
	v, _ := r.decode(e.data[node.start:node.end])
	return v
}

// Elements decodes every element, for callers that need them all at once.
func (b *Body) Elements() ([]any, error) {
	out := make([]any, len(b.spans))
	for i := range out {
		var err error
		if out[i], err = b.Element(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Dups returns the pointers of the keys the body repeats, as DecodeJSON
// returns them.
func (b *Body) Dups() []string { return b.dups }

// RequestShaped reports whether the body is to be validated as it is
// rather than read as a table: it is empty, or one of its elements is
// not an object or names pathParams or requestBody.
func (b *Body) RequestShaped() bool { return b.shaped }

// Bytes returns the whole body as it was read.
func (b *Body) Bytes() []byte { return b.data }

// CheckBody is CheckDocument for a body kept as bytes: the same report,
// with elements the flat checks find without a problem never decoded.
func (v *Validator) CheckBody(k *Kind, b *Body) *Report {
	r, _ := v.CheckBodyContext(context.Background(), k, b, nil)
	return r
}

// CheckBodyContext is CheckBody with the progress and cancellation of
// CheckDocumentContext.
func (v *Validator) CheckBodyContext(ctx context.Context, k *Kind, b *Body, progress func(done, total int)) (*Report, error) {
	var each func(int)
	if progress != nil {
		progress(0, b.Len())
		each = func(done int) { progress(done, b.Len()) }
	}
	r, err := v.ValidateBodyContext(ctx, k, b, nil, each)
	if err != nil {
		return nil, err
	}
	r.Add(duplicateKeyProblems(v.w, b.dups)...)
	r.Sort()
	return r, nil
}

// ValidateBodyContext is ValidateRequestContext for a body's elements,
// those that edited gives a value of replaced by it: an edited element
// is checked decoded, the others from their bytes. edited may be nil.
func (v *Validator) ValidateBodyContext(ctx context.Context, k *Kind, b *Body, edited func(i int) (any, bool), progress func(done int)) (*Report, error) {
	var e flatElement
	return v.validateEach(ctx, k, b.Len(), func(i int) []Problem {
		if edited != nil {
			if el, ok := edited(i); ok {
				return v.ValidateElement(k, i, el)
			}
		}
		return v.validateRaw(k, i, b.Raw(i), &e)
	}, progress)
}

// ValidateRaw is ValidateElement for element i given as its JSON text,
// as a Body holds it: decoded only when the flat checks find it has, or
// may have, a problem.
func (v *Validator) ValidateRaw(k *Kind, i int, raw []byte) []Problem {
	var e flatElement
	return v.validateRaw(k, i, raw, &e)
}

// validateRaw is ValidateRaw reading into e, reused from element to
// element.
func (v *Validator) validateRaw(k *Kind, i int, raw []byte, e *flatElement) []Problem {
	ck, err := v.compile(k)
	if err != nil {
		return []Problem{{Element: i, Code: "no-contract", Message: err.Error(), Severity: Error}}
	}
	if e.read(raw) == nil && v.quietFlat(k, ck, e) {
		return nil
	}
	el, _, err := DecodeJSON(raw)
	if err != nil {
		return []Problem{{Element: i, Code: "not-json", Message: v.w.F("not valid JSON: %s", err), Severity: Error}}
	}
	return v.ValidateElement(k, i, el)
}
