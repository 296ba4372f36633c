package ingest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
)

// mapped maps a CSV of one header row and one data row for kind, and
// returns each header's field ("" when left to the operator) and
// suggestions.
func mapped(t *testing.T, kind string, headers []string) map[string]ingest.ColumnMapping {
	t.Helper()
	data := make([]string, len(headers))
	for i := range data {
		data[i] = "x"
	}
	csv := strings.Join(headers, ";") + "\n" + strings.Join(data, ";") + "\n"
	im := importOf(t, kind+".csv", []byte(csv), kind)
	out := make(map[string]ingest.ColumnMapping)
	for _, c := range im.Mapping().Columns {
		out[c.Header] = c
	}
	return out
}

// Headers are mapped by meaning, in English, German and French: the side
// of the payment a header names decides between source and destination,
// and the rest of it the field. A header that fits two fields is not
// mapped: its fields are offered first.
func TestHeadersMapByMeaning(t *testing.T) {
	cases := []struct {
		kind    string
		headers []string
		want    map[string]string // header → field, "" for none
	}{
		{"transfers", []string{"From type", "From account", "To type", "To account", "Amount", "Currency", "Reference"}, map[string]string{
			"From type": "source.type", "From account": "source.id", "To type": "destination.type", "To account": "destination.id",
			"Amount": "destinationAmount.amount", "Currency": "destinationAmount.currency", "Reference": "description",
		}},
		{"transfers", []string{"Payer account", "Payee account", "Source instrument type", "Beneficiary type"}, map[string]string{
			"Payer account": "source.id", "Payee account": "destination.id", "Source instrument type": "source.type", "Beneficiary type": "destination.type",
		}},
		{"transfers", []string{"Auftraggeberkonto", "Empfängerkonto", "Betrag", "Währung", "Verwendungszweck"}, map[string]string{
			"Auftraggeberkonto": "source.id", "Empfängerkonto": "destination.id", "Betrag": "destinationAmount.amount",
			"Währung": "destinationAmount.currency", "Verwendungszweck": "description",
		}},
		{"transfers", []string{"Konto Auftraggeber", "Konto Empfänger", "Überweisungsbetrag", "Waehrung"}, map[string]string{
			"Konto Auftraggeber": "source.id", "Konto Empfänger": "destination.id", "Überweisungsbetrag": "destinationAmount.amount",
			"Waehrung": "destinationAmount.currency",
		}},
		{"transfers", []string{"Compte émetteur", "Compte bénéficiaire", "Montant (EUR)", "Devise", "Libellé"}, map[string]string{
			"Compte émetteur": "source.id", "Compte bénéficiaire": "destination.id", "Montant (EUR)": "destinationAmount.amount",
			"Devise": "destinationAmount.currency", "Libellé": "description",
		}},
		{"transfers", []string{"fromAccount", "toAccount", "MONTANT"}, map[string]string{
			"fromAccount": "source.id", "toAccount": "destination.id", "MONTANT": "destinationAmount.amount",
		}},
		{"sends", []string{"Von Konto", "Empfänger Typ", "Betrag", "Motif"}, map[string]string{
			"Von Konto": "source.id", "Empfänger Typ": "destination.type", "Betrag": "destinationAmount.amount", "Motif": "description",
		}},
		{"outgoing_wire_transfers", []string{"Auftraggeberkonto", "Empfänger", "Empfänger IBAN", "BIC", "Betrag", "Devise"}, map[string]string{
			"Auftraggeberkonto": "sourceInstrument.id", "Empfänger": "destinationBeneficiary.name", "Empfänger IBAN": "destinationBeneficiary.iban",
			"BIC": "destinationBeneficiary.bankIdentifierCode", "Betrag": "transferAmount.amount", "Devise": "transferAmount.currency",
		}},
		{"outgoing_wire_transfers", []string{"Compte émetteur", "Nom du bénéficiaire", "Montant"}, map[string]string{
			"Compte émetteur": "sourceInstrument.id", "Nom du bénéficiaire": "destinationBeneficiary.name", "Montant": "transferAmount.amount",
		}},
		{"users", []string{"Vorname", "Nachname", "E-Mail", "Geburtsdatum", "Telefon"}, map[string]string{
			"Vorname": "name", "Nachname": "surname", "E-Mail": "email", "Geburtsdatum": "dateOfBirth", "Telefon": "mobile.number",
		}},
		{"users", []string{"Prénom", "Nom de famille", "Courriel", "Date de naissance", "Téléphone", "Pays"}, map[string]string{
			"Prénom": "name", "Nom de famille": "surname", "Courriel": "email", "Date de naissance": "dateOfBirth",
			"Téléphone": "mobile.number", "Pays": "countryOfResidence",
		}},
		// Words that name other things as well suggest, never map: a
		// "Total" column is as likely a sum row's label, a value date is
		// no amount.
		{"transfers", []string{"Total", "Value date", "Konto", "Type"}, map[string]string{"Total": "", "Value date": "", "Konto": "", "Type": ""}},
		// A header that names two sides or two roles is no one field's.
		{"transfers", []string{"From/To account", "Amount currency"}, map[string]string{"From/To account": "", "Amount currency": ""}},
		// Kinds without the field leave the header alone.
		{"users", []string{"Betrag", "Empfänger"}, map[string]string{"Betrag": "", "Empfänger": ""}},
	}
	for _, c := range cases {
		got := mapped(t, c.kind, c.headers)
		for h, want := range c.want {
			if f := got[h].Field; f != want {
				t.Errorf("%s: %q maps to %q, want %q (suggestions %v)", c.kind, h, f, want, got[h].Suggestions)
			}
		}
	}
}

// Of a header that fits several fields, those fields are the first
// suggestions: "Konto" is either account of a transfer, "Total" its
// amount.
func TestUnclearHeadersSuggestTheirFields(t *testing.T) {
	got := mapped(t, "transfers", []string{"Konto", "Total", "Type"})
	for h, want := range map[string][]string{
		"Konto": {"source.id", "destination.id"},
		"Total": {"destinationAmount.amount"},
		"Type":  {"source.type", "destination.type"},
	} {
		if s := got[h].Suggestions; len(s) < len(want) || !slices.Equal(s[:len(want)], want) {
			t.Errorf("%q suggests %v, want %v first", h, s, want)
		}
	}
}

// A field two columns claim goes to neither, whatever their order: which
// one holds the amount is the operator's choice.
func TestAFieldTwoColumnsClaimIsTheOperatorsChoice(t *testing.T) {
	got := mapped(t, "transfers", []string{"Amount", "Betrag", "From account"})
	for _, h := range []string{"Amount", "Betrag"} {
		if c := got[h]; c.Field != "" || len(c.Suggestions) == 0 || c.Suggestions[0] != "destinationAmount.amount" {
			t.Errorf("%q: field %q, suggestions %v; want no field and the amount first", h, c.Field, c.Suggestions)
		}
	}
	if f := got["From account"].Field; f != "source.id" {
		t.Errorf("From account maps to %q", f)
	}
}
