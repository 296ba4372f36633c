package ingest

// EachValue builds every element in file order, as Value does, and calls
// f with each. The element's maps are reused for the next one, so f must
// not keep them: reading every element once (control totals, duplicate
// checks) then leaves no garbage, which in the browser is most of the cost.
func (r *Result) EachValue(f func(i int, v map[string]any)) {
	s := newScratch()
	t := r.p.Table
	for i, e := range r.Elements {
		ri := t.RowIndex(e.Row)
		if ri < 0 {
			f(i, r.p.newElement(s))
			continue
		}
		v, _ := r.p.buildRow(&t.Rows[ri], s)
		f(i, v)
	}
}
