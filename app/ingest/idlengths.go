package ingest

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// idCellsNamed is how many cells an id-length warning names; the rest are
// counted.
const idCellsNamed = 3

// isIDField reports a field holding an id of digits: "profileId",
// "source.id", "pathParams._id_".
func isIDField(f schema.Field) bool {
	if f.Type != "string" || f.Pattern != "^[0-9]+$" {
		return false
	}
	last := f.Path[strings.LastIndexAny(f.Path, ".]")+1:]
	last = strings.ToLower(strings.Trim(last, "_"))
	return strings.HasSuffix(last, "id")
}

// idLengthWarning reports the ids of one field whose lengths differ:
// lens holds each element's id length (0 for none). The warning is
// placed at the first id whose length is not the most common one, and
// names the first few such ids, by place (given by name with the id's
// text) and counts the rest, which are elements of a request or else
// cells. When no length is more common than every other, no id stands out
// and nothing is reported. The message is in w.
func idLengthWarning(w lang.Tag, field, ptr, where string, elements bool, lens []uint8, name func(i int) (place, value string)) (schema.Problem, bool) {
	var counts [256]int
	distinct := 0
	for _, l := range lens {
		if l == 0 {
			continue
		}
		if counts[l] == 0 {
			distinct++
		}
		counts[l]++
	}
	if distinct < 2 {
		return schema.Problem{}, false
	}
	common, tie := 0, false
	for l := 1; l < len(counts); l++ {
		switch {
		case counts[l] > counts[common]:
			common, tie = l, false
		case counts[l] > 0 && counts[l] == counts[common]:
			tie = true
		}
	}
	if tie {
		// No length is the common one (101 and 1000001): nothing says
		// which ids are odd.
		return schema.Problem{}, false
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	var named []int
	odd := 0
	for i, l := range lens {
		if l == 0 || int(l) == common {
			continue
		}
		odd++
		if len(named) < idCellsNamed {
			named = append(named, i)
		}
	}
	var firstValue string
	odds := make([]string, len(named))
	for k, i := range named {
		place, v := name(i)
		v = truncate(v, 20)
		if k == 0 {
			firstValue = v
		}
		odds[k] = w.F("%s (%q) has %d", place, v, lens[i])
	}
	list := strings.Join(odds, ", ")
	if rest := odd - len(named); rest > 0 {
		noun := lang.Mark("cells")
		switch {
		case elements && rest == 1:
			noun = lang.Mark("element")
		case elements:
			noun = lang.Mark("elements")
		case rest == 1:
			noun = lang.Mark("cell")
		}
		list = w.F("%s and %s more %s have other lengths", list, w.Count(rest), w.T(noun))
	}
	msg := w.F("%s: the ids of %s have different lengths: %s of %s have %s, but %s: check that no digits were lost or added",
		field, where, w.Count(counts[common]), w.Count(total), w.Plural(common, "character", "characters"), list)
	return schema.Problem{Element: named[0], Pointer: ptr, Field: field, Code: IDLengthCode, Severity: schema.Warning,
		Message: msg, Value: firstValue}, true
}

// RequestIDWarnings returns the id-length warnings of the elements of a
// JSON request body, fields being its kind's: one per id field (digits,
// named "…id", outside lists) whose ids do not all have the common
// length, at the first odd element.
func RequestIDWarnings(w lang.Tag, fields []schema.Field, elements []any) []schema.Problem {
	return requestIDWarnings(w, fields, NewRequestElements(elements))
}

// requestIDWarnings is RequestIDWarnings over elements read one at a
// time.
func requestIDWarnings(w lang.Tag, fields []schema.Field, elements *RequestElements) []schema.Problem {
	var ids []schema.Field
	var toks [][]string
	for _, f := range fields {
		if isIDField(f) && !strings.Contains(f.Path, "[") {
			ids, toks = append(ids, f), append(toks, elementTokens(f.Path))
		}
	}
	// The lengths of every id field, read element by element: each
	// element is read once for all its ids.
	lens := make([][]uint8, len(ids))
	for j := range lens {
		lens[j] = make([]uint8, elements.Len())
	}
	for i := range elements.Len() {
		for j := range ids {
			if s, _ := elements.ValueAt(i, toks[j]).(string); allDigits(s) {
				lens[j][i] = uint8(min(len(s), 255))
			}
		}
	}
	var out []schema.Problem
	for j, f := range ids {
		p, ok := idLengthWarning(w, f.Path, pointerOf(f.Path), w.T("the request"), true, lens[j], func(i int) (string, string) {
			s, _ := elements.ValueAt(i, toks[j]).(string)
			return w.F("element %d", i), s
		})
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// warning reports the ids of a column whose lengths differ, as
// idLengthWarning does, naming cells.
func (d *idColumn) warning(w lang.Tag, t *Table, rowOf func(i int) int) (schema.Problem, bool) {
	letter := t.ColumnName(d.col.index)
	return idLengthWarning(w, d.field, d.ptr, w.F("column %s", columnLabel(t, d.col.index)), false, d.lens, func(i int) (string, string) {
		row := rowOf(i)
		v := ""
		if ri := t.RowIndex(row); ri >= 0 {
			v = strings.TrimSpace(t.Rows[ri].Cell(d.col.index).Value)
		}
		if t.Keyed {
			return w.F("item %d", row), v
		}
		return letter + itoa(row), v
	})
}

// columnLabel names a column in a message: its letter, or the key of a
// JSON table.
func columnLabel(t *Table, col int) string {
	if t.Keyed {
		return strconv.Quote(t.ColumnName(col))
	}
	return t.ColumnName(col)
}
