// Package langtest holds what the tests of every package use to hold the
// console's German and French to themselves: a finder of English words in
// a text said in another language, and a reader of the code for the
// codes of every problem it can report, so that a test can require a
// trigger for each.
package langtest

import (
	"regexp"
	"strings"
	"unicode"
)

// englishWords are common English words that never stand in German or
// French text: neither language spells a word so (German "was", "in",
// "an", "will", "also" and French "on", "a", "plus", "date", "type",
// "format", "total", "source", "note", "code" are left out for that
// reason).
var englishWords = setOf(`
	the is are were be been being not and of with without must should would could can cannot
	may might shall this that these those which who whom whose what when where why how there here
	their them they it its by from to for at but if than then else each every any some only
	other another none one two three first last next before after between above below into out
	up down over under again yet already just same such set submit submitted sending
	cell cells amount amounts row rows column columns file files read reads reading valid invalid
	error errors warning warnings value values field fields sheet sheets header headers
	times day days month months year years number numbers decimal decimals separator
	separators currency currencies please choose chosen write written found missing required empty
	used use using keep kept left done completed failed cancelled pending item items
	elements operations payment payments account accounts
	has have had does did do doing make made let get got take takes taken give given
	because while whole more most less least many much few all both either
	neither own therefore however instead you your yours we our us
	spreadsheet workbook save saved open protected damaged password minor major units unit
	digits groups line lines delimiter
`)

// German or French words that English spells alike: not counted.
var shared = setOf(`in an was will also on a plus date type format total source note code
	minute message simple table place page question options client service import export filter
	name status limit bank hand art kind so war hat man bin fast rot hell gift bald arm best top
	fun sort sure ende`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Allowed are the words a German or French text may hold in English: the
// product names and formats it names, and the codes of the API.
var Allowed = setOf(`Bulkdesk Excel LibreOffice OpenAPI JSON CSV TSV XLSX UTF-8 IANA ISO API IBAN BIC
	SEPA SWIFT Windows Europe Berlin Paris UTC`)

// names are the names of payment schemes and products of more than one
// word, which German and French keep as they are.
var names = []string{"Faster Payments", "UTF-16 BE", "UTF-16 LE"}

// capitalised are English words a German noun spells alike with its
// capital ("des Elements"): only the lower-case word is English.
var capitalised = setOf(`elements`)

// English returns the English words of s, a text said in German or
// French, in order: whole words of the list above, in any case, outside
// quotes („…“, « … », "…", “…”, ‘…’) and outside field paths, codes and
// other words written as code (a dot, an underscore, a digit, a capital
// inside the word). allow adds words of the text's own, such as the
// values of the file it quotes.
func English(s string, allow ...string) []string {
	s = withoutQuotes(s)
	for _, a := range append(allow, names...) {
		if a != "" {
			s = strings.ReplaceAll(s, a, " ")
		}
	}
	var found []string
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`,;:!?()[]{}<>"«»„“”‘’…·—–|=+*`, r)
	}) {
		tok = strings.Trim(tok, ".'’-/%")
		if tok == "" || asCode(tok) || Allowed[tok] {
			continue
		}
		for _, w := range strings.FieldsFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) }) {
			l := strings.ToLower(w)
			if englishWords[l] && !shared[l] && !strings.ContainsAny(tok, "'’") && !(capitalised[l] && w != l) {
				found = append(found, w)
			}
		}
	}
	return found
}

// asCode reports a word written as code: a field path, a problem's code,
// an identifier, an amount.
func asCode(tok string) bool {
	for i, r := range tok {
		switch {
		case r == '.' || r == '_' || r == '/' || r == '@' || r == '#' || r == '$' || r == '[' || r == '\\':
			return true
		case unicode.IsDigit(r):
			return true
		case i > 0 && unicode.IsUpper(r) && tok != strings.ToUpper(tok):
			return true // camelCase
		case r == '-' && strings.ToLower(tok) == tok && strings.Count(tok, "-") >= 1 && !strings.ContainsAny(tok, "äöüßéèêàâçîôûëïù"):
			return true // a code such as iso-4217-currency
		}
	}
	return false
}

// withoutQuotes blanks what s quotes: the file's values and the names it
// quotes are the file's words, not the console's.
func withoutQuotes(s string) string {
	pairs := [][2]string{{"„", "“"}, {"«", "»"}, {"“", "”"}, {"‘", "’"}, {`"`, `"`}, {"‹", "›"}}
	for _, p := range pairs {
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, p[0])
			if i < 0 {
				b.WriteString(rest)
				break
			}
			j := strings.Index(rest[i+len(p[0]):], p[1])
			if j < 0 {
				b.WriteString(rest)
				break
			}
			b.WriteString(rest[:i])
			b.WriteString(" ")
			rest = rest[i+len(p[0])+j+len(p[1]):]
		}
		s = b.String()
	}
	return s
}

// NotWritten returns the first thing in s, said in l, that l does not
// write so: an escape code where a character belongs ("\u00a0"), an
// amount or a number written the English way ("EUR 250.00", "1,234.56"),
// a date and time written as ISO 8601 with a space ("2027-06-15 09:00"),
// in French a colon, semicolon, question or exclamation mark without the
// narrow no-break space before it ("devise invalide: …"); "" when there is
// none. What s quotes is the file's and left alone.
func NotWritten(s string, l Tag) string {
	if m := escape.FindString(s); m != "" {
		return m
	}
	if l == "en" {
		return ""
	}
	s = withoutQuotes(s)
	for _, re := range []*regexp.Regexp{englishAmount, englishNumber, isoMoment} {
		if m := re.FindStringSubmatch(s); m != nil {
			return m[1]
		}
	}
	if l == "fr" {
		if m := unspacedMark.FindStringSubmatch(s); m != nil {
			return m[1]
		}
	}
	return ""
}

// A Tag is a language, as package lang names it.
type Tag = string

var (
	escape = regexp.MustCompile(`\\(u00[0-9a-fA-F]{2}|x[0-9a-fA-F]{2})`)
	// An amount with a decimal point, a number with comma groups (not
	// part of one written 1.234,567, nor a decimal such as 0,001), a
	// date and time as ISO 8601 writes it with a space.
	englishAmount = regexp.MustCompile(`\b([A-Z]{3} -?\d{1,3}(?:,\d{3})*\.\d+)(?:[^\d,.]|$)`)
	englishNumber = regexp.MustCompile(`(?:^|[^\d.,])([1-9]\d{0,2}(?:,\d{3})+)(?:[^\d.,]|$)`)
	isoMoment     = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2} \d{2}:\d{2})`)
	// A word, a number or a bracket and then : ; ? or ! with no space
	// between, or an ordinary one: French puts a narrow no-break space.
	unspacedMark = regexp.MustCompile(`([\p{L}\d)][ ]?[:;?!])(?:\s|$)`)
)
