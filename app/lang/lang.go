package lang

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// Tag names a language the console speaks, as a BCP 47 primary tag.
type Tag string

// The console's languages.
const (
	English Tag = "en"
	German  Tag = "de"
	French  Tag = "fr"
)

// All lists the languages in the order Settings offers them.
var All = []Tag{English, German, French}

// Name is the language's name in itself, for the switch in Settings.
func (l Tag) Name() string {
	switch l {
	case German:
		return "Deutsch"
	case French:
		return "Français"
	}
	return "English"
}

// Parse returns the language a tag such as "de-CH" or "fr" asks for, and
// false when the console does not speak it.
func Parse(s string) (Tag, bool) {
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "-")
	primary, _, _ = strings.Cut(primary, "_")
	for _, l := range All {
		if primary == string(l) {
			return l, true
		}
	}
	return English, false
}

// Choose returns the first of the browser's preferred languages that the
// console speaks, and English when it speaks none of them.
func Choose(preferred []string) Tag {
	for _, p := range preferred {
		if l, ok := Parse(p); ok {
			return l
		}
	}
	return English
}

// Separators are how the language writes numbers: 1,234.56 in English,
// 1.234,56 in German, 1 234,56 in French (a narrow no-break space between
// groups, which keeps a number on one line).
func (l Tag) Separators() money.Separators {
	switch l {
	case German:
		return money.Comma
	case French:
		return money.Separators{Decimal: ',', Group: '\u202f'}
	}
	return money.Point
}
