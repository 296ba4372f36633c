package lang_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// literalPunctuation are the French entries that list punctuation as
// characters a value may hold or a file may use, not as French writes
// it in a sentence.
var literalPunctuation = []string{"ponctuation", "utilisez , ; tabulation", "USD 20,00"}

var (
	// A mark French sets apart, after an ordinary or a no-break space, or
	// right after a word, a number or a bracket.
	unspacedMark = regexp.MustCompile(`(?:[ \x{a0}]|[\pL\d)])[:;?!](?:[\s\x{202f}]|$)`)
	// French quotation marks without the narrow no-break space inside.
	unspacedQuote = regexp.MustCompile(`«[^\x{202f}]|[^\x{202f}]»`)
	// What a sentence quotes as code: a JSON example (its innermost
	// braces first), text in straight quotes, a value in the language's
	// quotation marks.
	braces = regexp.MustCompile(`\{[^{}]*\}`)
	quoted = regexp.MustCompile(`"[^"]*"|«\x{202f}[^»]*\x{202f}»`)
)

// TestFrenchTypography: French sets : ; ? ! apart with a narrow no-break
// space before them and keeps one inside « », as the console writes its
// quotations (lang.Quote); an entry typed with an ordinary space, or
// with none, fails here, as does one that quotes with « » alone.
func TestFrenchTypography(t *testing.T) {
	words, err := lang.Catalog(lang.French)
	if err != nil {
		t.Fatal(err)
	}
	for key, fr := range words {
		if strings.Contains(fr, "://") || containsAny(fr, literalPunctuation) {
			continue
		}
		if m := unspacedQuote.FindString(fr); m != "" {
			t.Errorf("%q: %q quotes without the narrow no-break space (%q)", key, fr, m)
		}
		if m := unspacedMark.FindString(withoutCode(fr)); m != "" {
			t.Errorf("%q: %q has %q, not a narrow no-break space before the mark", key, fr, m)
		}
	}
}

// withoutCode blanks what s quotes as code.
func withoutCode(s string) string {
	for braces.MatchString(s) {
		s = braces.ReplaceAllString(s, " ")
	}
	return quoted.ReplaceAllString(s, " ")
}

func containsAny(s string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
