package ingest

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/schema"
)

// An Element is one operation of the bulk, built from one row.
type Element struct {
	// Row is the number of the row it was built from.
	Row int
	// Value is the element as it is sent: map[string]any with
	// "pathParams" and "requestBody", numbers as json.Number.
	Value map[string]any
}

// A Result is the outcome of a build: the elements in file order and one
// report of every problem, coercion and validation alike, each located at
// its sheet, row and column.
type Result struct {
	Elements []Element
	Report   *schema.Report

	// fileProblems are about the file, the mapping or the request as a
	// whole; problems[i] are element i's.
	fileProblems []schema.Problem
	problems     [][]schema.Problem
	byRow        map[int]int
}

// Request returns the element values in file order: the request body.
func (r *Result) Request() []any {
	out := make([]any, len(r.Elements))
	for i, e := range r.Elements {
		out[i] = e.Value
	}
	return out
}

// ElementOfRow returns the index of the element built from row n.
func (r *Result) ElementOfRow(n int) (int, bool) {
	i, ok := r.byRow[n]
	return i, ok
}

// Problems returns the problems of element i.
func (r *Result) Problems(i int) []schema.Problem {
	if i < 0 || i >= len(r.problems) {
		return nil
	}
	return r.problems[i]
}

// Result returns the last build's result, or nil before the first build.
func (im *Import) Result() *Result { return im.result }

// buildChunk is how many rows are built between two progress reports.
const buildChunk = 500

// Build builds and validates an element from every data row. progress,
// if not nil, is called every 500 rows with the count of rows done; it may
// sleep to let a browser page repaint.
func (im *Import) Build(progress Progress) *Result {
	res := &Result{byRow: make(map[int]int)}
	rows := im.dataRows()
	res.fileProblems = im.fileProblems()
	for n, ri := range rows {
		r := &im.Table.Rows[ri]
		if !im.rowHasMappedValues(r) {
			if p, ok := im.leftOutRow(r); ok {
				res.fileProblems = append(res.fileProblems, p)
			}
			continue
		}
		i := len(res.Elements)
		value, problems := im.buildRow(i, r)
		res.Elements = append(res.Elements, Element{Row: r.Number, Value: value})
		res.problems = append(res.problems, problems)
		res.byRow[r.Number] = i
		if progress != nil && (n+1)%buildChunk == 0 {
			progress(n + 1)
		}
	}
	res.fileProblems = append(res.fileProblems, im.requestProblems(len(res.Elements))...)
	res.Report = &schema.Report{Kind: im.Kind.ID}
	res.assemble()
	if progress != nil {
		progress(len(rows))
	}
	im.result = res
	return res
}

// assemble rebuilds the report from its parts.
func (r *Result) assemble() {
	n := len(r.fileProblems)
	for _, ps := range r.problems {
		n += len(ps)
	}
	all := make([]schema.Problem, 0, n)
	all = append(all, r.fileProblems...)
	for _, ps := range r.problems {
		all = append(all, ps...)
	}
	r.Report.Elements = len(r.Elements)
	r.Report.Problems = all
}

// EditCell changes one cell, as the operator corrects it, then rebuilds
// and validates the element of that row only and updates the report. It
// returns the element's new problems. Leading-zero profiles and detected
// settings are not recomputed. A row without an element (it was empty)
// gets one; an element whose row becomes empty stays, with its problems.
func (im *Import) EditCell(row, col int, text string) ([]schema.Problem, error) {
	if im.result == nil {
		return nil, fmt.Errorf("build the import before editing cells")
	}
	if row <= im.mapping.HeaderRow {
		return nil, fmt.Errorf("row %d is not a data row: the header is row %d", row, im.mapping.HeaderRow)
	}
	if im.Table.RowIndex(row) < 0 {
		im.insertRow(row)
	}
	if !im.Table.SetCell(row, col, text) {
		return nil, fmt.Errorf("the sheet has no cell %s%d", im.Table.ColumnName(col), row)
	}
	return im.RebuildRow(row)
}

// RebuildRow builds and validates the element of row n again, after its
// cells changed, and updates the report.
func (im *Import) RebuildRow(n int) ([]schema.Problem, error) {
	res := im.result
	if res == nil {
		return nil, fmt.Errorf("build the import before rebuilding rows")
	}
	ri := im.Table.RowIndex(n)
	if ri < 0 {
		return nil, fmt.Errorf("the sheet has no row %d", n)
	}
	r := &im.Table.Rows[ri]
	i, ok := res.byRow[n]
	if !ok {
		// A new element, in file order.
		i = len(res.Elements)
		for j, e := range res.Elements {
			if e.Row > n {
				i = j
				break
			}
		}
		res.Elements = append(res.Elements[:i], append([]Element{{Row: n}}, res.Elements[i:]...)...)
		res.problems = append(res.problems[:i], append([][]schema.Problem{nil}, res.problems[i:]...)...)
		for j := i; j < len(res.Elements); j++ {
			res.byRow[res.Elements[j].Row] = j
			for k := range res.problems[j] {
				res.problems[j][k].Element = j
			}
		}
		res.fileProblems = dropProblems(res.fileProblems, func(p schema.Problem) bool {
			return (p.Row == n && p.Code == "left-out-row") || p.Code == "empty" || p.Code == "too-many-elements"
		})
		res.fileProblems = append(res.fileProblems, im.requestProblems(len(res.Elements))...)
	}
	value, problems := im.buildRow(i, r)
	res.Elements[i].Value = value
	res.problems[i] = problems
	res.assemble()
	return problems, nil
}

func (im *Import) insertRow(n int) {
	t := im.Table
	i := 0
	for i < len(t.Rows) && t.Rows[i].Number < n {
		i++
	}
	t.Rows = append(t.Rows[:i], append([]Row{{Number: n}}, t.Rows[i:]...)...)
}

// dropProblems removes the problems drop says.
func dropProblems(ps []schema.Problem, drop func(schema.Problem) bool) []schema.Problem {
	out := ps[:0]
	for _, p := range ps {
		if !drop(p) {
			out = append(out, p)
		}
	}
	return out
}

// rowHasMappedValues reports whether a row fills at least one field.
func (im *Import) rowHasMappedValues(r *Row) bool {
	for _, col := range im.cols {
		c := r.Cell(col.index)
		if !c.Empty() || c.Flags&(NoCachedValue|MergedPart) != 0 || c.Kind == ErrorValue {
			return true
		}
	}
	return false
}

// leftOutRow reports a row with values only in columns that are not
// imported: it is not an element, and the operator is told so.
func (im *Import) leftOutRow(r *Row) (schema.Problem, bool) {
	for col, c := range r.Cells {
		if !c.Empty() {
			return schema.Problem{
				Element: schema.RequestLevel, Code: "left-out-row", Severity: schema.Warning,
				Sheet: im.Table.Sheet, Row: r.Number, Column: im.Table.ColumnName(col),
				Message: fmt.Sprintf("row %d has values only in columns that are not imported (such as %s%d: %q); it is left out", r.Number, im.Table.ColumnName(col), r.Number, truncate(c.Value, 40)),
			}, true
		}
	}
	return schema.Problem{}, false
}

// buildRow builds element i from row r and returns it with its problems:
// those of reading its cells, then those of validating it, located.
func (im *Import) buildRow(i int, r *Row) (map[string]any, []schema.Problem) {
	elem := im.newElement()
	var problems []schema.Problem
	failed := make(map[string]bool)
	for _, col := range im.cols {
		c := r.Cell(col.index)
		v, p := im.coerce(c, col, r)
		if p != nil {
			ptr := col.target.Pointer()
			failed[ptr] = true
			problems = append(problems, schema.Problem{
				Element: i, Pointer: ptr, Field: col.target.Path, Code: p.code, Severity: p.severity,
				Message: col.target.Path + ": " + p.msg, Value: truncate(c.Value, 60),
			})
			continue
		}
		if v != nil {
			setValue(elem, col.target.tokens, v)
		}
	}
	if im.hasLists {
		settle(elem)
	}
	if r.Hidden {
		problems = append(problems, schema.Problem{Element: i, Code: "hidden-row", Severity: schema.Warning,
			Message: fmt.Sprintf("row %d is hidden in the spreadsheet; it is imported like the others", r.Number)})
	}
	for _, p := range im.v.ValidateElement(im.Kind, i, elem) {
		if failed[p.Pointer] {
			continue // the cell's own problem says more
		}
		problems = append(problems, p)
	}
	for k := range problems {
		im.locate(&problems[k], r.Number)
	}
	// In the order schema.Report.Sort gives: by pointer, errors first.
	slices.SortStableFunc(problems, func(a, b schema.Problem) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(string(a.Severity), string(b.Severity)))
	})
	return elem, problems
}

// newElement returns an empty element with the parts its kind sends.
func (im *Import) newElement() map[string]any {
	elem := make(map[string]any, 2)
	if im.Kind.PathParam != "" {
		elem["pathParams"] = make(map[string]any, 1)
	}
	for _, f := range im.cat.fields {
		if !strings.HasPrefix(f.Path, "pathParams.") {
			elem["requestBody"] = make(map[string]any, 8)
			break
		}
	}
	return elem
}

// setValue puts v at the location toks inside elem, creating the objects
// and lists on the way. List items not given are null.
func setValue(elem map[string]any, toks []string, v any) {
	var cur any = elem
	for k, tok := range toks {
		last := k == len(toks)-1
		var next any
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[tok] = v
				return
			}
			next = c[tok]
			if next == nil {
				next = newContainer(isIndex(toks[k+1]))
				c[tok] = next
			}
		case buildList:
			n, _ := strconv.Atoi(tok)
			if last {
				c[n] = v
				return
			}
			next = c[n]
			if next == nil {
				next = newContainer(isIndex(toks[k+1]))
				c[n] = next
			}
		default:
			return // SetMapping refuses overlapping targets, so this is unreachable
		}
		cur = next
	}
}

// A buildList is a list being filled, item by position; settle turns it
// into a []any.
type buildList map[int]any

func newContainer(list bool) any {
	if list {
		return buildList{}
	}
	return make(map[string]any, 4)
}

func isIndex(tok string) bool {
	_, err := strconv.Atoi(tok)
	return err == nil
}

// settle replaces the buildLists inside v by plain lists.
func settle(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			x[k] = settle(c)
		}
		return x
	case buildList:
		n := 0
		for i := range x {
			n = max(n, i+1)
		}
		out := make([]any, n)
		for i, c := range x {
			out[i] = settle(c)
		}
		return out
	}
	return v
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
