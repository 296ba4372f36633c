package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// FromRequest returns the Document of a JSON request body: elements as
// schema.DecodeJSON gives them and the report of their validation. Its
// columns are the fields the elements carry, in the contract's order, then
// the required fields none carries, then fields the contract does not
// know.
func FromRequest(k *schema.Kind, backOffice bool, fileName string, elements []any, r *schema.Report, v *schema.Validator) *Document {
	return FromRequestElements(k, backOffice, fileName, ingest.NewRequestElements(elements), r, v)
}

// FromRequestElements is FromRequest for a file's elements kept as its
// bytes: each is decoded when it is read, and what is changed stays in
// elements, for a Document made of them again (another kind). Each
// element is also given to pass, if any, as the Document reads them.
func FromRequestElements(k *schema.Kind, backOffice bool, fileName string, elements *ingest.RequestElements, r *schema.Report, v *schema.Validator, pass ...FirstPass) *Document {
	s := &requestSource{k: k, v: v, elements: elements, rep: r, fields: make(map[string]schema.Field), shown: -1}
	for _, f := range v.Fields(k) {
		s.fields[f.Path] = f
	}
	// One pass over the elements finds the columns and each element's
	// facts: a body kept as its bytes decodes each element once.
	d := &Document{Kind: k, BackOffice: backOffice, FileName: fileName, src: s, w: v.Language()}
	d.facts = make([]facts, elements.Len())
	names, currencies := make(sourceNames), make(map[string]string)
	amountAt, sourceAt := keyTokens(k.Amount), keyTokens(k.Source)
	// The walk keeps what the plausibility checks read (merge), which
	// then read no element again.
	elements.KeepPlausibility(k, v.Fields(k))
	var pe PassElement
	passOn := func(i int, e any, f schema.Flat, flat bool) {
		pe = PassElement{i: i, v: e, rs: elements, flat: f, isFlat: flat}
		for _, f := range pass {
			f(&pe)
		}
	}
	s.cols = s.findColumns(func(i int, e any) {
		d.facts[i] = d.factsOf(e, names)
		passOn(i, e, schema.Flat{}, false)
	}, func(i int, f schema.Flat) {
		d.facts[i] = factsFlat(f, amountAt, sourceAt, names, currencies, func(toks []string) any { return elements.ValueAt(i, toks) })
		// The element's bytes were read flat for the walk: its values
		// are read from them again without another reading.
		passOn(i, nil, f, true)
	})
	d.indexColumns()
	d.settle()
	elements.Forget()
	return d
}

// requestSource holds the elements of a JSON request body.
type requestSource struct {
	k        *schema.Kind
	v        *schema.Validator
	elements *ingest.RequestElements
	rep      *schema.Report
	// fields are the kind's fields by path ("spendLimit[].interval").
	fields map[string]schema.Field
	cols   []Column
	// shown is the element whose cells were read last, decoded: a window
	// of the table reads each element's cells one after the other.
	shown      int
	shownValue any
}

func (s *requestSource) count() int                 { return s.elements.Len() }
func (s *requestSource) value(i int) any            { return s.elements.At(i) }
func (s *requestSource) eachValue(f func(int, any)) { s.elements.Each(f) }
func (s *requestSource) origin(i int) (string, int) { return "", i }
func (s *requestSource) report() *schema.Report     { return s.rep }
func (s *requestSource) columns() []Column          { return s.cols }
func (s *requestSource) tabular() bool              { return false }
func (s *requestSource) readAs() string             { return "" }
func (s *requestSource) cell(i int, c Column) string {
	v, edited := s.elements.Edited(i)
	switch {
	case edited:
	case s.shown == i:
		v = s.shownValue
	default:
		v = s.elements.At(i)
		s.shown, s.shownValue = i, v
	}
	return display(lookup(v, tokensOf(c.Field)))
}

// maxColumns bounds the columns of a request body's table: elements with
// hundreds of stray keys must not make a table no one can read.
const maxColumns = 80

// findColumns lists the leaf fields the elements carry, and the required
// ones and those problems name; each element, as it is read, is also
// given to also, or to alsoFlat when it is read flat.
func (s *requestSource) findColumns(also func(i int, e any), alsoFlat func(i int, f schema.Flat)) []Column {
	order := make(map[string]int)
	for i, f := range s.v.Fields(s.k) {
		order[f.Path] = i
	}
	seen := make(map[string]bool)
	var paths []string
	add := func(p string) {
		if !seen[p] && len(paths) < maxColumns {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	// Each path is looked up before it is made a string: most are known.
	done := func(p []byte) bool { return len(paths) >= maxColumns || seen[string(p)] }
	w := leafWalker{done: done, leaf: func(p []byte) {
		if !done(p) {
			add(string(p))
		}
	}}
	s.elements.Walk(func(i int, e any) {
		w.element(e)
		also(i, e)
	}, func(i int, f schema.Flat) {
		w.elementFlat(f)
		alsoFlat(i, f)
	})
	for _, f := range s.v.Fields(s.k) {
		if f.Required && !f.Conditional && !strings.Contains(f.Path, "[]") {
			add(f.Path)
		}
	}
	for _, p := range s.rep.Problems {
		if p.Element >= 0 && p.Field != "" && s.columnOf(p.Field, seen) == "" {
			if _, known := s.fields[pattern(p.Field)]; known {
				add(p.Field)
			}
		}
	}
	rank := func(p string) int {
		if r, ok := order[pattern(p)]; ok {
			return r
		}
		return len(order)
	}
	slices.SortStableFunc(paths, func(a, b string) int { return rank(a) - rank(b) })
	cols := make([]Column, len(paths))
	for i, p := range paths {
		f := s.fields[pattern(p)]
		cols[i] = Column{Index: -1, Header: p, Field: p, Required: f.Required && !f.Conditional}
	}
	return cols
}

// columnOf returns the column among those in cols that holds field: the
// field itself or the list or object it is part of.
func (s *requestSource) columnOf(field string, cols map[string]bool) string {
	for p := field; p != ""; p = parentPath(p) {
		if cols[p] {
			return p
		}
	}
	return ""
}

// keyTokens splits a key field's path (Kind.Amount, Kind.Source) into
// the tokens keyfields.Find follows; nil for none.
func keyTokens(path string) []string {
	if path == "" {
		return nil
	}
	if rest, ok := strings.CutPrefix(path, "pathParams."); ok {
		return append([]string{"pathParams"}, strings.Split(rest, ".")...)
	}
	return append([]string{"requestBody"}, strings.Split(path, ".")...)
}

// parentPath drops the last step of a path: "a.b[2]" → "a.b" → "a".
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

func (s *requestSource) edit(i int, c Column, text string) error {
	if err := s.set(i, c, text); err != nil {
		return err
	}
	s.revalidate([]int{i})
	return nil
}

func (s *requestSource) editMany(edits []cellEdit) error {
	changed := make([]int, 0, len(edits))
	for _, e := range edits {
		if err := s.set(e.element, e.column, e.text); err != nil {
			return err
		}
		changed = append(changed, e.element)
	}
	s.revalidate(changed)
	return nil
}

// set changes one field of element i to text, typed as the contract wants
// the field: an empty text removes it.
func (s *requestSource) set(i int, c Column, text string) error {
	obj, ok := s.elements.Own(i).(map[string]any)
	if !ok {
		return fmt.Errorf("element %d is not an object: correct it in the file", i)
	}
	tokens := tokensOf(c.Field)
	if strings.TrimSpace(text) == "" {
		remove(obj, tokens)
		return nil
	}
	v, err := s.typed(c.Field, text, lookup(obj, tokens))
	if err != nil {
		return fmt.Errorf("%s: %w", c.Field, err)
	}
	return put(obj, tokens, v)
}

// typed turns text into the value of field: a number or a boolean where the
// contract (or, for a field it does not know, the value being replaced)
// has one, a list from comma-separated items, otherwise the text itself.
// Text that does not fit the type stays text, which validation reports.
func (s *requestSource) typed(field, text string, old any) (any, error) {
	typ, item := "", ""
	if f, ok := s.fields[pattern(field)]; ok {
		typ, item = f.Type, f.ItemType
	} else {
		switch old.(type) {
		case json.Number:
			typ = "number"
		case bool:
			typ = "boolean"
		case []any:
			typ = "array"
		case map[string]any:
			typ = "object"
		}
	}
	switch typ {
	case "array":
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "[") {
			v, _, err := schema.DecodeJSON([]byte(t))
			return v, err
		}
		var list []any
		for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' }) {
			if part = strings.TrimSpace(part); part != "" {
				list = append(list, scalar(item, part))
			}
		}
		return list, nil
	case "object":
		v, _, err := schema.DecodeJSON([]byte(text))
		return v, err
	}
	return scalar(typ, text), nil
}

// scalar types one value.
func scalar(typ, text string) any {
	t := strings.TrimSpace(text)
	switch typ {
	case "integer":
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return json.Number(t)
		}
	case "number":
		if json.Valid([]byte(t)) && strings.IndexFunc(t, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }) < 0 {
			return json.Number(t)
		}
	case "boolean":
		switch strings.ToLower(t) {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return text
}

// revalidate validates the elements listed again and replaces their
// problems in the report.
func (s *requestSource) revalidate(changed []int) {
	redo := make(map[int]bool, len(changed))
	for _, i := range changed {
		redo[i] = true
	}
	kept := s.rep.Problems[:0:0]
	for _, p := range s.rep.Problems {
		if !redo[p.Element] {
			kept = append(kept, p)
		}
	}
	for i := range redo {
		kept = append(kept, s.v.ValidateElement(s.k, i, s.elements.At(i))...)
	}
	s.rep.Problems = kept
	s.rep.Sort()
}

// A leafWalker lists the path of every leaf value of elements: a scalar
// or a list of scalars. It writes paths into one buffer and sorts keys in
// slices kept per depth, so that walking every element of a large body
// allocates nothing once its paths are known.
type leafWalker struct {
	path []byte
	keys [][]string
	// members are keys per depth for walkFlat.
	members [][]flatMember
	// leaf is called with each leaf's path, which it must not keep.
	leaf func(path []byte)
	// done, when set, says that leaf has every path it can use: an
	// element whose leaves it all knows is then passed over after a walk
	// in the maps' own order, without sorting their keys.
	done func(path []byte) bool
}

// element walks one element's path parameters, then its body.
func (w *leafWalker) element(e any) {
	obj, ok := e.(map[string]any)
	if !ok {
		return
	}
	if w.done != nil && w.allDone(obj) {
		return
	}
	if v, ok := obj["pathParams"]; ok {
		w.path = append(w.path[:0], "pathParams"...)
		w.walk(v, 0)
	}
	if v, ok := obj["requestBody"]; ok {
		w.path = w.path[:0]
		w.walk(v, 0)
	}
}

// allDone reports whether done holds for every leaf of the element.
func (w *leafWalker) allDone(obj map[string]any) bool {
	if v, ok := obj["pathParams"]; ok {
		w.path = append(w.path[:0], "pathParams"...)
		if !w.seen(v) {
			return false
		}
	}
	if v, ok := obj["requestBody"]; ok {
		w.path = w.path[:0]
		if !w.seen(v) {
			return false
		}
	}
	return true
}

// seen is walk in any order, asking done of each leaf, until one is not.
func (w *leafWalker) seen(v any) bool {
	n := len(w.path)
	ok := true
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			w.path = w.path[:n]
			if n > 0 {
				w.path = append(w.path, '.')
			}
			w.path = append(w.path, k...)
			if ok = w.seen(x); !ok {
				break
			}
		}
	case []any:
		if allScalars(v) {
			return w.done(w.path)
		}
		for i, item := range v {
			w.path = append(w.path[:n], '[')
			w.path = strconv.AppendInt(w.path, int64(i), 10)
			w.path = append(w.path, ']')
			if ok = w.seen(item); !ok {
				break
			}
		}
	default:
		if n > 0 {
			return w.done(w.path)
		}
	}
	w.path = w.path[:n]
	return ok
}

func (w *leafWalker) walk(v any, depth int) {
	n := len(w.path)
	switch v := v.(type) {
	case map[string]any:
		for len(w.keys) <= depth {
			w.keys = append(w.keys, nil)
		}
		keys := w.keys[depth][:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w.keys[depth] = keys
		for _, k := range keys {
			w.path = w.path[:n]
			if n > 0 {
				w.path = append(w.path, '.')
			}
			w.path = append(w.path, k...)
			w.walk(v[k], depth+1)
		}
	case []any:
		if allScalars(v) {
			w.leaf(w.path)
			return
		}
		for i, item := range v {
			w.path = append(w.path[:n], '[')
			w.path = strconv.AppendInt(w.path, int64(i), 10)
			w.path = append(w.path, ']')
			w.walk(item, depth+1)
		}
	default:
		if n > 0 {
			w.leaf(w.path)
		}
	}
	w.path = w.path[:n]
}

func allScalars(list []any) bool {
	for _, v := range list {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// pattern writes a path as the kind's fields do: list positions as "[]".
func pattern(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			j := strings.IndexByte(path[i:], ']')
			if j > 0 {
				b.WriteString("[]")
				i += j
				continue
			}
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

// tokensOf returns the keys and positions of a path inside an element:
// "pathParams._id_" → pathParams, _id_; "limits[0].amount" → requestBody,
// limits, 0, amount. Positions are ints.
func tokensOf(path string) []any {
	var out []any
	if rest, ok := strings.CutPrefix(path, "pathParams."); ok {
		out = append(out, "pathParams")
		path = rest
	} else {
		out = append(out, "requestBody")
	}
	for _, part := range strings.Split(path, ".") {
		name, idx, _ := strings.Cut(part, "[")
		if name != "" {
			out = append(out, name)
		}
		for idx != "" {
			n, rest, _ := strings.Cut(idx, "]")
			if i, err := strconv.Atoi(n); err == nil {
				out = append(out, i)
			}
			idx = strings.TrimPrefix(rest, "[")
		}
	}
	return out
}

// lookup returns the value at tokens, or nil.
func lookup(v any, tokens []any) any {
	for _, t := range tokens {
		switch t := t.(type) {
		case string:
			obj, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = obj[t]
		case int:
			list, ok := v.([]any)
			if !ok || t >= len(list) {
				return nil
			}
			v = list[t]
		}
	}
	return v
}

// put sets the value at tokens, making the objects on the way.
func put(obj map[string]any, tokens []any, v any) error {
	var cur any = obj
	for k, t := range tokens {
		last := k == len(tokens)-1
		switch t := t.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return fmt.Errorf("%v is not an object", t)
			}
			if last {
				m[t] = v
				return nil
			}
			next, ok := m[t]
			if !ok || next == nil {
				next = container(tokens[k+1])
				m[t] = next
			}
			cur = next
		case int:
			list, ok := cur.([]any)
			if !ok || t >= len(list) {
				return fmt.Errorf("there is no item %d to change", t)
			}
			if last {
				list[t] = v
				return nil
			}
			cur = list[t]
		}
	}
	return nil
}

// container is the empty value a path continues into.
func container(next any) any {
	if _, ok := next.(int); ok {
		return []any{}
	}
	return map[string]any{}
}

// remove deletes the key at tokens; a list position is set to null.
func remove(obj map[string]any, tokens []any) {
	parent := lookup(obj, tokens[:len(tokens)-1])
	switch last := tokens[len(tokens)-1].(type) {
	case string:
		if m, ok := parent.(map[string]any); ok {
			delete(m, last)
		}
	case int:
		if l, ok := parent.([]any); ok && last < len(l) {
			l[last] = nil
		}
	}
}

// display writes a value as a cell shows it.
func display(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		if allScalars(v) {
			parts := make([]string, len(v))
			for i, x := range v {
				parts[i] = display(x)
			}
			return strings.Join(parts, ", ")
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
