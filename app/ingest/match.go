package ingest

import (
	"slices"
	"strings"
	"unicode"

	"github.com/bulkdesk/bulkdesk/schema"
)

// normalizeHeader reduces a header to what matching compares: lower case,
// without accents and with umlauts written out read as written with them
// (see foldWord, foldSpelling), without spaces, '_', '-', '.', ':', '/',
// apostrophes, '#', '°', the '*' that marks required columns in
// templates, and parenthesised notes such as "(minor units)".
func normalizeHeader(h string) string {
	var b strings.Builder
	depth := 0
	for _, r := range h {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth = max(0, depth-1)
		case depth > 0:
		case strings.ContainsRune(" _-.:/*#°'’`\u00a0", r) || unicode.IsSpace(r):
		default:
			b.WriteString(foldWord(string(unicode.ToLower(r))))
		}
	}
	return foldSpelling(b.String())
}

// aliases are the headers operators commonly give the fields of each
// kind, in English, German and French, written as they write them (with
// or without accents, umlauts written out or not, abbreviated): they are
// compared normalized (normalizeHeader) and applied automatically, like
// exact paths, where the kind has the field. A header whose words say
// which side of the payment and what of it ("Konto Empfänger", "IBAN du
// bénéficiaire") needs no entry: its meaning maps it (meaning.go).
//
// "?amount" and "?currency" stand for the kind's amount and its
// currency, "?source.…" for a field of its source instrument.
var aliases = map[string]map[string]string{
	"*": {
		"Profile": "profileId", "Profile no": "profileId",
		"Profil": "profileId", "Profil-ID": "profileId", "Profil-Nr.": "profileId", "Profilnummer": "profileId",
		"Profilkennung": "profileId", "ID Profil": "profileId",
		"ID profil": "profileId", "ID du profil": "profileId", "Identifiant de profil": "profileId",
		"Identifiant du profil": "profileId", "Identifiant profil": "profileId", "Numéro de profil": "profileId",
		"Etikett": "tag", "Markierung": "tag", "Schlagwort": "tag", "Étiquette": "tag", "Marqueur": "tag",
		"ccy": "?currency", "Currency code": "?currency", "Währungscode": "?currency", "Code devise": "?currency",
		"amount":         "?amount",
		"Source account": "?source.id", "Source account type": "?source.type",
		"Quellkonto": "?source.id", "Quelltyp": "?source.type", "Belastungskonto": "?source.id",
		"Compte à débiter": "?source.id", "Compte débité": "?source.id", "Compte source": "?source.id",
		// The day a payment runs. Other dates (value date, booking date,
		// due date) are offered, never mapped: see unsureDates.
		"Execution date": "scheduledTimestamp", "Scheduled date": "scheduledTimestamp", "Scheduled for": "scheduledTimestamp",
		"Payment date": "scheduledTimestamp", "Requested execution date": "scheduledTimestamp", "Execute on": "scheduledTimestamp",
		"Ausführungsdatum": "scheduledTimestamp", "Ausf.-Datum": "scheduledTimestamp", "Ausführungstermin": "scheduledTimestamp",
		"Ausführung am": "scheduledTimestamp", "Ausführen am": "scheduledTimestamp", "Ausführung": "scheduledTimestamp",
		"Ausführungstag": "scheduledTimestamp", "Ausführungszeitpunkt": "scheduledTimestamp",
		"Gewünschtes Ausführungsdatum": "scheduledTimestamp", "Geplantes Ausführungsdatum": "scheduledTimestamp",
		"Geplant für": "scheduledTimestamp", "Zahlungsdatum": "scheduledTimestamp", "Zahlungstermin": "scheduledTimestamp",
		"Überweisungsdatum": "scheduledTimestamp", "Überweisungstermin": "scheduledTimestamp",
		"Date d'exécution": "scheduledTimestamp", "Date exécution": "scheduledTimestamp",
		"Date d'exécution souhaitée": "scheduledTimestamp", "Date d'exécution demandée": "scheduledTimestamp",
		"Exécution le": "scheduledTimestamp", "Date prévue": "scheduledTimestamp", "Date programmée": "scheduledTimestamp",
		"Date de paiement": "scheduledTimestamp", "Date du virement": "scheduledTimestamp", "Date de virement": "scheduledTimestamp",
	},
	"transfers": {
		"reference": "description",
		"from":      "source.id",
		"to":        "destination.id",
	},
	"sends": {
		"reference":     "description",
		"from":          "source.id",
		"beneficiaryid": "destination.beneficiaryId",
		"beneficiary":   "destination.beneficiaryId",
		// German and French for the payee, as a send names it.
		"Empfänger": "destination.beneficiaryId", "Zahlungsempfänger": "destination.beneficiaryId",
		"Begünstigter": "destination.beneficiaryId", "Bénéficiaire": "destination.beneficiaryId",
		"Destinataire": "destination.beneficiaryId",
		"Empfänger-ID": "destination.beneficiaryId", "Empfängerkennung": "destination.beneficiaryId",
		"Begünstigten-ID": "destination.beneficiaryId", "ID Begünstigter": "destination.beneficiaryId",
		"ID bénéficiaire": "destination.beneficiaryId", "ID du bénéficiaire": "destination.beneficiaryId",
		"Identifiant bénéficiaire": "destination.beneficiaryId", "Identifiant du bénéficiaire": "destination.beneficiaryId",
	},
	"outgoing_wire_transfers": {
		"sourceid":        "sourceInstrument.id",
		"sourceaccountid": "sourceInstrument.id",
		"from":            "sourceInstrument.id",
		"iban":            "destinationBeneficiary.iban",
		"bic":             "destinationBeneficiary.bankIdentifierCode",
		"swift":           "destinationBeneficiary.bankIdentifierCode",
		"swiftcode":       "destinationBeneficiary.bankIdentifierCode",
		"BIC/SWIFT":       "destinationBeneficiary.bankIdentifierCode", "SWIFT-BIC": "destinationBeneficiary.bankIdentifierCode",
		"beneficiary":     "destinationBeneficiary.name",
		"beneficiaryname": "destinationBeneficiary.name",
		"beneficiaryid":   "destinationBeneficiary.beneficiaryId",
		"accountnumber":   "destinationBeneficiary.accountNumber",
		"sortcode":        "destinationBeneficiary.sortCode",
		// German and French for the payee, by name.
		"Empfänger": "destinationBeneficiary.name", "Zahlungsempfänger": "destinationBeneficiary.name",
		"Begünstigter": "destinationBeneficiary.name", "Bénéficiaire": "destinationBeneficiary.name",
		"Destinataire": "destinationBeneficiary.name",
		"Empfänger-ID": "destinationBeneficiary.beneficiaryId", "Begünstigten-ID": "destinationBeneficiary.beneficiaryId",
		"ID bénéficiaire": "destinationBeneficiary.beneficiaryId", "Identifiant du bénéficiaire": "destinationBeneficiary.beneficiaryId",
		"Identifiant bénéficiaire": "destinationBeneficiary.beneficiaryId",
		"Externe Konto-ID":         "destinationBeneficiary.id", "ID du compte externe": "destinationBeneficiary.id",
		"Identifiant du compte externe": "destinationBeneficiary.id",
		"Zahlungsgrund":                 "purpose", "Zahlungszweck": "purpose", "Zweck der Zahlung": "purpose", "Purpose code": "purpose",
		"Motif économique": "purpose", "Raison du paiement": "purpose", "Code motif": "purpose",
		"Bankleitzahl": "destinationBeneficiary.sortCode", "BLZ": "destinationBeneficiary.sortCode",
		"Sekundärreferenz": "destinationBeneficiary.secondaryReference", "Zweitreferenz": "destinationBeneficiary.secondaryReference",
		"Zweite Referenz": "destinationBeneficiary.secondaryReference", "Référence secondaire": "destinationBeneficiary.secondaryReference",
		"Nationality": "destinationBeneficiary.nationality", "Staatsangehörigkeit": "destinationBeneficiary.nationality",
		"Nationalität": "destinationBeneficiary.nationality", "Nationalité": "destinationBeneficiary.nationality",
		"Date of birth": "destinationBeneficiary.dateOfBirth", "Geburtsdatum": "destinationBeneficiary.dateOfBirth",
		"Date de naissance": "destinationBeneficiary.dateOfBirth",
		"Beneficiary type":  "destinationBeneficiary.type", "Empfängerart": "destinationBeneficiary.type",
		"SWIFT account": "destinationBeneficiary.account", "SWIFT-Konto": "destinationBeneficiary.account",
		"Compte SWIFT": "destinationBeneficiary.account",
		"Code guichet": "destinationBeneficiary.sortCode", "Code de tri": "destinationBeneficiary.sortCode",
	},
	"users": {
		"firstname":         "name",
		"givenname":         "name",
		"lastname":          "surname",
		"familyname":        "surname",
		"mobile":            "mobile.number",
		"mobilenumber":      "mobile.number",
		"phone":             "mobile.number",
		"phonenumber":       "mobile.number",
		"countrycode":       "mobile.countryCode",
		"dialcode":          "mobile.countryCode",
		"dateofbirth":       "dateOfBirth",
		"dob":               "dateOfBirth",
		"birthdate":         "dateOfBirth",
		"birthday":          "dateOfBirth",
		"country":           "countryOfResidence",
		"residence":         "countryOfResidence",
		"role":              "roles",
		"emailaddress":      "email",
		"mobilecountrycode": "mobile.countryCode",
		"Language":          "locale",
		// German
		"Vorname": "name", "Nachname": "surname", "Familienname": "surname", "Zuname": "surname",
		"E-Mail-Adresse": "email", "Mail": "email",
		"Telefon": "mobile.number", "Telefonnummer": "mobile.number", "Tel.": "mobile.number", "Handy": "mobile.number",
		"Handynummer": "mobile.number", "Mobilnummer": "mobile.number", "Mobiltelefon": "mobile.number",
		"Mobiltelefonnummer": "mobile.number", "Mobilfunknummer": "mobile.number", "Mobil": "mobile.number",
		"Vorwahl": "mobile.countryCode", "Landesvorwahl": "mobile.countryCode", "Ländervorwahl": "mobile.countryCode",
		"Geburtsdatum": "dateOfBirth", "Geb.-Datum": "dateOfBirth", "Geburtstag": "dateOfBirth",
		"Land": "countryOfResidence", "Wohnsitzland": "countryOfResidence", "Wohnsitz": "countryOfResidence",
		"Aufenthaltsland": "countryOfResidence", "Land des Wohnsitzes": "countryOfResidence",
		"Sprache": "locale", "Gebietsschema": "locale", "Marke": "brand",
		"Rolle": "roles", "Rollen": "roles", "Berechtigung": "roles", "Berechtigungen": "roles",
		// French
		"Prénom": "name", "Nom": "surname", "Nom de famille": "surname",
		"Courriel": "email", "Adresse mail": "email", "Adresse e-mail": "email", "Adresse courriel": "email",
		"Adresse électronique": "email", "Mél": "email",
		"Téléphone": "mobile.number", "Tél.": "mobile.number", "Numéro de téléphone": "mobile.number",
		"Portable": "mobile.number", "Téléphone portable": "mobile.number", "Numéro de portable": "mobile.number",
		"Numéro de mobile": "mobile.number",
		"Indicatif":        "mobile.countryCode", "Indicatif pays": "mobile.countryCode", "Indicatif du pays": "mobile.countryCode",
		"Indicatif téléphonique": "mobile.countryCode",
		"Date de naissance":      "dateOfBirth", "Né le": "dateOfBirth",
		"Pays": "countryOfResidence", "Pays de résidence": "countryOfResidence",
		"Langue": "locale", "Paramètres régionaux": "locale", "Marque": "brand",
		"Rôle": "roles", "Rôles": "roles",
	},
	"card_spend_rules": {
		"Erlaubte Händlerkategorien": "allowedMerchantCategories", "Zulässige Händlerkategorien": "allowedMerchantCategories",
		"Erlaubte MCC": "allowedMerchantCategories", "Catégories de commerçants autorisées": "allowedMerchantCategories",
		"Catégories autorisées": "allowedMerchantCategories", "MCC autorisés": "allowedMerchantCategories",
		"Gesperrte Händlerkategorien": "blockedMerchantCategories", "Blockierte Händlerkategorien": "blockedMerchantCategories",
		"Gesperrte MCC": "blockedMerchantCategories", "Catégories de commerçants bloquées": "blockedMerchantCategories",
		"Catégories bloquées": "blockedMerchantCategories", "MCC bloqués": "blockedMerchantCategories",
		"Erlaubte Händler-IDs": "allowedMerchantIds", "Erlaubte Händler": "allowedMerchantIds",
		"Commerçants autorisés": "allowedMerchantIds", "Identifiants de commerçants autorisés": "allowedMerchantIds",
		"Gesperrte Händler-IDs": "blockedMerchantIds", "Gesperrte Händler": "blockedMerchantIds",
		"Commerçants bloqués": "blockedMerchantIds", "Identifiants de commerçants bloqués": "blockedMerchantIds",
		"Erlaubte Händlerländer": "allowedMerchantCountries", "Erlaubte Länder": "allowedMerchantCountries",
		"Pays autorisés": "allowedMerchantCountries", "Pays de commerçants autorisés": "allowedMerchantCountries",
		"Gesperrte Händlerländer": "blockedMerchantCountries", "Gesperrte Länder": "blockedMerchantCountries",
		"Pays bloqués": "blockedMerchantCountries", "Pays de commerçants bloqués": "blockedMerchantCountries",
		"Contactless": "allowContactless", "Kontaktlos": "allowContactless", "Kontaktlos erlauben": "allowContactless",
		"Kontaktloses Bezahlen": "allowContactless", "Sans contact": "allowContactless",
		"Autoriser le sans contact": "allowContactless", "Paiement sans contact": "allowContactless",
		"ATM": "allowAtm", "Geldautomat": "allowAtm", "Geldautomat erlauben": "allowAtm", "Bargeldabhebung": "allowAtm",
		"Distributeur": "allowAtm", "Retraits DAB": "allowAtm", "Autoriser les retraits": "allowAtm",
		"E-Commerce": "allowECommerce", "Online": "allowECommerce", "Online-Zahlungen": "allowECommerce",
		"Online-Zahlungen erlauben": "allowECommerce", "E-Commerce erlauben": "allowECommerce",
		"Paiements en ligne": "allowECommerce", "Autoriser les paiements en ligne": "allowECommerce",
		"Cashback": "allowCashback", "Cashback erlauben": "allowCashback", "Autoriser le cashback": "allowCashback",
		"Gutschriften": "allowCreditAuthorisations", "Gutschriften erlauben": "allowCreditAuthorisations",
		"Crédits": "allowCreditAuthorisations", "Autoriser les crédits": "allowCreditAuthorisations",
		"Negativsaldo übertragen": "rolloverPolicy.rolloverNegative", "Überziehung übertragen": "rolloverPolicy.rolloverNegative",
		"Reporter le solde négatif": "rolloverPolicy.rolloverNegative", "Report du dépassement": "rolloverPolicy.rolloverNegative",
		"Spend limit": "spendLimit[0].value.amount", "Ausgabenlimit": "spendLimit[0].value.amount",
		"Limit": "spendLimit[0].value.amount", "Limitbetrag": "spendLimit[0].value.amount",
		"Plafond": "spendLimit[0].value.amount", "Plafond de dépenses": "spendLimit[0].value.amount",
		"Montant du plafond":   "spendLimit[0].value.amount",
		"Spend limit currency": "spendLimit[0].value.currency", "Limitwährung": "spendLimit[0].value.currency",
		"Währung des Limits": "spendLimit[0].value.currency", "Devise du plafond": "spendLimit[0].value.currency",
		"Spend limit interval": "spendLimit[0].interval", "Limitintervall": "spendLimit[0].interval",
		"Limitzeitraum": "spendLimit[0].interval", "Intervalle du plafond": "spendLimit[0].interval",
		"Période du plafond": "spendLimit[0].interval", "Périodicité": "spendLimit[0].interval",
		"Spend limit start": "spendLimit[0].startTimestamp", "Limit gültig ab": "spendLimit[0].startTimestamp",
		"Beginn des Limits": "spendLimit[0].startTimestamp", "Début du plafond": "spendLimit[0].startTimestamp",
		"Minimum amount": "minTransactionAmount", "Mindestbetrag": "minTransactionAmount",
		"Mindestbetrag pro Transaktion": "minTransactionAmount", "Mindestbetrag je Umsatz": "minTransactionAmount",
		"Montant minimum": "minTransactionAmount", "Montant minimum par transaction": "minTransactionAmount",
		"Montant min.":   "minTransactionAmount",
		"Maximum amount": "maxTransactionAmount", "Höchstbetrag": "maxTransactionAmount",
		"Höchstbetrag pro Transaktion": "maxTransactionAmount", "Maximalbetrag": "maxTransactionAmount",
		"Maximalbetrag pro Transaktion": "maxTransactionAmount", "Montant maximum": "maxTransactionAmount",
		"Montant maximum par transaction": "maxTransactionAmount", "Montant max.": "maxTransactionAmount",
		"Plafond par transaction": "maxTransactionAmount",
		"Limit-Aktualisierung":    "updateSpendLimitMethod", "Aktualisierungsmethode": "updateSpendLimitMethod",
		"Art der Limitänderung": "updateSpendLimitMethod", "Méthode de mise à jour": "updateSpendLimitMethod",
		"Mode de mise à jour du plafond": "updateSpendLimitMethod",
	},
}

// unsureDates are headers that name a date, but not surely the day a
// payment runs: a value date ("Valuta", "Date de valeur") is when the
// money is credited, a booking date when a bank booked it, a due date
// when it is owed, and "Datum" any of them. They are offered first for
// the kind's date fields, never mapped: which date the file holds is the
// operator's call. See unsureDateFields.
var unsureDates = []string{
	"Date", "Datum", "Date valeur", "Termin",
	"Value date", "Valuta", "Valutadatum", "Wertstellung", "Wertstellungsdatum", "Wertstellungstag", "Date de valeur",
	"Booking date", "Buchungsdatum", "Buchungstag", "Date comptable", "Date d'opération", "Date de l'opération",
	"Date de comptabilisation",
	"Due date", "Fälligkeit", "Fälligkeitsdatum", "Fällig am", "Date d'échéance", "Échéance",
}

// unsureDateFields are the fields an unsure date is offered for, where the
// kind has them.
var unsureDateFields = []string{"scheduledTimestamp", "spendLimit[0].startTimestamp", "dateOfBirth", "destinationBeneficiary.dateOfBirth"}

// pathParamNames are the friendly names of each path parameter.
var pathParamNames = map[string][]string{
	"_id_": {"id", "cardid", "card", "managedcardid", "managedcard",
		"Karten-ID", "Karte", "Kartenkennung", "ID Karte",
		"ID carte", "ID de la carte", "Identifiant carte", "Identifiant de la carte", "Carte"},
	"_user_id_": {"id", "userid", "user", "authorisedUserid", "authoriseduserid",
		"Benutzer-ID", "Benutzer", "Benutzerkennung", "Nutzer-ID", "Nutzer", "ID Benutzer",
		"ID utilisateur", "Identifiant utilisateur", "Identifiant de l'utilisateur", "Utilisateur"},
}

// A matcher maps header texts to targets for one kind.
type matcher struct {
	cat *catalog
	// exact maps normalized paths to paths; alias maps normalized aliases
	// and unique titles to paths.
	exact, alias map[string]string
	// listed are the targets offered to operators, with list positions 0.
	listed []string
	// unsure are the normalized headers of unsureDates.
	unsure map[string]bool
}

func newMatcher(cat *catalog) *matcher {
	m := &matcher{cat: cat, exact: make(map[string]string), alias: make(map[string]string)}
	titles := make(map[string][]string)
	for _, f := range cat.fields {
		if f.Deprecated {
			continue
		}
		p := strings.ReplaceAll(f.Path, "[]", "[0]")
		m.listed = append(m.listed, p)
		if !strings.Contains(f.Path, "[]") {
			m.exact[normalizeHeader(f.Path)] = f.Path
			if p, ok := strings.CutPrefix(f.Path, "pathParams."); ok {
				m.exact[normalizeHeader(p)] = f.Path
			}
		}
		titles[normalizeHeader(f.Title)] = append(titles[normalizeHeader(f.Title)], f.Path)
		// An amount object's name stands for its amount: "destinationAmount".
		if obj, ok := strings.CutSuffix(f.Path, ".amount"); ok && isAmount(f) && !strings.Contains(obj, "[]") {
			m.alias[normalizeHeader(obj)] = f.Path
		}
	}
	for obj := range cat.dateParts {
		m.exact[normalizeHeader(obj)] = obj
		m.listed = append(m.listed, obj)
	}
	slices.Sort(m.listed)
	for t, paths := range titles {
		if len(paths) == 1 && !strings.Contains(paths[0], "[]") {
			m.alias[t] = paths[0]
		}
	}
	if pp := cat.kind.PathParam; pp != "" {
		for _, n := range pathParamNames[pp] {
			m.alias[normalizeHeader(n)] = "pathParams." + pp
		}
	}
	for _, table := range []map[string]string{aliases["*"], aliases[cat.kind.ID]} {
		for a, p := range table {
			if p = kindPath(cat.kind, p); p == "" {
				continue
			}
			if _, err := cat.resolve(p); err == nil {
				m.alias[normalizeHeader(a)] = p
			}
		}
	}
	m.unsure = make(map[string]bool, len(unsureDates))
	for _, h := range unsureDates {
		m.unsure[normalizeHeader(h)] = true
	}
	m.addTemplateWords()
	return m
}

// kindPath is the path an alias's target names in kind k: "?amount" and
// "?currency" the kind's own amount and currency, "?source.id" a field of
// its source instrument; "" where the kind has none.
func kindPath(k *schema.Kind, p string) string {
	rest, ok := strings.CutPrefix(p, "?")
	switch {
	case !ok:
		return p
	case strings.HasPrefix(rest, "source."):
		if k.Source == "" {
			return ""
		}
		return k.Source + strings.TrimPrefix(rest, "source")
	case k.Amount == "":
		return ""
	}
	return k.Amount + "." + rest
}

// MatchKind says how a column came to be mapped.
type MatchKind string

// How a column is mapped.
const (
	// MatchExact: the header is the field's path.
	MatchExact MatchKind = "exact"
	// MatchAlias: the header is a common name of the field.
	MatchAlias MatchKind = "alias"
	// MatchManual: the operator or a saved mapping chose the field.
	MatchManual MatchKind = "manual"
	// MatchIgnored: a column Bulkdesk itself adds to exports ("Errors").
	MatchIgnored MatchKind = "ignored"
)

// How surely a header names the field it maps to.
const (
	byMeaning = 1 // its words say the side and the role
	byAlias   = 2 // it is a name of the field
	byPath    = 3 // it is the field's path
)

// match returns the target path a header maps to automatically, if any.
func (m *matcher) match(header string) (string, MatchKind) {
	p, kind, _ := m.find(header)
	return p, kind
}

// find is match with how surely the header names its field.
func (m *matcher) find(header string) (string, MatchKind, int) {
	n := normalizeHeader(header)
	if n == "" {
		return "", "", 0
	}
	if n == normalizeHeader(ErrorsColumn) {
		return "", MatchIgnored, 0
	}
	if p, ok := m.exact[n]; ok {
		return p, MatchExact, byPath
	}
	if p, ok := m.matchList(n); ok {
		return p, MatchExact, byPath
	}
	if p, ok := m.alias[n]; ok {
		return p, MatchAlias, byAlias
	}
	if m.unsure[n] {
		return "", "", 0
	}
	if ps := m.byMeaning(header, false); len(ps) == 1 {
		return ps[0], MatchAlias, byMeaning
	}
	return "", "", 0
}

// HeaderEvidence sums how surely the headers of the columns mapped
// automatically name their fields: 3 for a field's path, 2 for a name of
// the field, 1 for a header mapped by the meaning of its words alone.
// Kinds are suggested by it, after the count of columns they recognise:
// "Begünstigten-ID" names a send's beneficiary more surely than the
// account a transfer's payee's words would make of it.
func (im *Import) HeaderEvidence() int {
	n := 0
	for _, c := range im.p.mapping.Columns {
		if c.Match == MatchExact || c.Match == MatchAlias {
			if p, _, s := im.p.mt.find(c.Header); p == c.Field {
				n += s
			}
		}
	}
	return n
}

// matchList matches a header against the paths with list positions,
// "spendLimit[0].value.amount" or "spendLimit.0.value.amount".
func (m *matcher) matchList(n string) (string, bool) {
	for _, f := range m.cat.fields {
		if !strings.Contains(f.Path, "[]") {
			continue
		}
		parts := strings.Split(normalizeHeader(strings.ReplaceAll(f.Path, "[]", "\x00")), "\x00")
		rest := n
		var b strings.Builder
		ok := true
		for i, part := range parts {
			if !strings.HasPrefix(rest, part) {
				ok = false
				break
			}
			b.WriteString(f.Path[0:0])
			rest = rest[len(part):]
			if i == len(parts)-1 {
				break
			}
			rest = strings.TrimPrefix(rest, "[")
			j := 0
			for j < len(rest) && j < 3 && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			if j == 0 {
				ok = false
				break
			}
			b.WriteString(rest[:j])
			b.WriteByte(0)
			rest = strings.TrimPrefix(rest[j:], "]")
		}
		if !ok || rest != "" {
			continue
		}
		// Put the positions found into the field's path.
		idx := strings.Split(b.String(), "\x00")
		var out strings.Builder
		segs := strings.Split(f.Path, "[]")
		for i, s := range segs {
			out.WriteString(s)
			if i < len(segs)-1 {
				out.WriteString("[" + idx[i] + "]")
			}
		}
		return out.String(), true
	}
	return "", false
}

// suggest returns up to three targets a header might mean, best first.
func (m *matcher) suggest(header string) []string {
	n := normalizeHeader(header)
	if len(n) < 2 {
		return nil
	}
	words := strings.FieldsFunc(strings.ToLower(header), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	type scored struct {
		path  string
		score int
	}
	var out []scored
	for _, p := range m.listed {
		generic, _, _ := splitIndexes(p)
		f, isField := m.cat.byPath[generic]
		np := normalizeHeader(p)
		score := 0
		if d := editDistance(n, np); d <= max(1, len(np)/5) {
			score += 6 - d
		}
		last := np
		if i := strings.LastIndexAny(p, ".]"); i >= 0 {
			last = normalizeHeader(p[i+1:])
		}
		if len(last) >= 3 && strings.Contains(n, last) {
			score += 3
		}
		if isField {
			title := strings.ToLower(m.cat.fields[f].Title)
			for _, w := range words {
				if len(w) >= 3 && strings.Contains(title, w) {
					score++
				}
			}
			if d := editDistance(n, normalizeHeader(title)); d <= max(1, len(n)/5) {
				score += 4 - min(d, 3)
			}
		}
		for a, ap := range m.alias {
			if ap == p && editDistance(n, a) <= max(1, len(a)/5) {
				score += 3
			}
		}
		if score > 0 {
			out = append(out, scored{p, score})
		}
	}
	slices.SortStableFunc(out, func(a, b scored) int { return b.score - a.score })
	// The fields the header's meaning fits come first: spelling alone
	// takes "From type" for "destination.type" as readily as for
	// "source.type". An unsure date is offered for the kind's dates.
	paths := m.byMeaning(header, true)
	if m.unsure[n] {
		paths = m.dates()
	}
	for i := 0; i < len(out) && len(paths) < 3; i++ {
		if !slices.Contains(paths, out[i].path) {
			paths = append(paths, out[i].path)
		}
	}
	return paths[:min(len(paths), 3)]
}

// dates are the kind's fields of unsureDateFields.
func (m *matcher) dates() []string {
	var out []string
	for _, p := range unsureDateFields {
		if _, err := m.cat.resolve(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// editDistance is the Levenshtein distance, bounded for long texts.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 99
	}
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
