package help_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ui/help"
)

// TestParseReadsTheGuidesMarkdown: the introduction, sections under
// their ids, paragraphs over several lines, lists, steps and the two
// marks come out as the page draws them.
func TestParseReadsTheGuidesMarkdown(t *testing.T) {
	g, err := help.Parse("Intro.\n\n## First {#one}\n\nA paragraph\nover two lines with **Submit…**.\n- an item\n- `EUR:10000`\n\n1. a step\n2. another\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Intro) != 1 || g.Intro[0].Items[0].String() != "Intro." {
		t.Errorf("intro %+v", g.Intro)
	}
	if len(g.Sections) != 1 || g.Sections[0].ID != "one" || g.Sections[0].Title != "First" {
		t.Fatalf("sections %+v", g.Sections)
	}
	b := g.Sections[0].Blocks
	if len(b) != 3 || b[0].Kind != help.Paragraph || b[1].Kind != help.List || b[2].Kind != help.Steps {
		t.Fatalf("blocks %+v", b)
	}
	if got := b[0].Items[0].String(); got != "A paragraph over two lines with Submit…." {
		t.Errorf("paragraph %q", got)
	}
	if s := b[0].Items[0][1]; !s.Label || s.Text != "Submit…" {
		t.Errorf("label %+v", s)
	}
	if s := b[1].Items[1][0]; !s.Code || s.Text != "EUR:10000" {
		t.Errorf("code %+v", s)
	}
	if len(b[2].Items) != 2 {
		t.Errorf("steps %+v", b[2].Items)
	}
}

// TestParseNamesTheLineOfASlip: a heading without its id or of another
// level, a second section with one id and a mark left open fail with the
// line, rather than showing on the page.
func TestParseNamesTheLineOfASlip(t *testing.T) {
	for text, want := range map[string]string{
		"Intro.\n\n## No id\n":                "line 3",
		"### Too deep {#deep}\n":              "line 1",
		"## A {#a}\n\n## B {#a}\n":            "line 3: a second section",
		"## A {#a}\n\nOpen **label\n\nmore\n": "line 4",
		"## A {#a}\n\nA lone * star.\n":       "lone *",
		"## A {#a}\n\n**a `b` c**\n":          "marks inside",
	} {
		if _, err := help.Parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", text, err, want)
		}
	}
}
