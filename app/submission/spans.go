package submission

// A Span is the run of element indexes From, From+1, …, To-1.
type Span struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Spans is a sequence of indexes (element indexes in increasing order, or
// the file rows of those elements), kept as runs of consecutive numbers so
// that a journal entry stays small.
type Spans []Span

// spansOf packs indexes into runs.
func spansOf(idx []int) Spans {
	var out Spans
	for _, i := range idx {
		if n := len(out); n > 0 && out[n-1].To == i {
			out[n-1].To++
			continue
		}
		out = append(out, Span{i, i + 1})
	}
	return out
}

// Len returns how many indexes the set holds.
func (s Spans) Len() int {
	n := 0
	for _, sp := range s {
		n += sp.To - sp.From
	}
	return n
}

// At returns the i-th index of the set, and false when there is none.
func (s Spans) At(i int) (int, bool) {
	if i < 0 {
		return 0, false
	}
	for _, sp := range s {
		if n := sp.To - sp.From; i < n {
			return sp.From + i, true
		} else {
			i -= n
		}
	}
	return 0, false
}

// Indexes returns every index of the set.
func (s Spans) Indexes() []int {
	out := make([]int, 0, s.Len())
	for _, sp := range s {
		for i := sp.From; i < sp.To; i++ {
			out = append(out, i)
		}
	}
	return out
}
