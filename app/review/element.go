package review

// Element returns element i as it would be sent, with every edit
// applied; a request body kept as its bytes decodes it anew. Elements
// gives them all at once, which for a large body holds them all.
func (d *Document) Element(i int) any { return d.src.value(i) }

// ValueAt returns the value at path tokens toks inside element i, nil
// when there is none; a request body's is read without decoding the
// element.
func (d *Document) ValueAt(i int, toks []string) any {
	if rs, ok := d.src.(*requestSource); ok {
		return rs.elements.ValueAt(i, toks)
	}
	v := d.src.value(i)
	for _, t := range toks {
		m, _ := v.(map[string]any)
		v = m[t]
	}
	return v
}

// EachElement calls f with every element in order, as Element returns
// it; f must not keep it nor its maps, which the next element may reuse:
// reading every element once (a schedule's times) then leaves no garbage.
func (d *Document) EachElement(f func(i int, v any)) { d.src.eachValue(f) }
