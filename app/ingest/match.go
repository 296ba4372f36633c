package ingest

import (
	"slices"
	"strings"
	"unicode"
)

// normalizeHeader reduces a header to what matching compares: lower case,
// without accents (see foldWord), without spaces, '_', '-', '.', the '*' that marks required columns in
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
		case r == ' ' || r == '_' || r == '-' || r == '.' || r == '*' || r == '\u00a0' || unicode.IsSpace(r):
		default:
			b.WriteString(foldWord(string(unicode.ToLower(r))))
		}
	}
	return b.String()
}

// aliases are the headers, normalized, that operators commonly give the
// fields of each kind. They are applied automatically, like exact paths.
var aliases = map[string]map[string]string{
	"*": {
		"profile": "profileId",
		"ccy":     "?currency",
		"amount":  "?amount",
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
		"empfanger": "destination.beneficiaryId", "empfaenger": "destination.beneficiaryId",
		"zahlungsempfanger": "destination.beneficiaryId", "begunstigter": "destination.beneficiaryId",
		"beneficiaire": "destination.beneficiaryId", "destinataire": "destination.beneficiaryId",
	},
	"outgoing_wire_transfers": {
		"sourceid":        "sourceInstrument.id",
		"sourceaccount":   "sourceInstrument.id",
		"sourceaccountid": "sourceInstrument.id",
		"from":            "sourceInstrument.id",
		"iban":            "destinationBeneficiary.iban",
		"bic":             "destinationBeneficiary.bankIdentifierCode",
		"swift":           "destinationBeneficiary.bankIdentifierCode",
		"swiftcode":       "destinationBeneficiary.bankIdentifierCode",
		"beneficiary":     "destinationBeneficiary.name",
		"beneficiaryname": "destinationBeneficiary.name",
		"beneficiaryid":   "destinationBeneficiary.beneficiaryId",
		"accountnumber":   "destinationBeneficiary.accountNumber",
		"sortcode":        "destinationBeneficiary.sortCode",
		// German and French for the payee, by name.
		"empfanger": "destinationBeneficiary.name", "empfaenger": "destinationBeneficiary.name",
		"zahlungsempfanger": "destinationBeneficiary.name", "begunstigter": "destinationBeneficiary.name",
		"beneficiaire": "destinationBeneficiary.name", "destinataire": "destinationBeneficiary.name",
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
		// German
		"vorname": "name", "nachname": "surname", "familienname": "surname",
		"emailadresse": "email", "mail": "email",
		"telefon": "mobile.number", "telefonnummer": "mobile.number", "handy": "mobile.number",
		"handynummer": "mobile.number", "mobilnummer": "mobile.number", "mobiltelefon": "mobile.number",
		"vorwahl": "mobile.countryCode", "landesvorwahl": "mobile.countryCode",
		"geburtsdatum": "dateOfBirth", "geburtstag": "dateOfBirth",
		"land": "countryOfResidence", "wohnsitzland": "countryOfResidence", "wohnsitz": "countryOfResidence",
		// French
		"prenom": "name", "nomdefamille": "surname",
		"courriel": "email", "adressemail": "email", "adresseemail": "email", "adressecourriel": "email",
		"telephone": "mobile.number", "numerodetelephone": "mobile.number", "portable": "mobile.number",
		"indicatif":       "mobile.countryCode",
		"datedenaissance": "dateOfBirth",
		"pays":            "countryOfResidence", "paysderesidence": "countryOfResidence",
	},
}

// pathParamNames are the friendly names of each path parameter.
var pathParamNames = map[string][]string{
	"_id_":      {"id", "cardid", "card", "managedcardid", "managedcard"},
	"_user_id_": {"id", "userid", "user", "authorisedUserid", "authoriseduserid"},
}

// A matcher maps header texts to targets for one kind.
type matcher struct {
	cat *catalog
	// exact maps normalized paths to paths; alias maps normalized aliases
	// and unique titles to paths.
	exact, alias map[string]string
	// listed are the targets offered to operators, with list positions 0.
	listed []string
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
			if rest, ok := strings.CutPrefix(p, "?"); ok {
				// "?amount": the kind's own amount or currency field.
				if cat.kind.Amount == "" {
					continue
				}
				p = cat.kind.Amount + "." + rest
			}
			if _, err := cat.resolve(p); err == nil {
				m.alias[a] = p
			}
		}
	}
	return m
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

// match returns the target path a header maps to automatically, if any.
func (m *matcher) match(header string) (string, MatchKind) {
	n := normalizeHeader(header)
	if n == "" {
		return "", ""
	}
	if n == normalizeHeader(ErrorsColumn) {
		return "", MatchIgnored
	}
	if p, ok := m.exact[n]; ok {
		return p, MatchExact
	}
	if p, ok := m.matchList(n); ok {
		return p, MatchExact
	}
	if p, ok := m.alias[n]; ok {
		return p, MatchAlias
	}
	if ps := m.byMeaning(header, false); len(ps) == 1 {
		return ps[0], MatchAlias
	}
	return "", ""
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
	// "source.type".
	paths := m.byMeaning(header, true)
	for i := 0; i < len(out) && len(paths) < 3; i++ {
		if !slices.Contains(paths, out[i].path) {
			paths = append(paths, out[i].path)
		}
	}
	return paths[:min(len(paths), 3)]
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
