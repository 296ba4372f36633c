package lang

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/money"
)

//go:embed de.json fr.json
var catalogs embed.FS

// catalog is one language's words: English text → translation.
type catalog struct {
	once  sync.Once
	words map[string]string
	err   error
}

var loaded = map[Tag]*catalog{German: {}, French: {}}

// words returns l's catalog, read on first use: a console in English
// never decodes the others.
func (l Tag) words() (map[string]string, error) {
	c, ok := loaded[l]
	if !ok {
		return nil, nil
	}
	c.once.Do(func() {
		c.words, c.err = Catalog(l)
	})
	return c.words, c.err
}

// Catalog decodes l's catalog file; English has none.
func Catalog(l Tag) (map[string]string, error) {
	if l == English {
		return nil, nil
	}
	b, err := catalogs.ReadFile(string(l) + ".json")
	if err != nil {
		return nil, fmt.Errorf("the %s catalog: %w", l.Name(), err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the %s catalog: %w", l.Name(), err)
	}
	return m, nil
}

// T returns text in l. A text missing from the catalog stays English,
// which the catalog test keeps from happening.
func (l Tag) T(text string) string {
	if w, _ := l.words(); w != nil {
		if s, ok := w[text]; ok && s != "" {
			return s
		}
	}
	return text
}

// F formats in l: the format is translated, then filled in, its
// arguments said in l too: a Word translated, an error that can be said
// (Sayer) said, a text quoted with %q between l's quotation marks
// (Quote): „…“ in German, « … » in French.
func (l Tag) F(format string, args ...any) string {
	format = l.T(format)
	return fmt.Sprintf(format, l.said(format, args)...)
}

// Plural returns "1 element", "2 elements" in l, with n written for the
// language (see Singular).
func (l Tag) Plural(n int, one, many string) string {
	if l.Singular(n) {
		return l.Count(n) + " " + l.T(one)
	}
	return l.Count(n) + " " + l.T(many)
}

// Singular reports whether a noun counted n takes the singular in l: for
// 1, and in French for 0 too, as its grammar does ("0 élément"). A text
// whose noun follows a count inside it ("%s of %s elements invalid")
// chooses its singular or plural form with it.
func (l Tag) Singular(n int) bool {
	return n == 1 || (n == 0 && l == French)
}

// Count writes a whole number with the language's groups: 10,000 in
// English, 10.000 in German.
func (l Tag) Count(n int) string {
	return money.FormatWith(int64(n), 0, l.Separators())
}

// Mark marks a text kept in a table or a variable for the catalogs: the
// code that shows it translates it there, with T.
func Mark(text string) string { return text }

// Clauses joins clauses with semicolons as l writes them: "a; b" in
// English and German, "a ; b" in French, a narrow no-break space before
// the semicolon.
func (l Tag) Clauses(parts ...string) string {
	if l == French {
		return strings.Join(parts, "\u202f; ")
	}
	return strings.Join(parts, "; ")
}
