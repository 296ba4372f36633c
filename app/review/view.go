package review

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/schema"
)

// A Row is one element as the review table shows it.
type Row struct {
	Element int
	// Label says where it came from: the file's row number, or "#3" for
	// an element of a request body.
	Label string
	// Cells hold the values as the file shows them, one per column.
	Cells []string
	// Marks are the cells with problems, in column order.
	Marks []Mark
	// Problems are the messages of the problems no column holds.
	Problems []string
	// Severity is the worst problem's: schema.Error, schema.Warning or "".
	Severity schema.Severity
	// Numbers are the columns whose cell is a spreadsheet's number, in
	// Cells as stored (1234.56), which a table in the operator's
	// language writes as the language writes numbers.
	Numbers []int
}

// A Mark is a cell with problems.
type Mark struct {
	Column   int
	Severity schema.Severity
	Messages []string
}

// ViewLen returns how many rows a view has: every element, or with
// errorsOnly those with errors.
func (d *Document) ViewLen(errorsOnly bool) int {
	if errorsOnly {
		return len(d.invalid)
	}
	return d.src.count()
}

// ViewElement returns the element at position pos of a view.
func (d *Document) ViewElement(pos int, errorsOnly bool) int {
	if errorsOnly {
		return d.invalid[pos]
	}
	return pos
}

// Position returns element i's place in a view, or -1 when the view
// leaves it out.
func (d *Document) Position(i int, errorsOnly bool) int {
	if !errorsOnly {
		if i < 0 || i >= d.src.count() {
			return -1
		}
		return i
	}
	k := sort.SearchInts(d.invalid, i)
	if k < len(d.invalid) && d.invalid[k] == i {
		return k
	}
	return -1
}

// Rows returns the rows at positions [offset, offset+limit) of a view.
func (d *Document) Rows(offset, limit int, errorsOnly bool) []Row {
	n := d.ViewLen(errorsOnly)
	offset = max(0, min(offset, n))
	end := min(n, offset+max(0, limit))
	out := make([]Row, 0, end-offset)
	for pos := offset; pos < end; pos++ {
		out = append(out, d.Row(d.ViewElement(pos, errorsOnly)))
	}
	return out
}

// Row returns element i as the review table shows it.
func (d *Document) Row(i int) Row {
	r := Row{Element: i, Cells: make([]string, len(d.cols))}
	if d.src.tabular() {
		_, row := d.src.origin(i)
		r.Label = strconv.Itoa(row)
	} else {
		r.Label = "#" + strconv.Itoa(i)
	}
	numbers, _ := d.src.(numberSource)
	for c, col := range d.cols {
		r.Cells[c] = d.src.cell(i, col)
		if numbers != nil && numbers.number(i, col) {
			r.Numbers = append(r.Numbers, c)
		}
	}
	marks := make(map[int]*Mark)
	for _, p := range d.Problems(i) {
		if p.Severity == schema.Error || r.Severity == "" {
			r.Severity = p.Severity
		}
		c := d.columnOf(p)
		if c < 0 {
			r.Problems = append(r.Problems, p.Message)
			continue
		}
		m := marks[c]
		if m == nil {
			m = &Mark{Column: c, Severity: p.Severity}
			marks[c] = m
		}
		if p.Severity == schema.Error {
			m.Severity = schema.Error
		}
		m.Messages = append(m.Messages, p.Message)
	}
	for c := range d.cols {
		if m := marks[c]; m != nil {
			r.Marks = append(r.Marks, *m)
		}
	}
	return r
}

// columnOf returns the column of the review table a problem belongs to,
// or -1.
func (d *Document) columnOf(p schema.Problem) int {
	if d.src.tabular() {
		if c, ok := d.byLetter[p.Column]; ok && p.Column != "" {
			return c
		}
		// A value set for every row has no cell in the file: its
		// problems name its field only.
		if c, ok := d.bySet[p.Field]; ok && p.Column == "" && p.Element >= 0 {
			return c
		}
		return -1
	}
	for f := p.Field; f != ""; f = parentPath(f) {
		if c, ok := d.byField[f]; ok {
			return c
		}
	}
	return -1
}

// A Found is where the next problem is.
type Found struct {
	Element int
	// Column is the column of its first marked cell, or -1.
	Column int
	// Position is the element's place in the view searched.
	Position int
	Problem  schema.Problem
	// Wrapped says the search passed the end and went on from the start.
	Wrapped bool
}

// A Place is a cell of the review table, as problem navigation starts
// from it: an element and a column, -1 for the element's row as a whole
// (its problems without a cell, which come after its cells).
type Place struct {
	Element, Column int
}

// NextProblem finds the next problem after place from (before it, with
// back) — an error, with errorsOnly — in row order: the element's other
// marked cells left to right, then its problems without a cell, then the
// next element's, going round the end. from.Element may be -1 (or the
// element count, with back) to start at an end; its cells are then all
// ahead. Each marked cell is one stop, however many problems it has.
func (d *Document) NextProblem(from Place, back, errorsOnly bool) (Found, bool) {
	return d.NextShownProblem(nil, from, back, errorsOnly)
}

// NextShownProblem is NextProblem in a table that shows the columns in
// the order shown (indexes of columns, as worker.ShownOrder gives them):
// a row's marked cells are visited left to right as they are shown. A
// column shown lists none of comes after those it lists.
func (d *Document) NextShownProblem(shown []int, from Place, back, errorsOnly bool) (Found, bool) {
	n := d.src.count()
	if n == 0 {
		return Found{}, false
	}
	place := make([]int, len(d.cols))
	for c := range place {
		place[c] = len(shown) + c
	}
	for at, c := range shown {
		if c >= 0 && c < len(place) {
			place[c] = at
		}
	}
	// order ranks a column in the row: the cells as shown, then the row
	// itself (-1). A place before every cell (-2) or past the row (a
	// column beyond the last) ranks as it is.
	rowRank := len(shown) + len(d.cols)
	order := func(col int) int {
		switch {
		case col == -1:
			return rowRank
		case col >= 0 && col < len(place):
			return place[col]
		}
		return col
	}
	// stop returns the problem of element i nearest past rank (beyond it
	// going forward, before it going back), if any.
	stop := func(i, rank int) (schema.Problem, int, bool) {
		var best schema.Problem
		bestRank, found := 0, false
		for _, p := range d.Problems(i) {
			if errorsOnly && p.Severity != schema.Error {
				continue
			}
			r := order(d.columnOf(p))
			if (!back && r <= rank) || (back && r >= rank) {
				continue
			}
			if !found || (!back && r < bestRank) || (back && r > bestRank) {
				best, bestRank, found = p, r, true
			}
		}
		return best, bestRank, found
	}
	found := func(i int, p schema.Problem, wrapped bool) Found {
		return Found{Element: i, Column: d.columnOf(p), Position: d.Position(i, errorsOnly), Problem: p, Wrapped: wrapped}
	}
	if from.Element >= 0 && from.Element < n {
		if p, _, ok := stop(from.Element, order(from.Column)); ok {
			return found(from.Element, p, false), true
		}
	}
	step, start := 1, -1
	if back {
		step, start = -1, rowRank+1
	}
	i := from.Element
	wrapped := false
	for k := 0; k <= n; k++ {
		i += step
		if i >= n || i < 0 {
			i = (i%n + n) % n
			wrapped = true
		}
		if p, _, ok := stop(i, start); ok {
			return found(i, p, wrapped), true
		}
	}
	return Found{}, false
}

// Replace replaces find with with in the cells of column col, in every
// element, and validates the elements it changed. It returns how many
// cells changed. With wholeCell only cells whose whole value is find
// change; matchCase compares letters exactly.
func (d *Document) Replace(col int, find, with string, matchCase, wholeCell bool) (int, error) {
	c, err := d.ReplaceCells(col, find, with, matchCase, wholeCell)
	return c.Len(), err
}

// ReplaceCells is Replace, returning what it overwrote (see Undo).
func (d *Document) ReplaceCells(col int, find, with string, matchCase, wholeCell bool) (Change, error) {
	if col < 0 || col >= len(d.cols) {
		return Change{}, fmt.Errorf("there is no column %d", col)
	}
	if find == "" && !wholeCell {
		return Change{}, fmt.Errorf("say what to find")
	}
	c := d.cols[col]
	if c.Set {
		return Change{}, ErrSetForEveryRow
	}
	var edits []cellEdit
	for i := range d.src.count() {
		old := d.src.cell(i, c)
		if nv, ok := replaced(old, find, with, matchCase, wholeCell); ok && nv != old {
			edits = append(edits, cellEdit{element: i, column: c, text: nv})
		}
	}
	return d.change(edits)
}

// replaced applies one replacement to a cell's text.
func replaced(old, find, with string, matchCase, wholeCell bool) (string, bool) {
	if wholeCell {
		if old == find || !matchCase && strings.EqualFold(old, find) {
			return with, true
		}
		return old, false
	}
	if matchCase {
		return strings.ReplaceAll(old, find, with), strings.Contains(old, find)
	}
	lower, lf := strings.ToLower(old), strings.ToLower(find)
	if len(lower) != len(old) || len(lf) != len(find) {
		// Letters whose lower case has another length would shift the
		// indexes: compare rune by rune instead.
		return replaceFold(old, find, with)
	}
	if !strings.Contains(lower, lf) {
		return old, false
	}
	var b strings.Builder
	for {
		k := strings.Index(lower, lf)
		if k < 0 {
			b.WriteString(old)
			return b.String(), true
		}
		b.WriteString(old[:k] + with)
		old, lower = old[k+len(find):], lower[k+len(lf):]
	}
}

// replaceFold replaces find in s ignoring case, for any text.
func replaceFold(s, find, with string) (string, bool) {
	var b strings.Builder
	done := false
	rs, fr := []rune(s), []rune(find)
	for i := 0; i < len(rs); {
		if i+len(fr) <= len(rs) && strings.EqualFold(string(rs[i:i+len(fr)]), find) {
			b.WriteString(with)
			i += len(fr)
			done = true
			continue
		}
		b.WriteRune(rs[i])
		i++
	}
	return b.String(), done
}
