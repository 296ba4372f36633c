package ingest

import (
	"maps"
	"slices"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
)

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
