package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/lang"
)

// The key fields read in the console's language: its numbers, and its
// words for the parts of an account.
func TestKeyFieldsInTheConsolesLanguage(t *testing.T) {
	defer setLanguage(consoleLang)
	wire := keyfields.Counterparty{Type: keyfields.BankAccount, Name: "John Smith", AccountNumber: "12345678", SortCode: "102030"}
	for _, tc := range []struct {
		l                      lang.Tag
		amount, invalid, payee string
	}{
		{lang.English, "EUR 1,234.56", "eur 1,234 in minor units", "John Smith, account 12345678, sort code 102030"},
		{lang.German, "EUR 1.234,56", "eur 1.234 in der kleinsten Einheit", "John Smith, Konto 12345678, Sort Code 102030"},
	} {
		setLanguage(tc.l)
		if got := keyAmountText(&keyfields.Amount{Currency: "EUR", Minor: "123456"}); got != tc.amount {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.amount)
		}
		if got := keyAmountText(&keyfields.Amount{Currency: "eur", Minor: "1234"}); got != tc.invalid {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.invalid)
		}
		if got := counterpartyText(wire); got != tc.payee {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.payee)
		}
	}
	if keyAmountText(nil) != "" {
		t.Error("no amount is written")
	}
}
