package ingest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/schema"
)

// An Element is one operation of the bulk, built from one row.
type Element struct {
	// Row is the number of the row it was built from.
	Row int
}

// A Result is the outcome of a build: the elements in file order and one
// report of every problem, coercion and validation alike, each located at
// its sheet, row and column.
//
// A Result holds row numbers and problems, not the element values: those
// are built again from the table when asked for ([Result.Value],
// [Result.Request]), which keeps an import of 10,000 rows in a few
// megabytes. They are built with the mapping and settings of the build,
// from the table as it is now (with the operator's edits).
type Result struct {
	Elements []Element
	Report   *schema.Report

	p *reader
	// fileProblems are about the file, the mapping or the request as a
	// whole; problems are the elements', element after element: one list
	// rather than one per element, as most elements have none.
	fileProblems []schema.Problem
	problems     []schema.Problem
	// checks keep what the plausibility checks need of each element;
	// limits are the operator's amount limits.
	checks *checks
	limits AmountLimits
}

// Value builds element i as it is sent: map[string]any with "pathParams"
// and "requestBody", numbers as json.Number.
func (r *Result) Value(i int) map[string]any {
	row := r.p.Table.RowIndex(r.Elements[i].Row)
	if row < 0 {
		return r.p.newElement(nil)
	}
	v, _ := r.p.buildRow(&r.p.Table.Rows[row], nil)
	return v
}

// Request builds every element in file order: the request body.
func (r *Result) Request() []any {
	out := make([]any, len(r.Elements))
	for i := range r.Elements {
		out[i] = r.Value(i)
	}
	return out
}

// ElementOfRow returns the index of the element built from row n.
func (r *Result) ElementOfRow(n int) (int, bool) {
	return slices.BinarySearchFunc(r.Elements, n, func(e Element, n int) int { return cmp.Compare(e.Row, n) })
}

// Problems returns the problems of element i.
func (r *Result) Problems(i int) []schema.Problem {
	lo, hi := r.problemRange(i)
	if lo == hi {
		return nil
	}
	return r.problems[lo:hi:hi]
}

// problemRange returns where element i's problems are in r.problems.
func (r *Result) problemRange(i int) (lo, hi int) {
	lo = sort.Search(len(r.problems), func(k int) bool { return r.problems[k].Element >= i })
	hi = lo + sort.Search(len(r.problems)-lo, func(k int) bool { return r.problems[lo+k].Element > i })
	return lo, hi
}

// Result returns the last build's result, or nil before the first build.
func (im *Import) Result() *Result { return im.result }

// Build builds and validates an element from every data row. progress,
// if not nil, is called every 500 rows with the count of rows done and
// the count of data rows; it may sleep to let a browser page repaint.
func (im *Import) Build(progress Progress) *Result {
	res, _ := im.BuildContext(context.Background(), progress)
	return res
}

// BuildContext is Build for callers that let the operator cancel: it
// stops with ctx's error as soon as ctx is done, and the last complete
// build stays the Import's Result.
func (im *Import) BuildContext(ctx context.Context, progress Progress) (*Result, error) {
	p := im.p
	first := p.firstDataRow()
	rows := len(p.Table.Rows) - first
	res := &Result{p: p, Elements: make([]Element, 0, rows), checks: p.newChecks(rows), limits: im.limits}
	res.fileProblems = p.fileProblems()
	examples := p.exampleValues()
	totals := p.totalRowsFrom() - first
	var found problemChunks
	for n := range rows {
		if n%progressEvery == 0 && n > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(n, rows)
			}
		}
		r := &p.Table.Rows[first+n]
		if n == 0 && examples != nil && isExampleRow(r, examples) {
			res.fileProblems = append(res.fileProblems, schema.Problem{
				Element: schema.RequestLevel, Code: "example-row", Severity: schema.Warning, Sheet: p.Table.Sheet, Row: r.Number,
				Message: p.v.Language().F("row %d is the template's example row, unchanged; it is left out", r.Number)})
			continue
		}
		if n >= totals {
			continue // a total under the data: Import.Reading says it
		}
		if !p.rowHasMappedValues(r) {
			if lp, ok := p.leftOutRow(r); ok {
				res.fileProblems = append(res.fileProblems, lp)
			}
			continue
		}
		i := len(res.Elements)
		res.Elements = append(res.Elements, Element{Row: r.Number})
		ps, vals := p.check(i, r)
		found.add(ps)
		res.checks.record(i, vals)
	}
	res.problems = found.join()
	res.problems = mergeByElement(res.problems, res.locatedChecks())
	res.fileProblems = append(res.fileProblems, p.requestProblems(len(res.Elements))...)
	res.fileProblems = append(res.fileProblems, res.totalWarnings()...)
	res.Report = &schema.Report{Kind: im.Kind.ID}
	res.assemble()
	if progress != nil {
		progress(rows, rows)
	}
	im.result = res
	return res, nil
}

// problemChunks collects the problems of a build in chunks that are
// filled, never grown: a file with a problem in every row would otherwise
// copy one growing list again and again.
type problemChunks struct {
	full [][]schema.Problem
	last []schema.Problem
	n    int
}

const maxProblemChunk = 1024

func (c *problemChunks) add(ps []schema.Problem) {
	for len(ps) > 0 {
		if len(c.last) == cap(c.last) {
			if c.last != nil {
				c.full = append(c.full, c.last)
			}
			c.last = make([]schema.Problem, 0, min(max(2*cap(c.last), 16), maxProblemChunk))
		}
		k := min(len(ps), cap(c.last)-len(c.last))
		c.last = append(c.last, ps[:k]...)
		ps = ps[k:]
		c.n += k
	}
}

// join returns every problem collected, in one list of its exact size.
func (c *problemChunks) join() []schema.Problem {
	if c.n == 0 {
		return nil
	}
	out := make([]schema.Problem, 0, c.n)
	for _, chunk := range c.full {
		out = append(out, chunk...)
	}
	return append(out, c.last...)
}

// assemble rebuilds the report from its parts.
func (r *Result) assemble() {
	all := make([]schema.Problem, 0, len(r.fileProblems)+len(r.problems))
	all = append(all, r.fileProblems...)
	all = append(all, r.problems...)
	r.Report.Elements = len(r.Elements)
	r.Report.Problems = all
}

// EditCell changes one cell, as the operator corrects it, then rebuilds
// and validates the element of that row only and updates the last
// build's report, its plausibility warnings compared anew with the whole
// file. It returns the element's new problems. A row without an
// element (it was empty) gets one; an element whose row becomes empty
// stays, with its problems. Leading-zero profiles and detected settings
// are not recomputed.
func (im *Import) EditCell(row, col int, text string) ([]schema.Problem, error) {
	res := im.result
	if res == nil {
		return nil, fmt.Errorf("build the import before editing cells")
	}
	if row <= res.p.mapping.HeaderRow {
		return nil, fmt.Errorf("row %d is not a data row: the header is row %d", row, res.p.mapping.HeaderRow)
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
// cells changed, and updates the last build's report.
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
	i, ok := res.ElementOfRow(n)
	if !ok {
		// A new element, in file order: i is where it goes.
		res.Elements = slices.Insert(res.Elements, i, Element{Row: n})
		res.checks.insert(i)
		lo, _ := res.problemRange(i)
		for k := lo; k < len(res.problems); k++ {
			res.problems[k].Element++
		}
		res.fileProblems = dropProblems(res.fileProblems, func(p schema.Problem) bool {
			return (p.Row == n && (p.Code == "left-out-row" || p.Code == "example-row" || p.Code == TotalDiffersCode)) || p.Code == "empty" || p.Code == schema.TooManyElements
		})
		res.fileProblems = append(res.fileProblems, res.p.requestProblems(len(res.Elements))...)
	}
	ps, vals := res.p.check(i, r)
	res.checks.record(i, vals)
	lo, hi := res.problemRange(i)
	res.problems = slices.Replace(res.problems, lo, hi, ps...)
	// The plausibility checks compare an element with the whole file: a
	// corrected amount moves its currency's median, and a corrected id
	// changes which length is the common one, so the warnings of every
	// element are computed again, from the checks' compact record of the
	// file rather than from its rows.
	res.replaceChecks()
	// A copy: later edits rework the report's list in place.
	return slices.Clone(res.Problems(i)), nil
}

func (im *Import) insertRow(n int) {
	t := im.Table
	i := 0
	for i < len(t.Rows) && t.Rows[i].Number < n {
		i++
	}
	t.Rows = slices.Insert(t.Rows, i, Row{Number: n})
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

// rowHasMappedValues reports whether a row fills at least one field
// from its own cells: a value set for every row, in no cell of the row
// (its column's index is -1), makes no row an element.
func (rd *reader) rowHasMappedValues(r *Row) bool {
	for _, col := range rd.cols {
		c := r.Cell(col.index)
		if !c.Empty() || c.Flags&(NoCachedValue|MergedPart) != 0 || c.Kind == ErrorValue {
			return true
		}
	}
	return false
}

// leftOutRow reports a row with values only in columns that are not
// imported: it is not an element, and the operator is told so.
func (rd *reader) leftOutRow(r *Row) (schema.Problem, bool) {
	for col, c := range r.Cells {
		if !c.Empty() {
			return schema.Problem{
				Element: schema.RequestLevel, Code: "left-out-row", Severity: schema.Warning,
				Sheet: rd.Table.Sheet, Row: r.Number, Column: rd.Table.ColumnName(col),
				Message: rd.v.Language().F("row %d has values only in columns that are not imported (such as %s%d: %q); it is left out", r.Number, rd.Table.ColumnName(col), r.Number, truncate(c.Value, 40)),
			}, true
		}
	}
	return schema.Problem{}, false
}

// buildRow builds the element of row r, with the problems of reading its
// cells (element index and place not yet filled in). With a scratch, the
// element is made of its reused containers and is valid only until the
// next row is built.
func (rd *reader) buildRow(r *Row, s *scratch) (map[string]any, []schema.Problem) {
	elem := rd.newElement(s)
	var problems []schema.Problem
	if s != nil && len(s.vals) != len(rd.cols) {
		s.vals = make([]any, len(rd.cols))
	}
	for ci := range rd.cols {
		col := &rd.cols[ci]
		c := col.cell(r)
		v, p := rd.coerce(c, col, r)
		if s != nil {
			s.vals[ci] = v
		}
		if p != nil {
			msg := rd.v.Language().F("%s: %s", rd.cellSubject(col), p.message(rd.v.Language()))
			if col.set {
				msg = setValueMessage(rd.v.Language(), msg)
			}
			problems = append(problems, schema.Problem{
				Pointer: col.target.Pointer(), Field: col.target.Path, Code: p.code, Severity: p.severity,
				Message: msg, Value: truncate(c.Value, 60),
			})
			continue
		}
		if v != nil {
			setValue(elem, &col.target, v, s)
		}
	}
	if rd.hasLists {
		settle(elem)
	}
	return elem, problems
}

// check builds element i from row r, validates it and returns its
// problems, located: those of reading its cells, then those of the
// contract, in the order schema.Report.Sort gives; and the value read from
// each column, valid until the next check.
func (rd *reader) check(i int, r *Row) ([]schema.Problem, []any) {
	// The element is validated and dropped: its maps are reused for the
	// next row, so checking 10,000 rows leaves no garbage of elements.
	elem, problems := rd.buildRow(r, rd.scratch)
	cellProblems := len(problems)
	if r.Hidden {
		problems = append(problems, schema.Problem{Code: "hidden-row", Severity: schema.Warning,
			Message: rd.v.Language().F("row %d is hidden in the spreadsheet; it is imported like the others", r.Number)})
	}
	for _, p := range rd.v.ValidateElement(rd.Kind, i, elem) {
		if slices.ContainsFunc(problems[:cellProblems], func(q schema.Problem) bool { return q.Pointer == p.Pointer }) {
			continue // the cell's own problem says more
		}
		if rd.hasSet && rd.isSetValue(p.Pointer) {
			p.Message = setValueMessage(rd.v.Language(), p.Message)
		}
		problems = append(problems, p)
	}
	for k := range problems {
		problems[k].Element = i
		rd.locate(&problems[k], r.Number)
	}
	slices.SortStableFunc(problems, func(a, b schema.Problem) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(string(a.Severity), string(b.Severity)))
	})
	return problems, rd.scratch.vals
}

// newElement returns an empty element with the parts its kind sends,
// made of the scratch's containers when there is one.
func (rd *reader) newElement(s *scratch) map[string]any {
	var elem map[string]any
	if s != nil {
		s.reset()
		elem = s.root
	} else {
		elem = make(map[string]any, 2)
	}
	if rd.Kind.PathParam != "" {
		elem["pathParams"] = s.container("pathParams", false)
	}
	for _, f := range rd.cat.fields {
		if !strings.HasPrefix(f.Path, "pathParams.") {
			elem["requestBody"] = s.container("requestBody", false)
			break
		}
	}
	return elem
}

// A scratch holds the containers of the element being checked, reused
// from row to row.
type scratch struct {
	root  map[string]any
	parts map[string]any // container key (target.keys) → map or buildList
	// vals holds the value read from each column of the reader (nil for
	// none, or a cell with a problem), for the plausibility checks.
	vals []any
}

func newScratch() *scratch {
	return &scratch{root: make(map[string]any, 2), parts: make(map[string]any)}
}

func (s *scratch) reset() {
	clear(s.root)
	for _, c := range s.parts {
		switch x := c.(type) {
		case map[string]any:
			clear(x)
		case buildList:
			clear(x)
		}
	}
}

// container returns the container named key, empty; a nil scratch makes
// a new one.
func (s *scratch) container(key string, list bool) any {
	if s == nil {
		return newContainer(list)
	}
	if c, ok := s.parts[key]; ok {
		return c
	}
	c := newContainer(list)
	s.parts[key] = c
	return c
}

// setValue puts v at the target's location inside elem, creating the
// objects and lists on the way. List items not given are null.
func setValue(elem map[string]any, t *target, v any, s *scratch) {
	toks := t.tokens
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
				next = s.container(t.keys[k], isIndex(toks[k+1]))
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
				next = s.container(t.keys[k], isIndex(toks[k+1]))
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

func isIndex(tok string) bool { return allDigits(tok) }

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
