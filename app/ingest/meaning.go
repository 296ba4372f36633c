package ingest

import (
	"slices"
	"strings"
	"unicode"
)

// Headers are matched by meaning as well as by spelling: "From account",
// "Auftraggeberkonto" and "compte émetteur" name the same field of a
// transfer. A header's words say which side of the payment it names (the
// payer's or the payee's) and what of it (its type, account, amount…);
// the kind's fields with that side and role are its candidates. A header
// maps by meaning only when exactly one field fits: otherwise the
// candidates are offered to the operator, who decides.
//
// Words are compared folded (see headerWords): lower case, without
// accents, with German umlauts written out read as written with them
// ("Waehrung" is "Währung").

// The sides of a payment, as the first segment of a field's path says.
const (
	sideSource      = "source"
	sideDestination = "destination"
)

// sideWords are words that name a side, with German genitives ("Name des
// Empfängers") and the abbreviations of bank forms ("Empf.", "Bénéf.").
var sideWords = foldedKeys(map[string]string{
	// English
	"from": sideSource, "source": sideSource, "src": sideSource, "payer": sideSource, "debtor": sideSource,
	"sender": sideSource, "debit": sideSource, "origin": sideSource, "originator": sideSource, "ordering": sideSource,
	"to": sideDestination, "destination": sideDestination, "dest": sideDestination, "payee": sideDestination,
	"beneficiary": sideDestination, "recipient": sideDestination, "creditor": sideDestination, "receiver": sideDestination,
	"counterparty": sideDestination,
	// German
	"von": sideSource, "absender": sideSource, "absenders": sideSource, "auftraggeber": sideSource, "auftraggebers": sideSource,
	"auftr": sideSource, "zahler": sideSource, "zahlers": sideSource, "quelle": sideSource, "quell": sideSource,
	"belastung": sideSource, "belastet": sideSource,
	"an": sideDestination, "nach": sideDestination, "empfänger": sideDestination, "empfängers": sideDestination,
	"empf": sideDestination, "zahlungsempfänger": sideDestination, "zahlungsempfängers": sideDestination,
	"begünstigter": sideDestination, "begünstigten": sideDestination, "ziel": sideDestination, "gegen": sideDestination,
	// French
	"émetteur": sideSource, "payeur": sideSource, "débiteur": sideSource, "expéditeur": sideSource, "origine": sideSource,
	"donneur": sideSource, "débiter": sideSource, "débité": sideSource,
	"bénéficiaire": sideDestination, "bénéf": sideDestination, "destinataire": sideDestination, "créditeur": sideDestination,
	"vers": sideDestination, "créditer": sideDestination, "crédité": sideDestination,
})

// hintWords name a role too, but are also the words of other things ("Total"
// labels a sum row, "Value date" is a date): they suggest, never map.
var hintWords = foldedKeys(map[string]string{
	"sum": roleAmount, "value": roleAmount, "total": roleAmount,
	"summe": roleAmount, "wert": roleAmount,
	"somme": roleAmount, "valeur": roleAmount,
})

// The roles a header can name.
const (
	roleType          = "type"
	roleID            = "id"
	roleName          = "name"
	roleIBAN          = "iban"
	roleBIC           = "bic"
	roleAmount        = "amount"
	roleCurrency      = "currency"
	roleDescription   = "description"
	roleAddress       = "address"
	roleAccountNumber = "accountNumber"
	roleBirth         = "birth"
	roleBankName      = "bankName"
	roleBankAddress   = "bankAddress"
	roleBankCountry   = "bankCountry"
	// Qualifiers: words that say what of another role is meant ("Name
	// der Bank", "Konto-Nr."), or alone at most a bank's name.
	roleBank    = "bank"
	roleNumber  = "number"
	roleCountry = "country"
)

// roleWords are words that name what of a side a header holds. A note
// ("Notiz", "Note") is not among them: it may be the operator's own, and
// a description goes to the payee.
var roleWords = foldedKeys(map[string]string{
	// English
	"type": roleType, "kind": roleType,
	"account": roleID, "acct": roleID, "id": roleID, "identifier": roleID, "wallet": roleID,
	"name": roleName, "holder": roleName,
	"iban": roleIBAN, "bic": roleBIC, "swift": roleBIC,
	"amount":   roleAmount,
	"currency": roleCurrency, "ccy": roleCurrency, "cur": roleCurrency,
	"reference": roleDescription, "ref": roleDescription, "description": roleDescription, "memo": roleDescription,
	"purpose": roleDescription, "remittance": roleDescription, "narrative": roleDescription,
	"address": roleAddress, "birth": roleBirth, "birthdate": roleBirth, "dob": roleBirth,
	"bank": roleBank, "number": roleNumber, "no": roleNumber, "country": roleCountry,
	// German
	"typ": roleType, "art": roleType, "kontotyp": roleType, "kontoart": roleType,
	"konto": roleID, "kontos": roleID, "kto": roleID, "kontoid": roleID,
	"inhaber": roleName, "kontoinhaber": roleName,
	"kontonummer": roleAccountNumber, "kontonr": roleAccountNumber,
	"betrag": roleAmount, "betr": roleAmount,
	"währung": roleCurrency, "whg": roleCurrency, "wkz": roleCurrency, "währungscode": roleCurrency,
	"währungskennzeichen": roleCurrency,
	"verwendungszweck":    roleDescription, "vwz": roleDescription, "zweck": roleDescription, "referenz": roleDescription,
	"beschreibung": roleDescription, "buchungstext": roleDescription, "mitteilung": roleDescription,
	"nachricht": roleDescription,
	"adresse":   roleAddress, "anschrift": roleAddress,
	"geburtsdatum": roleBirth, "gebdatum": roleBirth, "geburtstag": roleBirth, "geboren": roleBirth,
	"kreditinstitut": roleBank, "nummer": roleNumber, "nr": roleNumber, "land": roleCountry, "landes": roleCountry,
	// French
	"compte": roleID, "identifiant": roleID,
	"nom": roleName, "titulaire": roleName,
	"montant": roleAmount, "mnt": roleAmount,
	"devise": roleCurrency, "dev": roleCurrency, "monnaie": roleCurrency,
	"libellé": roleDescription, "lib": roleDescription, "motif": roleDescription, "objet": roleDescription,
	"communication": roleDescription, "intitulé": roleDescription,
	"naissance": roleBirth,
	"banque":    roleBank, "établissement": roleBank, "numéro": roleNumber, "num": roleNumber, "n": roleNumber,
	"pays": roleCountry,
})

// roleFields are the last segments of the paths a role fills.
var roleFields = map[string][]string{
	roleType:          {"type"},
	roleID:            {"id"},
	roleName:          {"name"},
	roleIBAN:          {"iban"},
	roleBIC:           {"bankIdentifierCode"},
	roleDescription:   {"description"},
	roleAddress:       {"address"},
	roleAccountNumber: {"accountNumber"},
	roleBirth:         {"dateOfBirth"},
	roleBankName:      {"bankName"},
	roleBankAddress:   {"bankAddress"},
	roleBankCountry:   {"bankCountry"},
}

// qualified says what two roles of one header name together: the type of
// an account ("Type de compte") is a type, its holder ("Titulaire du
// compte") a name, the name of a bank ("Name der Bank") the bank's name.
// Roles without an entry conflict.
var qualified = map[[2]string]string{
	{roleType, roleID}:              roleType,
	{roleName, roleID}:              roleName,
	{roleNumber, roleID}:            roleAccountNumber,
	{roleNumber, roleAccountNumber}: roleAccountNumber,
	{roleBank, roleName}:            roleBankName,
	{roleBank, roleAddress}:         roleBankAddress,
	{roleBank, roleCountry}:         roleBankCountry,
	{roleBank, roleBIC}:             roleBIC,
	{roleBank, roleIBAN}:            roleIBAN,
	{roleBank, roleID}:              roleID,
	{roleBank, roleAccountNumber}:   roleAccountNumber,
	{roleCountry, roleBankCountry}:  roleBankCountry,
}

// combine is the role two roles name together, "" when they conflict.
func combine(a, b string) string {
	switch {
	case a == "" || a == b:
		return b
	case b == "":
		return a
	}
	if r, ok := qualified[[2]string{a, b}]; ok {
		return r
	}
	return qualified[[2]string{b, a}]
}

// A meaning is what a header's words say: a side ("" when none) and a
// role ("" when none). Conflicting words make it unclear.
type meaning struct {
	side, role string
	unclear    bool
}

// meaningOf reads a header's words; with hints, a hint word that is the
// whole header counts too.
func meaningOf(header string, hints bool) meaning {
	var m meaning
	words := headerWords(header)
	for _, w := range words {
		side, role := sideWords[w], roleWords[w]
		// A hint word counts alone: "Value" may be an amount, "Value
		// date" is not.
		if role == "" && hints && len(words) == 1 {
			role = hintWords[w]
		}
		if side == "" && role == "" {
			side, role = compound(w)
		}
		switch {
		case side == "":
		case m.side == "":
			m.side = side
		case m.side != side:
			m.unclear = true
		}
		if role != "" {
			r := combine(m.role, role)
			if r == "" {
				m.unclear = true
			}
			m.role = r
		}
	}
	// A qualifier alone names at most a bank: "Bank", "Banque".
	switch m.role {
	case roleBank:
		m.role = roleBankName
	case roleNumber, roleCountry:
		m.role = ""
	}
	return m
}

// compound reads a word made of two or three, as German writes them: a
// side and a role ("empfängerkonto", "empfängerkontotyp"), two roles
// that qualify each other ("bankname", "kontotyp"), or anything ending
// in a role word of five letters or more ("überweisungsbetrag").
func compound(w string) (side, role string) {
	for i := 2; i <= len(w)-2; i++ {
		head, tail := w[:i], w[i:]
		if s, ok := sideWords[head]; ok && len(head) >= 4 {
			if r, ok := roleWords[tail]; ok {
				return s, r
			}
			if ts, r := compound(tail); ts == "" && r != "" {
				return s, r
			}
		}
		if hr, ok := roleWords[head]; ok && len(head) >= 4 {
			if r := combine(hr, roleWords[tail]); roleWords[tail] != "" && r != "" && r != hr {
				return "", r
			}
		}
		if r, ok := roleWords[tail]; ok && len(tail) >= 5 {
			if s, ok := sideWords[head]; ok {
				return s, r
			}
			return "", r
		}
	}
	return "", ""
}

// foldedKeys returns words with their keys folded as headerWords folds a
// header's words.
func foldedKeys(words map[string]string) map[string]string {
	out := make(map[string]string, len(words))
	for k, v := range words {
		out[foldSpelling(foldWord(k))] = v
	}
	return out
}

// headerWords splits a header into folded words (foldWord, then
// foldSpelling): at spaces and punctuation and where a lower-case letter
// meets an upper-case one ("fromAccount"), leaving out parenthesised
// notes ("Montant (EUR)").
func headerWords(h string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, foldSpelling(b.String()))
			b.Reset()
		}
	}
	depth := 0
	var prev rune
	for _, r := range h {
		switch {
		case r == '(':
			depth++
			flush()
		case r == ')':
			depth = max(0, depth-1)
		case depth > 0:
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			b.WriteString(foldWord(string(unicode.ToLower(r))))
		default:
			flush()
		}
		prev = r
	}
	flush()
	return words
}

// foldWord writes accented Latin letters without their accents, and ß as
// ss, so that "Währung", "Wahrung" and "bénéficiaire" read as written
// without them (foldSpelling reads "Waehrung").
func foldWord(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r > unicode.MaxASCII }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'ä', 'à', 'á', 'â', 'ã', 'å':
			b.WriteByte('a')
		case 'ö', 'ò', 'ó', 'ô', 'õ':
			b.WriteByte('o')
		case 'ü', 'ù', 'ú', 'û':
			b.WriteByte('u')
		case 'é', 'è', 'ê', 'ë':
			b.WriteByte('e')
		case 'í', 'ì', 'î', 'ï':
			b.WriteByte('i')
		case 'ç':
			b.WriteByte('c')
		case 'ñ':
			b.WriteByte('n')
		case 'ß':
			b.WriteString("ss")
		case 'œ':
			b.WriteString("oe")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// spelledOut reads German umlauts written out ("ae", "oe", "ue") as the
// letters foldWord leaves of them.
var spelledOut = strings.NewReplacer("ae", "a", "oe", "o", "ue", "u")

// foldSpelling reads umlauts written out as written with them, once
// accents are folded: "waehrung" and "währung" are both "wahrung". A few
// words of other languages change too ("value" reads "valu"), the same
// way on both sides of every comparison.
func foldSpelling(s string) string {
	if !strings.Contains(s, "e") {
		return s
	}
	return spelledOut.Replace(s)
}

// sideOf is the side of the payment a field's path names, "" for neither
// (an amount object is the payment's, not a side's).
func sideOf(path string) string {
	first, _, _ := strings.Cut(path, ".")
	switch first {
	case "source", "sourceInstrument":
		return sideSource
	case "destination", "destinationBeneficiary":
		return sideDestination
	}
	return ""
}

// byMeaning returns the fields of the kind a header's meaning fits. The
// amount, currency and description are the payment's own; the other
// roles are fields of the side the header names, or of either side when
// it names none. Of several fields, the one the role's own name maps to
// ("IBAN") is the one meant. With hints, hintWords count (suggestions).
func (m *matcher) byMeaning(header string, hints bool) []string {
	mn := meaningOf(header, hints)
	if mn.unclear || mn.role == "" {
		return nil
	}
	own := func(p string) []string {
		if _, err := m.cat.resolve(p); err != nil {
			return nil
		}
		return []string{p}
	}
	switch mn.role {
	case roleAmount, roleCurrency:
		if m.cat.kind.Amount == "" {
			return nil
		}
		return own(m.cat.kind.Amount + "." + mn.role)
	case roleDescription:
		return own("description")
	}
	out := m.sideFields(mn, mn.role)
	if len(out) == 0 && mn.role == roleAccountNumber {
		// A kind without account numbers: the account is its id.
		out = m.sideFields(mn, roleID)
	}
	if p, ok := m.alias[normalizeHeader(mn.role)]; ok && len(out) > 1 && slices.Contains(out, p) {
		return []string{p}
	}
	return out
}

// sideFields are the fields of a side of the payment, of the side mn
// names or of either, that role fills.
func (m *matcher) sideFields(mn meaning, role string) []string {
	var out []string
	for _, f := range m.cat.fields {
		side := sideOf(f.Path)
		if f.Deprecated || side == "" || (mn.side != "" && side != mn.side) {
			continue
		}
		last := f.Path[strings.LastIndex(f.Path, ".")+1:]
		for _, want := range roleFields[role] {
			if last == want {
				out = append(out, f.Path)
			}
		}
	}
	return out
}
