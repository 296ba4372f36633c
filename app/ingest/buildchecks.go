package ingest

import (
	"slices"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// checks are what the plausibility checks of a build keep of each
// element: its amounts and the lengths of its ids, compactly, so that an
// edit computes the warnings of the whole file again without building
// every element.
type checks struct {
	amounts []amountColumn
	ids     []idColumn
}

// noAmount marks an element whose amount is missing or not valid.
const noAmount = -1 << 63

type amountColumn struct {
	col        *column
	field, ptr string
	// pos and curPos are the positions in the reader's columns of the
	// amount and of its currency (-1 when no column gives it: then it is
	// fixedCur, the import's currency).
	pos, curPos  int
	fixedCur     string
	minor        []int64  // per element; noAmount when none
	cur          []uint16 // per element: index into curs
	curs         []string // curs[0] is ""
	curIndex     map[string]uint16
	lastCurValue string
	lastCurIndex uint16
}

type idColumn struct {
	col        *column
	pos        int
	field, ptr string
	// lens holds each element's id length; 0 when it has none, capped at
	// 255.
	lens []uint8
}

// newChecks prepares the checks of the reader's columns for n elements.
func (rd *reader) newChecks(n int) *checks {
	c := &checks{}
	for i := range rd.cols {
		col := &rd.cols[i]
		switch {
		case isAmount(col.target.Field):
			ac := amountColumn{col: col, pos: i, curPos: -1, field: col.target.Path, ptr: col.target.Pointer(),
				minor: make([]int64, 0, n), cur: make([]uint16, 0, n), curs: []string{""}, curIndex: map[string]uint16{"": 0}}
			ac.curPos = col.currencyPos
			if ac.curPos < 0 {
				ac.fixedCur = rd.settings.Currency
			}
			c.amounts = append(c.amounts, ac)
		case isIDField(col.target.Field) && !col.target.DateParts:
			c.ids = append(c.ids, idColumn{col: col, pos: i, field: col.target.Path, ptr: col.target.Pointer(), lens: make([]uint8, 0, n)})
		}
	}
	return c
}

// record keeps what the checks need of element i, whose columns read as
// vals (by position in the reader's columns); i is either the next element
// or one already recorded.
func (c *checks) record(i int, vals []any) {
	for k := range c.amounts {
		a := &c.amounts[k]
		m, cur := int64(noAmount), uint16(0)
		if n, ok := wholeNumber(vals[a.pos]); ok {
			m = n
			code := a.fixedCur
			if a.curPos >= 0 {
				code, _ = vals[a.curPos].(string)
			}
			cur = a.intern(code)
		}
		if i == len(a.minor) {
			a.minor = append(a.minor, m)
			a.cur = append(a.cur, cur)
		} else {
			a.minor[i], a.cur[i] = m, cur
		}
	}
	for k := range c.ids {
		d := &c.ids[k]
		// Only ids the contract accepts count: one with other characters
		// is an error already.
		s, _ := vals[d.pos].(string)
		l := uint8(0)
		if allDigits(s) {
			l = uint8(min(len(s), 255))
		}
		if i == len(d.lens) {
			d.lens = append(d.lens, l)
		} else {
			d.lens[i] = l
		}
	}
}

// insert makes room for a new element at i.
func (c *checks) insert(i int) {
	for k := range c.amounts {
		a := &c.amounts[k]
		a.minor = slices.Insert(a.minor, i, noAmount)
		a.cur = slices.Insert(a.cur, i, 0)
	}
	for k := range c.ids {
		c.ids[k].lens = slices.Insert(c.ids[k].lens, i, 0)
	}
}

// intern returns the index of a currency code, shared by the elements
// that have it; a column of more than 65,535 different codes, all of
// them invalid but the first, keeps the rest as "".
func (a *amountColumn) intern(code string) uint16 {
	if code == a.lastCurValue {
		return a.lastCurIndex
	}
	i, ok := a.curIndex[code]
	if !ok {
		if len(a.curs) > 0xffff {
			return 0
		}
		i = uint16(len(a.curs))
		a.curs = append(a.curs, code)
		a.curIndex[code] = i
	}
	a.lastCurValue, a.lastCurIndex = code, i
	return i
}

// warnings returns the plausibility warnings of the elements recorded,
// in element order, not yet located.
func (c *checks) warnings(w lang.Tag, limits AmountLimits, t *Table, rowOf func(i int) int) []schema.Problem {
	var out []schema.Problem
	for k := range c.amounts {
		a := &c.amounts[k]
		out = append(out, amountWarnings(w, a.field, a.ptr, len(a.minor), a.curs, func(i int) (int, int, int64) {
			if a.minor[i] == noAmount {
				return i, 0, 0
			}
			return i, int(a.cur[i]), a.minor[i]
		}, limits)...)
	}
	for k := range c.ids {
		if p, ok := c.ids[k].warning(w, t, rowOf); ok {
			out = append(out, p)
		}
	}
	if len(c.amounts)+len(c.ids) > 1 {
		slices.SortStableFunc(out, func(a, b schema.Problem) int { return a.Element - b.Element })
	}
	return out
}

// locatedChecks returns the plausibility warnings of the elements, at
// their cells.
func (r *Result) locatedChecks() []schema.Problem {
	ws := r.checks.warnings(r.p.v.Language(), r.limits, r.p.Table, func(i int) int { return r.Elements[i].Row })
	for k := range ws {
		r.p.locate(&ws[k], r.Elements[ws[k].Element].Row)
	}
	return ws
}

// replaceChecks computes the plausibility warnings again and puts them in
// place of the old ones.
func (r *Result) replaceChecks() {
	if r.checks == nil {
		return
	}
	r.problems = dropProblems(r.problems, func(p schema.Problem) bool { return isPlausibilityCode(p.Code) })
	r.problems = mergeByElement(r.problems, r.locatedChecks())
	// The file's own total is compared with the amounts as they are now.
	r.fileProblems = dropProblems(r.fileProblems, func(p schema.Problem) bool { return p.Code == TotalDiffersCode })
	r.fileProblems = append(r.fileProblems, r.totalWarnings()...)
	r.assemble()
}

// mergeByElement merges two lists of problems ordered by element; at one
// element, a's come first.
func mergeByElement(a, b []schema.Problem) []schema.Problem {
	if len(b) == 0 {
		return a
	}
	out := make([]schema.Problem, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if b[j].Element < a[i].Element {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
