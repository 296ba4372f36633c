package ingest

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// choiceWords are the operator's words, in English, for the values the
// contract lists for a field (its enum): a template's dropdown offers
// them in its language, and a cell that holds them, in any of the
// console's languages, reads as the API's value. A value missing here (a
// newer contract's) is shown as it is.
var choiceWords = map[string]string{
	"managed_accounts":       lang.Mark("Managed account"),
	"managed_cards":          lang.Mark("Managed card"),
	"DAILY":                  lang.Mark("Daily"),
	"WEEKLY":                 lang.Mark("Weekly"),
	"MONTHLY":                lang.Mark("Monthly"),
	"QUARTERLY":              lang.Mark("Quarterly"),
	"YEARLY":                 lang.Mark("Yearly"),
	"ALWAYS":                 lang.Mark("Over the card's whole life"),
	"OVERWRITE":              lang.Mark("Replace the spend limits"),
	"INCREMENT":              lang.Mark("Add to the spend limits"),
	"PERSONAL":               lang.Mark("Personal account"),
	"BUSINESS":               lang.Mark("Business account"),
	"CARD_ASSIGNEE":          lang.Mark("Card holder"),
	"CARDS_MANAGEMENT_ROLE":  lang.Mark("Manages cards"),
	"FUNDS_MANAGEMENT_ROLE":  lang.Mark("Manages funds"),
	"ACCESS_MANAGEMENT_ROLE": lang.Mark("Manages access"),
	"ADMIN":                  lang.Mark("Administrator"),
}

// ChoiceWords returns the operator's word for value, one of a field's
// choices, in l: "Verwaltetes Konto" for managed_accounts in German.
func ChoiceWords(value string, l lang.Tag) string {
	if w, ok := choiceWords[value]; ok {
		return l.T(w)
	}
	return value
}

// Choices returns the words of a field's choices in l, in the
// contract's order.
func Choices(f schema.Field, l lang.Tag) []string {
	out := make([]string, len(f.Enum))
	for i, v := range f.Enum {
		out[i] = ChoiceWords(v, l)
	}
	return out
}

// choiceOf returns the value of the field's choices that s is, as the
// API writes it or in the words of any of the console's languages
// (without regard to case or accents); false when s is none of them, or
// could be several.
func choiceOf(f schema.Field, s string) (string, bool) {
	for _, v := range f.Enum {
		if s == v {
			return v, true
		}
	}
	n := foldChoice(s)
	found := ""
	for _, v := range f.Enum {
		for _, l := range lang.All {
			if foldChoice(ChoiceWords(v, l)) != n {
				continue
			}
			if found != "" && found != v {
				return "", false
			}
			found = v
		}
	}
	return found, found != ""
}

// foldChoice is a choice's words as they are compared: lower case,
// without accents, spaces collapsed.
func foldChoice(s string) string {
	return foldWord(strings.Join(strings.Fields(strings.ToLower(s)), " "))
}
