package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// bulkElements are the elements of a reviewed bulk as the page holds them
// for the checker's grid: what the review sent (wire.ReviewElements),
// and what the checks after it found of each element: the bulks that
// hold it too, and how it differs from the maker's receipt. The grid
// shows a view of them (elementView), searched and filtered here, in the
// page: 10,000 elements are looked through in a few milliseconds.
type bulkElements struct {
	els *wire.ReviewElements
	// problems, repeats and differs are by element index.
	problems map[int]wire.ElementProblems
	repeats  map[int]wire.ElementRepeat
	differs  map[int]wire.Difference
	// minor is each element's amount in minor units, when hasAmount;
	// an amount beyond int64 counts as the largest.
	minor     []int64
	hasAmount []bool
	// text is what a search looks through: who receives (ids, names,
	// accounts) and the reference, in lower case; written for the first
	// search, not on the way to the grid.
	text []string
	// currencies are the codes the elements' amounts are in, sorted.
	currencies []string
}

func newBulkElements(els *wire.ReviewElements) *bulkElements {
	n := els.Count
	b := &bulkElements{els: els, problems: make(map[int]wire.ElementProblems, len(els.Problems)),
		minor: make([]int64, n), hasAmount: make([]bool, n)}
	for _, p := range els.Problems {
		b.problems[p.Element] = p
	}
	seen := make(map[string]bool)
	for i := range n {
		if digits := at(els.Amount, i); digits != "" {
			v, err := strconv.ParseInt(digits, 10, 64)
			if err != nil {
				v = math.MaxInt64
			}
			b.minor[i], b.hasAmount[i] = v, true
			if cur := at(els.Currency, i); !seen[cur] {
				seen[cur] = true
				b.currencies = append(b.currencies, cur)
			}
		}
	}
	slices.Sort(b.currencies)
	return b
}

// at returns a column's value of element i.
func at(col []string, i int) string {
	if i < len(col) {
		return col[i]
	}
	return ""
}

// searched returns what a search looks through, writing it the first
// time.
func (b *bulkElements) searched() []string {
	if b.text != nil {
		return b.text
	}
	els := b.els
	b.text = make([]string, b.len())
	var sb strings.Builder
	for i := range b.text {
		sb.Reset()
		for _, col := range [][]string{els.ID, els.Name, els.Email, els.IBAN, els.AccountNumber, els.Account, els.Reference} {
			if v := at(col, i); v != "" {
				sb.WriteString(v)
				sb.WriteByte('\n')
			}
		}
		b.text[i] = strings.ToLower(sb.String())
	}
	return b.text
}

// len is how many elements there are.
func (b *bulkElements) len() int { return b.els.Count }

// setRepeats takes the elements other bulks hold.
func (b *bulkElements) setRepeats(rs []wire.ElementRepeat) {
	b.repeats = make(map[int]wire.ElementRepeat, len(rs))
	for _, r := range rs {
		b.repeats[r.Element] = r
	}
}

// setDifferences takes the differences from a receipt that name an
// element of the bulk.
func (b *bulkElements) setDifferences(ds []wire.Difference) {
	b.differs = make(map[int]wire.Difference)
	for _, d := range ds {
		if d.Index != nil && d.What != differenceMissing {
			b.differs[*d.Index] = d
		}
	}
}

// differenceMissing is bulkreview.DiffMissing: a receipt's element the
// bulk lacks, whose index is its place in the receipt, not the bulk's.
const differenceMissing = "missing"

// invalid reports whether element i has errors.
func (b *bulkElements) invalid(i int) bool { return len(b.problems[i].Errors) > 0 }

// What the grid can be asked to show (elementFilter.show).
const (
	showEvery    = ""
	showInvalid  = "invalid"
	showRepeated = "repeated"
	showDiffers  = "differs"
)

// An elementFilter chooses the elements the grid shows.
type elementFilter struct {
	// search is looked for in who receives and the reference, ignoring
	// case.
	search string
	show   string
	// currency, when set, is the one currency shown.
	currency string
	// above, when set, holds the amount per currency, in its minor units,
	// that an element's must exceed.
	above map[string]int64
}

// active reports whether the filter leaves any element out.
func (f elementFilter) active() bool {
	return strings.TrimSpace(f.search) != "" || f.show != showEvery || f.currency != "" || f.above != nil
}

// view returns the indexes of the elements f lets through, in order.
func (b *bulkElements) view(f elementFilter) []int {
	search := strings.ToLower(strings.TrimSpace(f.search))
	var text []string
	if search != "" {
		text = b.searched()
	}
	out := make([]int, 0, b.len())
	for i := range b.len() {
		switch {
		case search != "" && !strings.Contains(text[i], search):
		case f.show == showInvalid && !b.invalid(i):
		case f.show == showRepeated && !b.repeated(i):
		case f.show == showDiffers && !b.differing(i):
		case f.currency != "" && (!b.hasAmount[i] || b.currency(i) != f.currency):
		case f.above != nil && !b.above(i, f.above):
		default:
			out = append(out, i)
		}
	}
	return out
}

// toCheck reports whether element i has anything for the checker to
// look at: a problem, another bulk holding it, a difference from the
// receipt.
func (b *bulkElements) toCheck(i int) bool {
	_, problem := b.problems[i]
	return problem || b.repeated(i) || b.differing(i)
}

func (b *bulkElements) repeated(i int) bool {
	_, ok := b.repeats[i]
	return ok
}

func (b *bulkElements) differing(i int) bool {
	_, ok := b.differs[i]
	return ok
}

func (b *bulkElements) currency(i int) string { return at(b.els.Currency, i) }

// above reports whether element i's amount exceeds its currency's limit;
// an element of a currency without one is left out.
func (b *bulkElements) above(i int, limits map[string]int64) bool {
	limit, ok := limits[b.currency(i)]
	return ok && b.hasAmount[i] && b.minor[i] > limit
}
