// Package keyfields says which payment or change an element is, in the
// few fields an operator reads to tell one from the next: who receives,
// how much, with what reference, from which source. It is the one
// definition the checker's review, the command line, the bulk page's list
// of operations and the result workbook share.
//
// What each kind's key fields are is written on the kind
// (schema.Kind.KeyFields, from the paths a [Spec] names); this package
// reads them out of an element and holds them in a form the browser's
// page can carry without linking the schemas.
//
//	f := kind.KeyFields(element)
//	f.Counterparty.Text() // "managed_cards 2000001", "Jane Doe, IBAN DE89…"
//	f.Amount.Minor        // "1050": exact, in minor units
package keyfields

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// Fields are the key fields of one element. Each is empty when the kind
// has no such field or the element leaves it out.
type Fields struct {
	// Counterparty is who receives the payment, or what the element acts
	// on (the card it blocks, the user it invites or creates).
	Counterparty Counterparty `json:"counterparty"`
	// Amount is the element's sum of money; nil for kinds that move none
	// or an element without a readable amount.
	Amount *Amount `json:"amount,omitempty"`
	// Reference is the payment's reference or description.
	Reference string `json:"reference,omitempty"`
	// Source names the instrument the money leaves, as the review's
	// totals per source name it ("managed_accounts 1000001").
	Source string `json:"source,omitempty"`
}

// An Amount is an element's sum of money, exactly as the element holds
// it. In JSON, {"currency": "EUR", "amount": "1050"}: the amount in minor
// units as decimal digits (a minus first when negative), a string so that
// no reader rounds an integer beyond 2⁵³.
type Amount struct {
	// Currency is the code the element gives, valid or not ("" when it
	// gives none).
	Currency string `json:"currency"`
	// Minor is the amount in minor units, as decimal digits.
	Minor string `json:"amount"`
}

// Kinds of counterparty (Counterparty.Type) beside the API's instrument
// types ("managed_cards", "managed_accounts"), which name themselves.
const (
	// Beneficiary is a beneficiary the API holds, named by its id.
	Beneficiary = "beneficiary"
	// BankAccount is a beneficiary written out: a name and an account
	// (IBAN, account number and sort code, or account and BIC).
	BankAccount = "bank_account"
	// Person is a user written out: a name and an email address.
	Person = "person"
)

// A Counterparty is who receives, or what an element acts on.
type Counterparty struct {
	// Type is an instrument type of the API ("managed_cards",
	// "managed_accounts", "users" for a user's id), Beneficiary,
	// BankAccount or Person; "" when the element names none.
	Type string `json:"type,omitempty"`
	ID   string `json:"id,omitempty"`
	// Name is a beneficiary's or a person's name.
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
	// The account of a BankAccount, as the element has it: an IBAN, an
	// account number with a sort code, or an account with a BIC.
	IBAN          string `json:"iban,omitempty"`
	AccountNumber string `json:"accountNumber,omitempty"`
	SortCode      string `json:"sortCode,omitempty"`
	Account       string `json:"account,omitempty"`
	BIC           string `json:"bic,omitempty"`
}

// Labels are the words Text writes before the parts of an account and a
// beneficiary's id: format strings with one %s, in the reader's language.
type Labels struct {
	IBAN, Account, SortCode, BIC, Beneficiary string
}

// English are the labels of Text.
var English = Labels{IBAN: "IBAN %s", Account: "account %s", SortCode: "sort code %s", BIC: "BIC %s", Beneficiary: "beneficiary %s"}

// Text writes the counterparty on one line, in the API's words where it
// has them: "managed_cards 2000001", "beneficiary 7001",
// "Jane Doe, IBAN DE89370400440532013000, BIC COBADEFFXXX",
// "John Smith, account 12345678, sort code 102030",
// "Ada Lovelace <ada@example.com>".
func (c Counterparty) Text() string { return c.TextWith(English) }

// TextWith is Text with the labels of another language.
func (c Counterparty) TextWith(l Labels) string {
	var parts []string
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf(label, v))
		}
	}
	switch c.Type {
	case BankAccount:
		add("%s", c.Name)
		add(l.IBAN, c.IBAN)
		add(l.Account, c.AccountNumber)
		add(l.SortCode, c.SortCode)
		add(l.Account, c.Account)
		add(l.BIC, c.BIC)
		return strings.Join(parts, ", ")
	case Beneficiary:
		return fmt.Sprintf(l.Beneficiary, c.ID)
	case Person:
		switch {
		case c.Name != "" && c.Email != "":
			return c.Name + " <" + c.Email + ">"
		case c.Email != "":
			return c.Email
		}
		return c.Name
	case "":
		return c.ID
	}
	if c.ID == "" {
		return c.Type
	}
	return c.Type + " " + c.ID
}

// Major writes the amount in major units with its currency's decimals
// and the separators sep: "1,234.56" for EUR 123456 with money.Point.
// ok is false for a currency that is not an ISO 4217 code, whose
// decimals are unknown, and for an amount that is not digits.
func (a Amount) Major(sep money.Separators) (text string, ok bool) {
	digits, known := money.Digits(a.Currency)
	n, isInt := new(big.Int).SetString(a.Minor, 10)
	if !known || !isInt {
		return "", false
	}
	return money.FormatBigWith(n, digits, sep), true
}
