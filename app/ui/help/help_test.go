package help_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/app/ui/help"
)

func guide(t *testing.T, l lang.Tag) help.Guide {
	t.Helper()
	g, err := help.For(l)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestEveryLanguageHasTheEnglishSections: a translation holds every
// section of the English guide, in its order and under its id, and in
// each the same paragraphs, lists and steps with as many items, so that
// a section, a paragraph or an item left out of a translation fails here.
func TestEveryLanguageHasTheEnglishSections(t *testing.T) {
	en := guide(t, lang.English)
	if len(en.Intro) == 0 || len(en.Sections) == 0 {
		t.Fatalf("the English guide has %d blocks of introduction and %d sections", len(en.Intro), len(en.Sections))
	}
	for _, l := range lang.All[1:] {
		g := guide(t, l)
		if got, want := shape(g.Intro), shape(en.Intro); got != want {
			t.Errorf("%s: the introduction is %s, in English %s", l, got, want)
		}
		if got, want := ids(g), ids(en); !slices.Equal(got, want) {
			t.Errorf("%s: sections %v, in English %v", l, got, want)
			continue
		}
		for i, s := range g.Sections {
			if s.Title == "" || s.Title == en.Sections[i].Title && l != lang.English {
				t.Errorf("%s: section %s has the title %q", l, s.ID, s.Title)
			}
			if got, want := shape(s.Blocks), shape(en.Sections[i].Blocks); got != want {
				t.Errorf("%s: section %s is %s, in English %s", l, s.ID, got, want)
			}
		}
	}
}

// TestBoldNamesAreTheConsolesWords: a name in bold is a page, a button or
// a field as the console shows it in that language: in English a text of
// the console's catalog (or the start of one, such as "Only rows with
// errors" of "Only rows with errors (%s)"), in German and French its
// translation there, section by section.
func TestBoldNamesAreTheConsolesWords(t *testing.T) {
	keys, err := lang.Catalog(lang.German)
	if err != nil {
		t.Fatal(err)
	}
	en := guide(t, lang.English)
	for _, l := range lang.All {
		g := guide(t, l)
		for i, s := range g.Sections {
			if i >= len(en.Sections) {
				break
			}
			var want []string
			for _, name := range labels(en.Sections[i].Blocks) {
				text, ok := shownAs(keys, name)
				if !ok {
					if l == lang.English {
						t.Errorf("section %s: **%s** is no text the console shows", s.ID, name)
					}
					continue
				}
				want = append(want, strings.TrimSpace(shortened(l.T(text))))
			}
			got := labels(s.Blocks)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: section %s names %q in bold, the console shows %q", l, s.ID, got, want)
			}
		}
	}
}

// TestTheGuidesAreWrittenInTheirLanguage: outside what they write as
// code, the German and French guides hold no English word and write
// numbers, and in French : ; ? ! and « », as the language does.
func TestTheGuidesAreWrittenInTheirLanguage(t *testing.T) {
	for _, l := range lang.All[1:] {
		g := guide(t, l)
		for _, text := range texts(g) {
			if l == lang.French && frenchMisquoted(text) {
				t.Errorf("%s: « » without a narrow no-break space inside, in %q", l, text)
			}
			// What the guides quote is the console's words too: read it.
			text = unquote.Replace(text)
			if words := langtest.English(text, "Tab", "Offline", "Webhooks"); len(words) > 0 {
				t.Errorf("%s: English words %q in %q", l, words, text)
			}
			if bad := langtest.NotWritten(text, string(l)); bad != "" {
				t.Errorf("%s: %q in %q is not written as %s writes it", l, bad, text, l.Name())
			}
			if bad := spacedGroups.FindString(text); l == lang.French && bad != "" {
				t.Errorf("%s: %q in %q: French groups digits with a narrow no-break space", l, bad, text)
			}
		}
	}
}

// spacedGroups are digits grouped by an ordinary or a no-break space.
var spacedGroups = regexp.MustCompile(`\d[ \x{a0}]\d{3}(?:\D|$)`)

var unquote = strings.NewReplacer("„", "", "“", "", "«\u202f", "", "\u202f»", "", "«", "", "»", "")

// frenchMisquoted reports « » set without the narrow no-break space
// inside them, as the console quotes (lang.Quote).
func frenchMisquoted(s string) bool {
	return strings.Contains(s, "«") && !strings.Contains(s, "«\u202f") ||
		strings.Contains(s, "»") && !strings.Contains(s, "\u202f»") ||
		strings.Count(s, "«") != strings.Count(s, "«\u202f") ||
		strings.Count(s, "»") != strings.Count(s, "\u202f»")
}

// shownAs returns the catalog's text whose name is name: the text itself,
// or one that continues with its count in brackets.
func shownAs(keys map[string]string, name string) (string, bool) {
	if _, ok := keys[name]; ok {
		return name, true
	}
	for k := range keys {
		if shortened(k) == name {
			return k, true
		}
	}
	return "", false
}

// shortened drops a text's count in brackets: "Only rows with errors
// (%s)" is named "Only rows with errors".
func shortened(s string) string {
	if i := strings.Index(s, " (%"); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i]
	}
	return s
}

func ids(g help.Guide) []string {
	var out []string
	for _, s := range g.Sections {
		out = append(out, s.ID)
	}
	return out
}

// shape writes down the kinds of blocks and their numbers of items:
// "P1 L5 S3".
func shape(blocks []help.Block) string {
	var b strings.Builder
	for _, bl := range blocks {
		fmt.Fprintf(&b, "%c%d ", "PLS"[bl.Kind], len(bl.Items))
	}
	return strings.TrimSpace(b.String())
}

func labels(blocks []help.Block) []string {
	var out []string
	for _, bl := range blocks {
		for _, item := range bl.Items {
			for _, s := range item {
				if s.Label {
					out = append(out, s.Text)
				}
			}
		}
	}
	return out
}

// texts returns each paragraph and item of g, and each title, without
// what they write as code.
func texts(g help.Guide) []string {
	var out []string
	add := func(blocks []help.Block) {
		for _, bl := range blocks {
			for _, item := range bl.Items {
				var b strings.Builder
				for _, s := range item {
					if !s.Code {
						b.WriteString(s.Text)
					} else {
						b.WriteString(" ")
					}
				}
				out = append(out, b.String())
			}
		}
	}
	add(g.Intro)
	for _, s := range g.Sections {
		out = append(out, s.Title)
		add(s.Blocks)
	}
	return out
}
