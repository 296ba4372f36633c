package ui

import (
	"math/big"

	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/money"
)

// The key fields of an element (see app/keyfields) as the console shows
// them in its lists of elements and operations, in its language.

// counterpartyText writes who receives: "managed_cards 2000001",
// "Jane Doe, IBAN DE89…", "Begünstigter 7001".
func counterpartyText(c keyfields.Counterparty) string {
	return c.TextWith(keyfields.Labels{IBAN: t("IBAN %s"), Account: t("account %s"), SortCode: t("sort code %s"), BIC: t("BIC %s"), Beneficiary: t("beneficiary %s")})
}

// keyAmountText writes an element's amount with its currency, as the
// console's language writes numbers: "EUR 1.234,56"; an amount in a
// currency that is not an ISO 4217 code in minor units: "eur 5 in minor
// units". "" when there is none.
func keyAmountText(a *keyfields.Amount) string {
	if a == nil {
		return ""
	}
	if major, ok := a.Major(consoleLang.Separators()); ok {
		return a.Currency + " " + major
	}
	minor := a.Minor
	if n, ok := new(big.Int).SetString(a.Minor, 10); ok {
		minor = money.FormatBigWith(n, 0, consoleLang.Separators())
	}
	return a.Currency + " " + tf("%s in minor units", minor)
}

// receiverHeading names the column of who receives for a kind whose
// elements move money, or act on what receiverType names.
func receiverHeading(movesMoney bool, receiverType string) string {
	switch {
	case movesMoney:
		return t("Paid to")
	case receiverType == "managed_cards":
		return t("Card")
	}
	return t("User")
}
