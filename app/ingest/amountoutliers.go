package ingest

import (
	"math/bits"
	"slices"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

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
	return requestAmounts(k, NewRequestElements(elements))
}

// requestAmounts is RequestAmounts over elements read one at a time.
func requestAmounts(k *schema.Kind, elements *RequestElements) []Amount {
	if k.Amount == "" {
		return nil
	}
	out := make([]Amount, 0, elements.Len())
	// Where k.AmountObject looks, each value of the object read alone.
	at := elementTokens(k.Amount)
	curAt, amountAt := append(slices.Clip(at), "currency"), append(slices.Clip(at), "amount")
	for i := range elements.Len() {
		cur, _ := elements.ValueAt(i, curAt).(string)
		if n, ok := wholeNumber(elements.ValueAt(i, amountAt)); ok && cur != "" {
			out = append(out, Amount{Element: i, Currency: cur, Minor: n})
		}
	}
	return out
}

// RequestAmountWarnings returns the plausibility warnings of the amounts
// of a JSON request body of kind k, as AmountWarnings gives them.
func RequestAmountWarnings(w lang.Tag, k *schema.Kind, elements []any, limits AmountLimits) []schema.Problem {
	return requestAmountWarnings(w, k, NewRequestElements(elements), limits)
}

func requestAmountWarnings(w lang.Tag, k *schema.Kind, elements *RequestElements, limits AmountLimits) []schema.Problem {
	if k.Amount == "" {
		return nil
	}
	return AmountWarnings(w, k.Amount+".amount", requestAmounts(k, elements), limits)
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
