package schema

// A Flat is one value of an element read flat by a BodyReader: what a
// walk over every element (a review's columns, its hashes of elements)
// needs, without decoding them. It is valid until the reader reads
// another element.
type Flat struct {
	r *BodyReader
	e *flatElement
	n int
}

// A FlatKind is the JSON type of a Flat.
type FlatKind uint8

// The kinds of Flat values.
const (
	FlatNull   = FlatKind(flatNull)
	FlatFalse  = FlatKind(flatFalse)
	FlatTrue   = FlatKind(flatTrue)
	FlatNumber = FlatKind(flatNumber)
	FlatString = FlatKind(flatString)
	FlatArray  = FlatKind(flatArray)
	FlatObject = FlatKind(flatObject)
)

// Flat returns element i read flat; ok is false for an element the flat
// reader leaves to the decoder (keys written with escapes or twice),
// which the caller then decodes (Element).
func (r *BodyReader) Flat(i int) (f Flat, ok bool) {
	if r.at != i {
		r.at, r.whole = i, nil
		if r.e.read(r.b.Raw(i)) != nil || r.e.tricky {
			r.whole, _ = r.b.Element(i)
		}
	}
	return Flat{r: r, e: &r.e, n: 0}, r.whole == nil
}

// Kind is the value's JSON type.
func (f Flat) Kind() FlatKind { return FlatKind(f.e.nodes[f.n].kind) }

// Text is a string's value or a number's literal, as its bytes; the
// caller must not keep or change them.
func (f Flat) Text() []byte {
	node := f.e.nodes[f.n]
	if node.kind == flatString && node.escaped {
		v, _ := f.r.decode(f.e.data[node.start-1 : node.end+1])
		s, _ := v.(string)
		return []byte(s)
	}
	return f.e.text(f.n)
}

// Len is how many members or items an object or array holds.
func (f Flat) Len() int { return f.e.nodes[f.n].count }

// Each calls fn with every member of an object, in the order written,
// or every item of an array (key nil); the key's bytes must not be kept.
func (f Flat) Each(fn func(key []byte, v Flat)) {
	for c := f.e.nodes[f.n].first; c != 0; c = f.e.nodes[c].next {
		var key []byte
		if f.e.nodes[f.n].kind == flatObject {
			key = f.e.data[f.e.nodes[c].keyStart:f.e.nodes[c].keyEnd]
		}
		fn(key, Flat{r: f.r, e: f.e, n: c})
	}
}

// Member returns the member of an object named name.
func (f Flat) Member(name string) (Flat, bool) {
	c := f.e.member(f.n, name)
	return Flat{r: f.r, e: f.e, n: c}, c != 0
}
