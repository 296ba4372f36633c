package ui

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/worker"
)

// controlTotals are the count and total an operator expects, typed from
// the instruction that came with the file, and how what was loaded
// compares: the check a finance team makes before it pays anything.
type controlTotals struct {
	count    string
	total    string
	currency string
}

// A controlResult is the outcome of one comparison.
type controlResult struct {
	// checked says there was something to compare.
	checked bool
	ok      bool
	message string
}

// checkCount compares the expected element count with the loaded one.
func (c controlTotals) checkCount(s worker.Summary) controlResult {
	text := strings.TrimSpace(strings.ReplaceAll(c.count, ",", ""))
	if text == "" {
		return controlResult{}
	}
	want, err := strconv.Atoi(text)
	if err != nil || want < 0 {
		return controlResult{checked: true, message: tf("%q is not a count: type a whole number such as 1200.", c.count)}
	}
	switch {
	case want == s.Elements:
		return controlResult{checked: true, ok: true, message: tf("%s elements, as expected.", count(want))}
	case want > s.Elements:
		return controlResult{checked: true, message: tf("%s elements loaded, %s fewer than the %s expected.", count(s.Elements), count(want-s.Elements), count(want))}
	default:
		return controlResult{checked: true, message: tf("%s elements loaded, %s more than the %s expected.", count(s.Elements), count(s.Elements-want), count(want))}
	}
}

// checkTotal compares the expected total of a currency, typed in major
// units ("12,345.67"), with the sum loaded. Nothing is rounded: a total
// with more decimals than the currency has is refused.
func (c controlTotals) checkTotal(s worker.Summary) controlResult {
	text := strings.TrimSpace(c.total)
	if text == "" || c.currency == "" {
		return controlResult{}
	}
	digits, ok := money.Digits(c.currency)
	if !ok {
		digits = 2
	}
	want, err := money.ParseMajor(text, digits, money.Point)
	if err != nil {
		return controlResult{checked: true, message: tf("%q is not an amount in %s: type it as 12,345.67.", text, c.currency)}
	}
	got := new(big.Int)
	for _, tot := range s.Totals {
		if tot.Currency == c.currency {
			got.SetString(tot.Minor, 10)
		}
	}
	wantBig := big.NewInt(want)
	expected := local(money.FormatBig(wantBig, c.currency))
	switch diff := new(big.Int).Sub(got, wantBig); diff.Sign() {
	case 0:
		return controlResult{checked: true, ok: true, message: tf("%s, as expected.", expected)}
	case 1:
		return controlResult{checked: true, message: tf("%s loaded, %s more than the %s expected.", local(money.FormatBig(got, c.currency)), local(money.FormatBig(diff, c.currency)), expected)}
	default:
		return controlResult{checked: true, message: tf("%s loaded, %s less than the %s expected.", local(money.FormatBig(got, c.currency)), local(money.FormatBig(diff.Neg(diff), c.currency)), expected)}
	}
}
