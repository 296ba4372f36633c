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

// The sides of a payment, as the first segment of a field's path says.
const (
	sideSource      = "source"
	sideDestination = "destination"
)

// sideWords are words, folded (see foldWord), that name a side.
var sideWords = map[string]string{
	// English
	"from": sideSource, "source": sideSource, "src": sideSource, "payer": sideSource, "debtor": sideSource,
	"sender": sideSource, "debit": sideSource, "origin": sideSource, "originator": sideSource,
	"to": sideDestination, "destination": sideDestination, "dest": sideDestination, "payee": sideDestination,
	"beneficiary": sideDestination, "recipient": sideDestination, "creditor": sideDestination, "receiver": sideDestination,
	// German
	"von": sideSource, "absender": sideSource, "auftraggeber": sideSource, "zahler": sideSource, "quelle": sideSource,
	"an": sideDestination, "nach": sideDestination, "empfanger": sideDestination, "empfaenger": sideDestination,
	"zahlungsempfanger": sideDestination, "zahlungsempfaenger": sideDestination, "begunstigter": sideDestination,
	"beguenstigter": sideDestination, "ziel": sideDestination,
	// French
	"emetteur": sideSource, "payeur": sideSource, "debiteur": sideSource, "expediteur": sideSource, "origine": sideSource,
	"donneur":      sideSource,
	"beneficiaire": sideDestination, "destinataire": sideDestination, "crediteur": sideDestination, "vers": sideDestination,
}

// hintWords name a role too, but are also the words of other things ("Total"
// labels a sum row, "Value date" is a date): they suggest, never map.
var hintWords = map[string]string{
	"sum": roleAmount, "value": roleAmount, "total": roleAmount,
	"summe": roleAmount, "wert": roleAmount,
	"somme": roleAmount, "valeur": roleAmount,
}

// The roles a header can name.
const (
	roleType        = "type"
	roleID          = "id"
	roleName        = "name"
	roleIBAN        = "iban"
	roleBIC         = "bic"
	roleAmount      = "amount"
	roleCurrency    = "currency"
	roleDescription = "description"
)

// roleWords are words, folded, that name what of a side a header holds.
var roleWords = map[string]string{
	// English
	"type": roleType, "kind": roleType,
	"account": roleID, "acct": roleID, "id": roleID, "identifier": roleID, "wallet": roleID,
	"name": roleName,
	"iban": roleIBAN, "bic": roleBIC, "swift": roleBIC,
	"amount":   roleAmount,
	"currency": roleCurrency, "ccy": roleCurrency, "cur": roleCurrency,
	"reference": roleDescription, "ref": roleDescription, "description": roleDescription, "memo": roleDescription,
	"purpose": roleDescription, "remittance": roleDescription, "narrative": roleDescription,
	// German
	"typ": roleType, "art": roleType,
	"konto": roleID, "kontonummer": roleID, "kontoid": roleID,
	"betrag":  roleAmount,
	"wahrung": roleCurrency, "waehrung": roleCurrency,
	"verwendungszweck": roleDescription, "zweck": roleDescription, "referenz": roleDescription, "beschreibung": roleDescription,
	"buchungstext": roleDescription,
	// French
	"compte": roleID, "identifiant": roleID,
	"nom":     roleName,
	"montant": roleAmount,
	"devise":  roleCurrency, "monnaie": roleCurrency,
	"libelle": roleDescription, "motif": roleDescription, "objet": roleDescription, "communication": roleDescription,
}

// roleFields are the last segments of the paths a role fills.
var roleFields = map[string][]string{
	roleType:        {"type"},
	roleID:          {"id"},
	roleName:        {"name"},
	roleIBAN:        {"iban"},
	roleBIC:         {"bankIdentifierCode"},
	roleDescription: {"description"},
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
	note := func(into *string, v string) {
		switch {
		case *into == "":
			*into = v
		case *into != v:
			m.unclear = true
		}
	}
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
		if side != "" {
			note(&m.side, side)
		}
		if role != "" {
			note(&m.role, role)
		}
	}
	return m
}

// compound reads a word made of two, as German writes them: a side and a
// role ("empfangerkonto"), or anything ending in a role word of five
// letters or more ("uberweisungsbetrag").
func compound(w string) (side, role string) {
	for i := 2; i <= len(w)-2; i++ {
		head, tail := w[:i], w[i:]
		if s, ok := sideWords[head]; ok && len(head) >= 4 {
			if r, ok := roleWords[tail]; ok {
				return s, r
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

// headerWords splits a header into folded words: at spaces and
// punctuation and where a lower-case letter meets an upper-case one
// ("fromAccount"), leaving out parenthesised notes ("Montant (EUR)").
func headerWords(h string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
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
// without them ("Waehrung" is listed on its own).
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
	var out []string
	for _, f := range m.cat.fields {
		side := sideOf(f.Path)
		if f.Deprecated || side == "" || (mn.side != "" && side != mn.side) {
			continue
		}
		last := f.Path[strings.LastIndex(f.Path, ".")+1:]
		for _, want := range roleFields[mn.role] {
			if last == want {
				out = append(out, f.Path)
			}
		}
	}
	if p, ok := m.alias[mn.role]; ok && len(out) > 1 && slices.Contains(out, p) {
		return []string{p}
	}
	return out
}
