package ingest

import (
	"encoding/json"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Plausibility warnings point at values the API accepts but that are very
// likely mistakes of the file: an amount in the wrong units, an amount
// above what the operator expects to pay, an id that lost or gained a
// digit. They are warnings, never errors.
//
// The checks are defined once, here: a build applies them to every
// amount and id column of a table, and a JSON request body gets them
// through [RequestWarnings] ([AmountWarnings] and idLengthWarning are the
// shared definitions).
const (
	// AmountOutlierCode marks an amount at least OutlierFactor times the
	// median of the file's amounts in its currency.
	AmountOutlierCode = "amount-outlier"
	// AmountAboveLimitCode marks an amount above the operator's limit
	// for its currency ([Import.SetAmountLimits]).
	AmountAboveLimitCode = "amount-above-limit"
	// IDLengthCode marks the ids of a column whose lengths differ.
	IDLengthCode = "id-length"
)

const (
	// OutlierFactor is how many times the median of its currency an
	// amount must be to be reported: 100 is a file in major units read
	// as minor units, or an amount typed in cents among amounts in euros.
	OutlierFactor = 100
	// MinAmountsForMedian is how many valid, positive amounts a currency
	// needs in one file before its median means something: with fewer,
	// no amount of that currency is an outlier.
	MinAmountsForMedian = 3
	// idCellsNamed is how many cells an id-length warning names; the rest
	// are counted.
	idCellsNamed = 3
)

// isPlausibilityCode reports the codes of the checks over whole columns,
// which are computed again after every edit.
func isPlausibilityCode(code string) bool {
	return code == AmountOutlierCode || code == AmountAboveLimitCode || code == IDLengthCode
}

// AmountLimits are the highest amounts an operator expects, per ISO 4217
// currency code, in minor units: {"EUR": 1000000} is EUR 10,000.00.
type AmountLimits map[string]int64

// Texts writes the limits in the plain form, in major units, sorted by
// currency: ["EUR:10000.00", "JPY:500000"]. ParseAmountLimit reads them
// back with money.Point, whatever the operator's language: what is kept
// (a draft, a flag's value) is kept in this form.
func (l AmountLimits) Texts() []string { return l.TextsIn(money.Separators{Decimal: '.'}) }

// TextsIn writes the limits as sep writes numbers, for an operator:
// ["EUR:10.000,00", "JPY:500.000"] in German. ParseAmountLimit reads
// them back with sep.
func (l AmountLimits) TextsIn(sep money.Separators) []string {
	out := make([]string, 0, len(l))
	for cur, minor := range l {
		digits, _ := money.Digits(cur)
		out = append(out, cur+":"+money.FormatWith(minor, digits, sep))
	}
	slices.Sort(out)
	return out
}

// ParseAmountLimit reads a limit as an operator writes it, a currency and
// an amount in major units, the amount as the language whose separators
// sep are writes numbers, or in the plain form: "EUR:10000",
// "EUR:10000.00", "EUR:10,000.00" in English, "EUR:10.000,00" in German,
// "EUR:10 000,00" in French, "EUR 10000" (money.ParseCurrencyAmount and
// its rules). The code may be written in lower case; the value must be
// positive and exact in the currency's minor units. A text that is not
// such a limit is a *money.TypedError, which says how to type it.
func ParseAmountLimit(s string, sep money.Separators) (currency string, minor int64, err error) {
	code, minor, err := money.ParseCurrencyAmount(s, sep)
	if err != nil {
		return "", 0, err
	}
	if minor <= 0 {
		return "", 0, lang.Errorf("%q: the limit must be more than zero", s)
	}
	return code, minor, nil
}

// An Amount is the amount of one element, for the plausibility checks.
type Amount struct {
	Element  int
	Currency string
	Minor    int64
}

// AmountWarnings returns the plausibility warnings of the amounts of one
// field ("destinationAmount.amount"), in element order:
//
//   - an amount at least OutlierFactor times the median of the amounts of
//     its currency (at least MinAmountsForMedian positive amounts; with an
//     even count, the lower of the two middle ones), code
//     AmountOutlierCode;
//   - an amount above the limit of its currency, code
//     AmountAboveLimitCode.
//
// Amounts in a currency that is not an ISO 4217 code are left out: they
// are errors already. The problems carry the element, pointer and field;
// a build adds the cell.
func AmountWarnings(w lang.Tag, field string, amounts []Amount, limits AmountLimits) []schema.Problem {
	index := make(map[string]int, 4)
	var curs []string
	cur := make([]int, len(amounts))
	for k, a := range amounts {
		c, ok := index[a.Currency]
		if !ok {
			c = len(curs)
			curs = append(curs, a.Currency)
			index[a.Currency] = c
		}
		cur[k] = c
	}
	return amountWarnings(w, field, pointerOf(field), len(amounts), curs, func(k int) (int, int, int64) {
		return amounts[k].Element, cur[k], amounts[k].Minor
	}, limits)
}

// RequestAmounts returns the amounts of the elements of a JSON request
// body of kind k, found where the kind holds them (k.AmountObject), in
// element order. Elements without a whole amount and a currency are left
// out.
func RequestAmounts(k *schema.Kind, elements []any) []Amount {
	if k.Amount == "" {
		return nil
	}
	out := make([]Amount, 0, len(elements))
	for i, e := range elements {
		obj, ok := k.AmountObject(e).(map[string]any)
		if !ok {
			continue
		}
		cur, _ := obj["currency"].(string)
		if n, ok := wholeNumber(obj["amount"]); ok && cur != "" {
			out = append(out, Amount{Element: i, Currency: cur, Minor: n})
		}
	}
	return out
}

// RequestAmountWarnings returns the plausibility warnings of the amounts
// of a JSON request body of kind k, as AmountWarnings gives them.
func RequestAmountWarnings(w lang.Tag, k *schema.Kind, elements []any, limits AmountLimits) []schema.Problem {
	if k.Amount == "" {
		return nil
	}
	return AmountWarnings(w, k.Amount+".amount", RequestAmounts(k, elements), limits)
}

// pointerOf returns the JSON pointer of a field's value in an element.
func pointerOf(field string) string {
	return "/" + strings.Join(elementTokens(field), "/")
}

// wholeNumber reads an amount as a request carries it: a JSON number or
// a text of digits.
func wholeNumber(v any) (int64, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = x
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// valueAt returns the value at toks inside an element, or nil. List
// positions are decimal tokens.
func valueAt(v any, toks []string) any {
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			v = c[t]
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(c) {
				return nil
			}
			v = c[n]
		case buildList:
			n, err := strconv.Atoi(t)
			if err != nil {
				return nil
			}
			v = c[n]
		default:
			return nil
		}
	}
	return v
}

// amountWarnings is AmountWarnings over n amounts given by at, which
// returns an element, the index of its currency in curs and its amount.
// It reads them three times: to count them per currency, to gather them
// for the medians, and to compare each with its median and limit; per
// amount, it only indexes slices.
func amountWarnings(w lang.Tag, field, ptr string, n int, curs []string, at func(k int) (elem, cur int, minor int64), limits AmountLimits) []schema.Problem {
	counts := make([]int, len(curs))
	valid := make([]bool, len(curs))
	for c, code := range curs {
		valid[c] = money.Valid(code)
	}
	total := 0
	for k := range n {
		_, c, m := at(k)
		if m > 0 && valid[c] {
			counts[c]++
			total++
		}
	}
	// Each currency's amounts in a part of one array.
	all := make([]int64, total)
	parts := make([][]int64, len(curs))
	off := 0
	for c, count := range counts {
		parts[c] = all[off : off : off+count]
		off += count
	}
	for k := range n {
		_, c, m := at(k)
		if m > 0 && valid[c] {
			parts[c] = append(parts[c], m)
		}
	}
	medians := make([]int64, len(curs))
	worth := len(limits) > 0
	for c, ms := range parts {
		if len(ms) >= MinAmountsForMedian {
			// The lower median: an amount of the file, never an average.
			medians[c] = nth(ms, (len(ms)-1)/2)
			worth = true
		}
	}
	if !worth {
		return nil
	}
	lims := make([]int64, len(curs))
	for c, code := range curs {
		if lim, ok := limits[code]; ok && valid[c] {
			lims[c] = lim
		}
	}
	var out []schema.Problem
	for k := range n {
		elem, c, m := at(k)
		if m <= 0 || !valid[c] {
			continue
		}
		cur := curs[c]
		warn := func(code, msg string) {
			out = append(out, schema.Problem{Element: elem, Pointer: ptr, Field: field, Code: code,
				Severity: schema.Warning, Message: w.F("%s: %s", field, msg), Value: strconv.FormatInt(m, 10)})
		}
		if med := medians[c]; med > 0 && m/med >= OutlierFactor {
			warn(AmountOutlierCode, w.F("%s is %s times the median %s of this file's %s amounts: check its units (cents or %s)",
				w.Localize(money.Format(m, cur)), w.Count(int(m/med)), w.Localize(money.Format(med, cur)), cur, majorName(w, cur)))
		}
		if lim := lims[c]; lim > 0 && m > lim {
			warn(AmountAboveLimitCode, w.F("%s is above the limit of %s set for %s amounts: check it, or raise the limit",
				w.Localize(money.Format(m, cur)), w.Localize(money.Format(lim, cur)), cur))
		}
	}
	return out
}

// majorName names a currency's major unit in a hint.
func majorName(w lang.Tag, cur string) string {
	if d, _ := money.Digits(cur); d == 0 {
		return w.F("whole %s", cur)
	}
	return w.F("whole %s units", cur)
}

// nth returns the k-th smallest of s (0-based), reordering s: a
// quickselect, linear on average, at worst O(n log n), without
// allocating.
func nth(s []int64, k int) int64 {
	lo, hi := 0, len(s)-1
	// Inputs made to defeat the pivot could make it quadratic: after
	// twice as many rounds as halvings, the rest is sorted instead.
	rounds := 2 * bits.Len(uint(len(s)))
	for lo < hi {
		if rounds--; rounds < 0 {
			slices.Sort(s[lo : hi+1])
			return s[k]
		}
		// Median of three as the pivot keeps sorted input linear.
		mid := lo + (hi-lo)/2
		if s[mid] < s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		pivot := s[mid]
		i, j := lo, hi
		for i <= j {
			for s[i] < pivot {
				i++
			}
			for s[j] > pivot {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	return s[k]
}

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

// skipChecks turns the plausibility checks off; only benchmarks set it,
// to measure what the checks cost.
var skipChecks = false

// newChecks prepares the checks of the reader's columns for n elements.
func (rd *reader) newChecks(n int) *checks {
	c := &checks{}
	if skipChecks {
		return c
	}
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
	var out []schema.Problem
	var lens []uint8
	for _, f := range fields {
		if !isIDField(f) || strings.Contains(f.Path, "[") {
			continue
		}
		toks := elementTokens(f.Path)
		if lens == nil {
			lens = make([]uint8, len(elements))
		}
		for i, e := range elements {
			s, _ := valueAt(e, toks).(string)
			lens[i] = 0
			if allDigits(s) {
				lens[i] = uint8(min(len(s), 255))
			}
		}
		p, ok := idLengthWarning(w, f.Path, pointerOf(f.Path), w.T("the request"), true, lens, func(i int) (string, string) {
			s, _ := valueAt(elements[i], toks).(string)
			return w.F("element %d", i), s
		})
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// RequestWarnings returns every plausibility warning of a JSON request
// body of kind k, whose fields are given, in element order: those of its
// amounts (RequestAmountWarnings) and of its ids (RequestIDWarnings).
func RequestWarnings(w lang.Tag, k *schema.Kind, fields []schema.Field, elements []any, limits AmountLimits) []schema.Problem {
	out := RequestAmountWarnings(w, k, elements, limits)
	out = append(out, RequestIDWarnings(w, fields, elements)...)
	slices.SortStableFunc(out, func(a, b schema.Problem) int { return a.Element - b.Element })
	return out
}

// columnLabel names a column in a message: its letter, or the key of a
// JSON table.
func columnLabel(t *Table, col int) string {
	if t.Keyed {
		return strconv.Quote(t.ColumnName(col))
	}
	return t.ColumnName(col)
}

// SetAmountLimits sets the highest amount the operator expects per
// currency, in minor units; an amount above it is a warning. The limits
// apply to the last build at once and to the builds after it.
func (im *Import) SetAmountLimits(limits AmountLimits) {
	im.limits = maps.Clone(limits)
	if res := im.result; res != nil {
		res.limits = im.limits
		res.replaceChecks()
	}
}

// AmountLimits returns the limits SetAmountLimits set.
func (im *Import) AmountLimits() AmountLimits { return maps.Clone(im.limits) }

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
