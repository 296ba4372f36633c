package ingest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A header row as operators write it, and the field each header fills
// ("" for none).
type headerRow struct {
	kind, lang, source string
	want               []string // header=field, in the row's order
}

// headerRows are header rows of realistic files, in English, German and
// French: exports and payment lists as banks' online banking and
// spreadsheets write them (Sparkasse, Deutsche Bank, Crédit Agricole,
// BNP Paribas and the like), with and without accents, with umlauts
// written out, abbreviated.
var headerRows = []headerRow{
	// Transfers between managed accounts and cards.
	{"transfers", "en", "payment list", []string{
		"Profile ID=profileId", "From account type=source.type", "From account=source.id", "To account type=destination.type",
		"To account=destination.id", "Amount=destinationAmount.amount", "Currency=destinationAmount.currency",
		"Reference=description", "Execution date=scheduledTimestamp", "Tag=tag"}},
	{"transfers", "de", "Sparkasse-like payment list", []string{
		"Profil-ID=profileId", "Kontotyp Auftraggeber=source.type", "Auftraggeberkonto=source.id",
		"Kontotyp Empfänger=destination.type", "Empfängerkonto=destination.id", "Betrag=destinationAmount.amount",
		"Währung=destinationAmount.currency", "Verwendungszweck=description", "Ausführungsdatum=scheduledTimestamp"}},
	{"transfers", "de", "Deutsche Bank-like, abbreviated", []string{
		"Profil=profileId", "Quellkonto-Typ=source.type", "Quellkonto=source.id", "Zielkonto-Typ=destination.type",
		"Zielkonto=destination.id", "Betrag (EUR)=destinationAmount.amount", "Whg.=destinationAmount.currency",
		"VWZ=description", "Ausführung am=scheduledTimestamp", "Etikett=tag"}},
	{"transfers", "de", "umlauts written out", []string{
		"Profilnummer=profileId", "Kto. Auftraggeber=source.id", "Art Auftraggeberkonto=source.type",
		"Empfaenger-Konto=destination.id", "Empfaengerkontotyp=destination.type", "Betr.=destinationAmount.amount",
		"Waehrung=destinationAmount.currency", "Buchungstext=description", "Ausfuehrungsdatum=scheduledTimestamp"}},
	{"transfers", "fr", "Crédit Agricole-like", []string{
		"ID profil=profileId", "Type compte source=source.type", "Compte source=source.id",
		"Type compte destinataire=destination.type", "Compte destinataire=destination.id", "Montant=destinationAmount.amount",
		"Devise=destinationAmount.currency", "Libellé=description", "Date d'exécution=scheduledTimestamp", "Étiquette=tag"}},
	{"transfers", "fr", "BNP-like, without accents", []string{
		"Identifiant du profil=profileId", "Compte a debiter=source.id", "Type de compte a debiter=source.type",
		"Compte a crediter=destination.id", "Type de compte a crediter=destination.type", "Montant (EUR)=destinationAmount.amount",
		"Code devise=destinationAmount.currency", "Reference=description", "Date d'execution souhaitee=scheduledTimestamp"}},
	// Sends to beneficiaries.
	{"sends", "en", "payment list", []string{
		"Profile=profileId", "Source account=source.id", "Source account type=source.type", "Beneficiary ID=destination.beneficiaryId",
		"Amount=destinationAmount.amount", "Currency=destinationAmount.currency", "Description=description",
		"Scheduled date=scheduledTimestamp"}},
	{"sends", "de", "payment list", []string{
		"Profil-ID=profileId", "Auftraggeberkonto=source.id", "Kontotyp Auftraggeber=source.type",
		"Begünstigten-ID=destination.beneficiaryId", "Betrag=destinationAmount.amount", "Währung=destinationAmount.currency",
		"Verwendungszweck=description", "Ausführungsdatum=scheduledTimestamp"}},
	{"sends", "fr", "payment list", []string{
		"Identifiant de profil=profileId", "Compte émetteur=source.id", "Type de compte émetteur=source.type",
		"Identifiant du bénéficiaire=destination.beneficiaryId", "Montant=destinationAmount.amount", "Devise=destinationAmount.currency",
		"Motif=description", "Date d'exécution=scheduledTimestamp"}},
	{"sends", "de", "to an account", []string{
		"Auftraggeberkonto=source.id", "Empfängerkonto=destination.id", "Kontotyp Empfänger=destination.type",
		"Betrag=destinationAmount.amount", "Währung=destinationAmount.currency", "Etikett=tag"}},
	{"sends", "fr", "to an account", []string{
		"Compte émetteur=source.id", "Compte destinataire=destination.id", "Type de compte destinataire=destination.type",
		"Montant=destinationAmount.amount", "Devise=destinationAmount.currency", "Étiquette=tag"}},
	// Wires to bank accounts.
	{"outgoing_wire_transfers", "en", "SEPA list", []string{
		"Profile ID=profileId", "Source account=sourceInstrument.id", "Beneficiary name=destinationBeneficiary.name",
		"IBAN=destinationBeneficiary.iban", "BIC=destinationBeneficiary.bankIdentifierCode", "Amount=transferAmount.amount",
		"Currency=transferAmount.currency", "Reference=description", "Purpose=purpose", "Bank name=destinationBeneficiary.bankName"}},
	{"outgoing_wire_transfers", "de", "Deutsche Bank-like SEPA list", []string{
		"Profil-ID=profileId", "Auftraggeberkonto=sourceInstrument.id", "Quelltyp=sourceInstrument.type",
		"Name des Empfängers=destinationBeneficiary.name", "IBAN Empfänger=destinationBeneficiary.iban",
		"BIC der Empfängerbank=destinationBeneficiary.bankIdentifierCode", "Betrag=transferAmount.amount",
		"Währung=transferAmount.currency", "Verwendungszweck=description", "Zahlungsgrund=purpose",
		"Adresse des Empfängers=destinationBeneficiary.address", "Name der Bank=destinationBeneficiary.bankName",
		"Anschrift der Bank=destinationBeneficiary.bankAddress", "Land der Bank=destinationBeneficiary.bankCountry",
		"Empfängerart=destinationBeneficiary.type", "Ausführungsdatum=scheduledTimestamp"}},
	{"outgoing_wire_transfers", "de", "account numbers", []string{
		"Auftraggeberkonto=sourceInstrument.id", "Kontoinhaber=destinationBeneficiary.name", "Kontonummer=destinationBeneficiary.accountNumber",
		"BLZ=destinationBeneficiary.sortCode", "Bankname=destinationBeneficiary.bankName", "Sekundärreferenz=destinationBeneficiary.secondaryReference",
		"Staatsangehörigkeit=destinationBeneficiary.nationality", "Geburtsdatum=destinationBeneficiary.dateOfBirth",
		"Betrag=transferAmount.amount", "Whg.=transferAmount.currency"}},
	{"outgoing_wire_transfers", "fr", "BNP-like SEPA list", []string{
		"ID profil=profileId", "Compte émetteur=sourceInstrument.id", "Nom du bénéficiaire=destinationBeneficiary.name",
		"IBAN du bénéficiaire=destinationBeneficiary.iban", "BIC=destinationBeneficiary.bankIdentifierCode",
		"Montant=transferAmount.amount", "Devise=transferAmount.currency", "Libellé=description", "Motif économique=purpose",
		"Adresse du bénéficiaire=destinationBeneficiary.address", "Banque du bénéficiaire=destinationBeneficiary.bankName",
		"Adresse de la banque=destinationBeneficiary.bankAddress", "Pays de la banque=destinationBeneficiary.bankCountry",
		"Type de bénéficiaire=destinationBeneficiary.type", "Date d'exécution=scheduledTimestamp"}},
	{"outgoing_wire_transfers", "de", "SWIFT", []string{
		"Begünstigten-ID=destinationBeneficiary.beneficiaryId", "Externe Konto-ID=destinationBeneficiary.id",
		"SWIFT-Konto=destinationBeneficiary.account", "Etikett=tag"}},
	{"outgoing_wire_transfers", "fr", "SWIFT", []string{
		"Identifiant du compte externe=destinationBeneficiary.id", "Compte SWIFT=destinationBeneficiary.account",
		"Type de compte émetteur=sourceInstrument.type", "Étiquette=tag", "Code guichet=destinationBeneficiary.sortCode"}},
	{"outgoing_wire_transfers", "fr", "account numbers", []string{
		"Titulaire du compte=destinationBeneficiary.name", "Numéro de compte=destinationBeneficiary.accountNumber",
		"Référence secondaire=destinationBeneficiary.secondaryReference", "Nationalité=destinationBeneficiary.nationality",
		"Date de naissance=destinationBeneficiary.dateOfBirth", "Identifiant du bénéficiaire=destinationBeneficiary.beneficiaryId"}},
	// Users.
	{"users", "en", "staff list", []string{
		"First name=name", "Last name=surname", "Email address=email", "Mobile number=mobile.number", "Country code=mobile.countryCode",
		"Date of birth=dateOfBirth", "Country=countryOfResidence", "Locale=locale", "Roles=roles", "Brand=brand", "Tag=tag"}},
	{"users", "de", "staff list", []string{
		"Vorname=name", "Nachname=surname", "E-Mail=email", "Mobilnummer=mobile.number", "Ländervorwahl=mobile.countryCode",
		"Geburtsdatum=dateOfBirth", "Wohnsitzland=countryOfResidence", "Sprache=locale", "Rolle=roles", "Marke=brand", "Etikett=tag"}},
	{"users", "fr", "staff list", []string{
		"Prénom=name", "Nom=surname", "Courriel=email", "Numéro de portable=mobile.number", "Indicatif pays=mobile.countryCode",
		"Date de naissance=dateOfBirth", "Pays de résidence=countryOfResidence", "Langue=locale", "Rôle=roles", "Marque=brand",
		"Étiquette=tag"}},
	// Invites and cards: the one id.
	{"user_invites", "en", "", []string{"User ID=pathParams._user_id_"}},
	{"user_invites", "de", "", []string{"Benutzer-ID=pathParams._user_id_"}},
	{"user_invites", "fr", "", []string{"Identifiant utilisateur=pathParams._user_id_"}},
	{"card_blocks", "en", "", []string{"Card ID=pathParams._id_"}},
	{"card_blocks", "de", "", []string{"Karten-ID=pathParams._id_"}},
	{"card_blocks", "fr", "", []string{"ID carte=pathParams._id_"}},
	{"card_unblocks", "en", "", []string{"Card=pathParams._id_"}},
	{"card_unblocks", "de", "", []string{"Karte=pathParams._id_"}},
	{"card_unblocks", "fr", "", []string{"Identifiant carte=pathParams._id_"}},
	{"card_removals", "en", "", []string{"Managed card ID=pathParams._id_"}},
	{"card_removals", "de", "", []string{"Kartenkennung=pathParams._id_"}},
	{"card_removals", "fr", "", []string{"Identifiant de la carte=pathParams._id_"}},
	// Spend rules.
	{"card_spend_rules", "en", "", []string{
		"Card ID=pathParams._id_", "Allowed merchant categories=allowedMerchantCategories", "Blocked merchant categories=blockedMerchantCategories",
		"Allow contactless=allowContactless", "Allow ATM=allowAtm", "Allow online=allowECommerce", "Spend limit=spendLimit[0].value.amount",
		"Spend limit currency=spendLimit[0].value.currency", "Spend limit interval=spendLimit[0].interval",
		"Minimum transaction amount=minTransactionAmount", "Maximum transaction amount=maxTransactionAmount"}},
	{"card_spend_rules", "de", "", []string{
		"Karten-ID=pathParams._id_", "Erlaubte Händlerkategorien=allowedMerchantCategories",
		"Gesperrte Händlerkategorien=blockedMerchantCategories", "Erlaubte Händler-IDs=allowedMerchantIds",
		"Gesperrte Händler-IDs=blockedMerchantIds", "Erlaubte Länder=allowedMerchantCountries", "Gesperrte Länder=blockedMerchantCountries",
		"Kontaktlos erlauben=allowContactless", "Geldautomat erlauben=allowAtm", "Online-Zahlungen erlauben=allowECommerce",
		"Cashback erlauben=allowCashback", "Gutschriften erlauben=allowCreditAuthorisations",
		"Negativsaldo übertragen=rolloverPolicy.rolloverNegative", "Limitbetrag=spendLimit[0].value.amount",
		"Limitwährung=spendLimit[0].value.currency", "Limitintervall=spendLimit[0].interval", "Limit gültig ab=spendLimit[0].startTimestamp",
		"Mindestbetrag pro Transaktion=minTransactionAmount", "Höchstbetrag pro Transaktion=maxTransactionAmount",
		"Limit-Aktualisierung=updateSpendLimitMethod"}},
	{"card_spend_rules", "fr", "", []string{
		"Identifiant de la carte=pathParams._id_", "Catégories de commerçants autorisées=allowedMerchantCategories",
		"Catégories de commerçants bloquées=blockedMerchantCategories", "Commerçants autorisés=allowedMerchantIds",
		"Commerçants bloqués=blockedMerchantIds", "Pays autorisés=allowedMerchantCountries", "Pays bloqués=blockedMerchantCountries",
		"Sans contact=allowContactless", "Retraits DAB=allowAtm", "Paiements en ligne=allowECommerce", "Autoriser le cashback=allowCashback",
		"Autoriser les crédits=allowCreditAuthorisations", "Reporter le solde négatif=rolloverPolicy.rolloverNegative",
		"Plafond=spendLimit[0].value.amount", "Devise du plafond=spendLimit[0].value.currency", "Périodicité=spendLimit[0].interval",
		"Début du plafond=spendLimit[0].startTimestamp", "Montant minimum par transaction=minTransactionAmount",
		"Montant maximum par transaction=maxTransactionAmount", "Méthode de mise à jour=updateSpendLimitMethod"}},
}

// split returns a header row's headers and the field each fills.
func (r headerRow) split() (headers []string, want map[string]string) {
	want = make(map[string]string)
	for _, hw := range r.want {
		i := len(hw) - 1
		for hw[i] != '=' {
			i--
		}
		headers = append(headers, hw[:i])
		want[hw[:i]] = hw[i+1:]
	}
	return headers, want
}

// Every field of every kind is read from the headers operators write in
// English, German and French, each header to its one field.
func TestHeadersOfEveryLanguageMapToTheirFields(t *testing.T) {
	for _, r := range headerRows {
		t.Run(r.kind+"/"+r.lang+"/"+r.source, func(t *testing.T) {
			headers, want := r.split()
			got := mapped(t, r.kind, headers)
			for _, h := range headers {
				if f := got[h].Field; f != want[h] {
					t.Errorf("%q maps to %q, want %q (suggestions %v)", h, f, want[h], got[h].Suggestions)
				}
			}
		})
	}
}

// Every field of every kind has a German and a French header among
// headerRows, pathParams and fields the template alone writes aside.
func TestEveryFieldHasGermanAndFrenchHeaders(t *testing.T) {
	covered := map[string]map[string]bool{}
	for _, r := range headerRows {
		_, want := r.split()
		for _, f := range want {
			key := r.kind + " " + f
			if covered[key] == nil {
				covered[key] = map[string]bool{}
			}
			covered[key][r.lang] = true
		}
	}
	for _, k := range kindFields() {
		// The account details of a wire come in two forms: the flat
		// one takes the headers, the nested one is the operator's pick.
		if strings.Contains(k, ".bankAccountDetails.") {
			continue
		}
		for _, l := range []string{"de", "fr"} {
			if !covered[k][l] {
				t.Errorf("%s: no %s header", k, l)
			}
		}
	}
}

// kindFields are "kind field" for every field of every kind, as a
// column fills it: a list's first item, a date's whole object.
func kindFields() []string {
	var out []string
	v := schema.Default()
	for _, k := range schema.Kinds() {
		seen := map[string]bool{}
		for _, f := range v.Fields(k) {
			if f.Deprecated {
				continue
			}
			p := strings.ReplaceAll(f.Path, "[]", "[0]")
			for _, part := range []string{".year", ".month", ".day"} {
				if obj, ok := strings.CutSuffix(p, part); ok && strings.HasSuffix(obj, "dateOfBirth") {
					p = obj
				}
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, k.ID+" "+p)
			}
		}
	}
	return out
}

// Headers that could name more than one field, or a date that is not
// surely the day a payment runs, stay the operator's choice: they are
// not mapped, and the fields they may mean are offered first.
func TestUnsureHeadersAreOfferedNeverMapped(t *testing.T) {
	cases := []struct {
		kind, header string
		first        []string
	}{
		{"transfers", "Konto", []string{"source.id", "destination.id"}},
		{"transfers", "Compte", []string{"source.id", "destination.id"}},
		{"transfers", "Typ", []string{"source.type", "destination.type"}},
		{"transfers", "Datum", []string{"scheduledTimestamp"}},
		{"transfers", "Date", []string{"scheduledTimestamp"}},
		// A value date is when the money is credited, not when the
		// transfer runs; a booking date when the bank booked it.
		{"transfers", "Valuta", []string{"scheduledTimestamp"}},
		{"transfers", "Valutadatum", []string{"scheduledTimestamp"}},
		{"transfers", "Wertstellung", []string{"scheduledTimestamp"}},
		{"transfers", "Date de valeur", []string{"scheduledTimestamp"}},
		{"transfers", "Date valeur", []string{"scheduledTimestamp"}},
		{"transfers", "Value date", []string{"scheduledTimestamp"}},
		{"transfers", "Buchungsdatum", []string{"scheduledTimestamp"}},
		{"transfers", "Buchungstag", []string{"scheduledTimestamp"}},
		{"transfers", "Date comptable", []string{"scheduledTimestamp"}},
		{"transfers", "Date d'opération", []string{"scheduledTimestamp"}},
		{"transfers", "Fälligkeitsdatum", []string{"scheduledTimestamp"}},
		{"sends", "Date d'échéance", []string{"scheduledTimestamp"}},
		{"users", "Datum", []string{"dateOfBirth"}},
		{"card_spend_rules", "Datum", []string{"spendLimit[0].startTimestamp"}},
		{"outgoing_wire_transfers", "Wertstellung", []string{"scheduledTimestamp"}},
		{"outgoing_wire_transfers", "Konto", nil},
		{"outgoing_wire_transfers", "IBAN / Kontonummer", nil},
		{"outgoing_wire_transfers", "Land", nil},
		// A note may be the operator's own: it is not sent to the payee.
		{"transfers", "Notiz", nil},
		{"outgoing_wire_transfers", "Note", nil},
		// A spend rule's amounts are several: which one is the operator's call.
		{"card_spend_rules", "Betrag", nil},
		{"card_spend_rules", "Montant", nil},
	}
	for _, c := range cases {
		got := mapped(t, c.kind, []string{c.header})[c.header]
		if got.Field != "" {
			t.Errorf("%s: %q maps to %q", c.kind, c.header, got.Field)
		}
		if len(got.Suggestions) < len(c.first) || !slices.Equal(got.Suggestions[:len(c.first)], c.first) {
			t.Errorf("%s: %q suggests %v, want %v first", c.kind, c.header, got.Suggestions, c.first)
		}
	}
}

// A workbook's sheet of transfers is found by its German or French
// headers, past a cover sheet that sums them up.
func TestTheSheetIsChosenByGermanAndFrenchHeaders(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	for _, tc := range []struct {
		cover, data []string
	}{
		{[]string{"Konto", "Betrag"}, []string{"Profil-ID", "Quellkonto", "Zielkonto", "Whg.", "Betr.", "VWZ"}},
		{[]string{"Compte", "Montant"}, []string{"ID profil", "Compte à débiter", "Compte à créditer", "Code devise", "Mnt", "Libellé"}},
	} {
		f := openBook(t, xlsxgen.Book{Sheets: []xlsxgen.Sheet{
			paymentsSheet("Übersicht", 1, tc.cover, 1), paymentsSheet("Zahlungen", 2, tc.data, 3),
		}})
		if name, d := f.ChooseSheet(k, v); name != "Zahlungen" || d.How != reading.Detected {
			t.Errorf("%q: chose %q, %+v", tc.data, name, d)
		}
	}
}
