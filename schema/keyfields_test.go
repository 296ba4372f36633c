package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestKeyFieldsOfEveryKind reads who receives, the amount, the reference
// and the source of an element of each kind, in every form of
// counterparty a kind takes.
func TestKeyFieldsOfEveryKind(t *testing.T) {
	for _, tc := range []struct {
		kind, element string
		want          keyfields.Fields
		text          string
	}{
		{"transfers", `{"requestBody":{"profileId":"1","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards","id":"2000001"},"destinationAmount":{"currency":"EUR","amount":1050},"description":"INV-7"}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: "2000001"}, Amount: &keyfields.Amount{Currency: "EUR", Minor: "1050"}, Reference: "INV-7", Source: "managed_accounts 1000001"},
			"managed_cards 2000001"},
		// An amount beyond 64 bits stays exact; an invalid currency as given.
		{"transfers", `{"requestBody":{"destination":{"type":"managed_accounts","id":"3"},"destinationAmount":{"currency":"eur","amount":123456789012345678901234567890}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_accounts", ID: "3"}, Amount: &keyfields.Amount{Currency: "eur", Minor: "123456789012345678901234567890"}},
			"managed_accounts 3"},
		{"transfers", `{"requestBody":{"destinationAmount":{"currency":"EUR","amount":"12.5"}}}`, keyfields.Fields{}, ""},
		{"sends", `{"requestBody":{"source":{"type":"managed_cards","id":"9"},"destination":{"beneficiaryId":"7001"},"destinationAmount":{"currency":"GBP","amount":5},"description":"rent"}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.Beneficiary, ID: "7001"}, Amount: &keyfields.Amount{Currency: "GBP", Minor: "5"}, Reference: "rent", Source: "managed_cards 9"},
			"beneficiary 7001"},
		{"outgoing_wire_transfers", `{"requestBody":{"sourceInstrument":{"type":"managed_accounts","id":"5"},"transferAmount":{"currency":"EUR","amount":250000},"description":"Salary 11/2026","destinationBeneficiary":{"name":"Jane Doe","iban":"DE89370400440532013000","bankIdentifierCode":"COBADEFFXXX"}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: "Jane Doe", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX"}, Amount: &keyfields.Amount{Currency: "EUR", Minor: "250000"}, Reference: "Salary 11/2026", Source: "managed_accounts 5"},
			"Jane Doe, IBAN DE89370400440532013000, BIC COBADEFFXXX"},
		{"outgoing_wire_transfers", `{"requestBody":{"transferAmount":{"currency":"GBP","amount":100},"destinationBeneficiary":{"name":"John Smith","type":"PERSONAL","accountNumber":"12345678","sortCode":"102030"}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: "John Smith", AccountNumber: "12345678", SortCode: "102030"}, Amount: &keyfields.Amount{Currency: "GBP", Minor: "100"}},
			"John Smith, account 12345678, sort code 102030"},
		{"outgoing_wire_transfers", `{"requestBody":{"destinationBeneficiary":{"name":"ACME Ltd","account":"000123456789","bankIdentifierCode":"CHASUS33","address":"NY","bankCountry":"US"}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: "ACME Ltd", Account: "000123456789", BIC: "CHASUS33"}},
			"ACME Ltd, account 000123456789, BIC CHASUS33"},
		// The older beneficiary form holds the account apart.
		{"outgoing_wire_transfers", `{"requestBody":{"destinationBeneficiary":{"name":"Old Form","bankAccountDetails":{"iban":"FR7630006000011234567890189"}}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.BankAccount, Name: "Old Form", IBAN: "FR7630006000011234567890189"}},
			"Old Form, IBAN FR7630006000011234567890189"},
		{"outgoing_wire_transfers", `{"requestBody":{"destinationBeneficiary":{"beneficiaryId":"42"}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.Beneficiary, ID: "42"}}, "beneficiary 42"},
		{"outgoing_wire_transfers", `{"requestBody":{"destinationBeneficiary":{"type":"external_accounts","id":"77"}}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "external_accounts", ID: "77"}}, "external_accounts 77"},
		{"card_blocks", `{"pathParams":{"_id_":"00127"}}`, keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: "00127"}}, "managed_cards 00127"},
		{"card_unblocks", `{"pathParams":{"_id_":"128"}}`, keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: "128"}}, "managed_cards 128"},
		{"card_removals", `{"pathParams":{"_id_":"129"}}`, keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: "129"}}, "managed_cards 129"},
		{"card_spend_rules", `{"pathParams":{"_id_":"130"},"requestBody":{"spendLimit":[{"value":{"currency":"EUR","amount":5000},"interval":"DAILY"}]}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: "130"}}, "managed_cards 130"},
		{"user_invites", `{"pathParams":{"_user_id_":"55"}}`, keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "users", ID: "55"}}, "users 55"},
		{"users", `{"requestBody":{"name":"Ada","surname":"Lovelace","email":"ada@example.com"}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.Person, Name: "Ada Lovelace", Email: "ada@example.com"}}, "Ada Lovelace <ada@example.com>"},
		{"users", `{"requestBody":{"email":"x@example.com"}}`,
			keyfields.Fields{Counterparty: keyfields.Counterparty{Type: keyfields.Person, Email: "x@example.com"}}, "x@example.com"},
		{"card_blocks", `{"pathParams":{}}`, keyfields.Fields{}, ""},
		{"transfers", `"not an element"`, keyfields.Fields{}, ""},
	} {
		k, err := schema.Lookup(tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		el, _, err := schema.DecodeJSON([]byte(tc.element))
		if err != nil {
			t.Fatal(err)
		}
		got := k.KeyFields(el)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(tc.want)
		if string(g) != string(w) {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.kind, tc.element, g, w)
		}
		if text := got.Counterparty.Text(); text != tc.text {
			t.Errorf("%s %s: counterparty %q, want %q", tc.kind, tc.element, text, tc.text)
		}
	}
}

// The key fields' amount is the one the totals read: AmountObject.
func TestAmountObjectIsTheKindsAmount(t *testing.T) {
	el, _, _ := schema.DecodeJSON([]byte(`{"requestBody":{"transferAmount":{"currency":"EUR","amount":7},"destinationAmount":{"currency":"USD","amount":8}}}`))
	for kind, want := range map[string]string{"outgoing_wire_transfers": `{"amount":7,"currency":"EUR"}`, "transfers": `{"amount":8,"currency":"USD"}`, "card_blocks": `null`} {
		k, _ := schema.Lookup(kind)
		if got, _ := json.Marshal(k.AmountObject(el)); string(got) != want {
			t.Errorf("%s: %s, want %s", kind, got, want)
		}
	}
	// Every element of the valid examples has its amount found.
	for _, k := range schema.Kinds() {
		if !k.MovesMoney() {
			continue
		}
		for i, el := range seeds(t, k.ID) {
			if k.KeyFields(el).Amount == nil {
				t.Errorf("%s example %d: no amount", k.ID, i)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { schema.Kinds()[6].AmountObject(el) }); n != 0 {
		t.Errorf("AmountObject allocates %v times", n)
	}
}
