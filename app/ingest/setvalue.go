package ingest

import (
	"maps"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A value set for every row (Mapping.Values) fills a field the file has
// no column for: the profile of every transfer, say, or its source type.
// The build reads it as a column of its own whose cell in each row holds
// the value as typed, so that it is read, checked and reported exactly as
// a cell of that field is: what it costs a row is what reading a cell
// costs.

// setColumn is the column of a value set for every row.
func setColumn(t target, value string) column {
	return column{index: -1, target: t, set: true, value: Cell{Kind: Text, Value: value}, currencyPos: -1, boxes: make(map[string]any, 1)}
}

// cell returns the column's cell in row r.
func (col *column) cell(r *Row) Cell {
	if col.set {
		return col.value
	}
	return r.Cell(col.index)
}

// setValueMessage says a problem of a value set for every row as such:
// it has no cell to point at.
func setValueMessage(w lang.Tag, msg string) string {
	return w.F("the value set for every row: %s", msg)
}

// isSetValue reports whether ptr locates a value set for every row.
func (rd *reader) isSetValue(ptr string) bool {
	for ci := range rd.cols {
		if rd.cols[ci].set && rd.cols[ci].target.Pointer() == ptr {
			return true
		}
	}
	return false
}

// checkValues checks the values set for every row of a mapping whose
// columns fill the fields in filled (path → column letter) at the
// pointers ptrs: each must name a field of the kind that no column
// fills. It returns them keyed by the fields' paths as targets write them.
func (rd *reader) checkValues(values map[string]string, filled map[string]string, ptrs []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(values))
	for _, field := range slices.Sorted(maps.Keys(values)) {
		t, err := rd.cat.resolve(field)
		if err != nil {
			return nil, lang.Errorf("the value for every row: %s", err)
		}
		if letter, ok := filled[t.Path]; ok {
			return nil, lang.Errorf("column %s fills %s: a value for every row is for a field no column fills", letter, t.Path)
		}
		p := t.Pointer()
		if overlaps(p, ptrs) {
			return nil, lang.Errorf("the value for every row of %s overlaps with another field: keep one", t.Path)
		}
		if _, dup := out[t.Path]; dup {
			return nil, lang.Errorf("%s is given two values for every row: keep one", t.Path)
		}
		ptrs = append(ptrs, p)
		out[t.Path] = values[field]
	}
	return out, nil
}

// overlaps reports whether the value at pointer p and one at ptrs hold
// each other: two sources for the same part of an element.
func overlaps(p string, ptrs []string) bool {
	for _, q := range ptrs {
		if strings.HasPrefix(p+"/", q+"/") || strings.HasPrefix(q+"/", p+"/") {
			return true
		}
	}
	return false
}

// A SetValue is a value set for every row as it reads: what it becomes,
// or why it cannot be read or the contract refuses it, in the first data
// row (an amount's currency may come from the row).
type SetValue struct {
	Field  string `json:"field"`
	Value  string `json:"value"`
	Parsed string `json:"parsed,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Values returns the values set for every row, in the order of their
// fields' paths, each read and checked as the build does in the first
// data row, so that the operator sees at once what a value becomes.
func (im *Import) Values() []SetValue {
	rd := im.p
	if !rd.hasSet {
		return nil
	}
	first := &Row{Number: rd.mapping.HeaderRow + 1}
	if i := rd.firstDataRow(); i < len(rd.Table.Rows) {
		first = &rd.Table.Rows[i]
	}
	w := rd.v.Language()
	elem, _ := rd.buildRow(first, nil)
	refused := rd.v.ValidateElement(rd.Kind, 0, elem)
	var out []SetValue
	for ci := range rd.cols {
		col := &rd.cols[ci]
		if !col.set {
			continue
		}
		sv := SetValue{Field: col.target.Path, Value: col.value.Value}
		v, p := rd.coerce(col.value, col, first)
		if p != nil {
			sv.Error = p.message(w)
		} else if v != nil {
			sv.Parsed = rd.describeValue(v, col, first)
			ptr := col.target.Pointer()
			if k := slices.IndexFunc(refused, func(q schema.Problem) bool { return q.Pointer == ptr && q.Severity == schema.Error }); k >= 0 {
				sv.Error = refused[k].Message
			}
		}
		out = append(out, sv)
	}
	slices.SortFunc(out, func(a, b SetValue) int { return strings.Compare(a.Field, b.Field) })
	return out
}
