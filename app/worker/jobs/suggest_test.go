package jobs_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The kind is suggested from headers as operators write them, in
// English, German and French; headers that fit two kinds equally are
// left to the operator.
func TestTheKindIsSuggestedFromHeadersInEveryLanguage(t *testing.T) {
	cases := []struct {
		headers string
		want    string // "" for no suggestion
	}{
		// A German bank's transfer list names the payee's account, which
		// a transfer needs and a send or a wire may do without.
		{"Profil-ID;Auftraggeberkonto;Empfängerkonto;Betrag;Währung;Verwendungszweck;Ausführungsdatum", "transfers"},
		{"Kto. Auftraggeber;Empfaengerkonto;Betr.;Whg.;VWZ", "transfers"},
		{"ID profil;Compte source;Compte destinataire;Montant;Devise;Libellé;Date d'exécution", "transfers"},
		{"From account;To account;Amount;Currency;Reference", "transfers"},
		{"Auftraggeberkonto;Name des Empfängers;IBAN Empfänger;BIC;Betrag;Währung;Verwendungszweck", "outgoing_wire_transfers"},
		{"Compte émetteur;Nom du bénéficiaire;IBAN du bénéficiaire;BIC;Montant;Devise;Libellé", "outgoing_wire_transfers"},
		{"Source account;Beneficiary name;IBAN;BIC;Amount;Currency;Reference", "outgoing_wire_transfers"},
		{"Vorname;Nachname;E-Mail;Mobilnummer;Geburtsdatum", "users"},
		{"Prénom;Nom;Courriel;Téléphone;Date de naissance", "users"},
		{"Benutzer-ID", "user_invites"},
		{"Identifiant utilisateur", "user_invites"},
		{"Karten-ID;Erlaubte Händlerkategorien;Kontaktlos erlauben;Limitbetrag;Limitwährung", "card_spend_rules"},
		{"Identifiant de la carte;Sans contact;Plafond;Devise du plafond", "card_spend_rules"},
		// A beneficiary's id is a send's or a wire's: the operator says.
		{"Profil-ID;Auftraggeberkonto;Begünstigten-ID;Betrag;Währung", ""},
		// A card's id alone is any card bulk's.
		{"Karten-ID", ""},
	}
	h := newHarness(t)
	for _, c := range cases {
		row := make([]string, strings.Count(c.headers, ";")+1)
		for i := range row {
			row[i] = "x"
		}
		csv := c.headers + "\n" + strings.Join(row, ";") + "\n"
		p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "export.csv"}, []byte(csv)))
		got := p.Kind
		if !p.KindSuggested {
			got = ""
		}
		if got != c.want {
			t.Errorf("%s: suggested %q, want %q (%+v)", c.headers, got, c.want, p.Suggestions[:min(3, len(p.Suggestions))])
		}
	}
}
