package ui

import (
	"math/big"
	"time"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// count formats n with the language's groups: 10000 → "10,000", "10.000".
func count(n int) string { return consoleLang.Count(n) }

// plural returns "1 element", "2 elements" in the console's language.
func plural(n int, one, many string) string { return consoleLang.Plural(n, one, many) }

// local re-punctuates the numbers Bulkdesk wrote the English way (totals,
// amounts) for the console's language.
func local(s string) string { return consoleLang.Localize(s) }

// dateTime writes a moment in the console's language, in the location the
// caller chose (the operator's, or UTC).
func dateTime(t time.Time) string { return consoleLang.DateTime(t) }

// totalLabel names a total's row: its currency, or "invalid currency".
func totalLabel(tot wire.Total) string {
	if tot.Invalid {
		return t("invalid currency")
	}
	return tot.Label
}

// totalAmount writes a total's sum without its currency, in the console's
// language: "12.345,67"; for invalid currencies, whose minor units are
// unknown, "1.350 in minor units".
func totalAmount(tot wire.Total) string {
	if !tot.Invalid {
		return local(tot.Amount)
	}
	minor, ok := new(big.Int).SetString(tot.Minor, 10)
	if !ok {
		return local(tot.Amount)
	}
	return tf("%s in minor units", money.FormatBigWith(minor, 0, consoleLang.Separators()))
}

// totalText writes a total for people: "EUR 12.345,67", or for invalid
// currencies the sum in minor units and the codes found.
func totalText(tot wire.Total) string {
	if !tot.Invalid {
		return local(tot.Text)
	}
	return tf("%s: %s", totalLabel(tot), totalAmount(tot)+codesNote(tot.Codes, tot.MoreCodes))
}

// codesNote names the invalid currency codes of a total after its sum, in
// the console's quotation marks: ` („eur“, „EURO“)`.
func codesNote(codes []string, more bool) string {
	return money.CodesNoteWith(codes, more, consoleLang.Quote)
}
