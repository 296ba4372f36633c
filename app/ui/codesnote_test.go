package ui

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The codes of the invalid currencies are quoted as the console's
// language quotes.
func TestInvalidCurrencyCodesAreQuotedInTheConsolesLanguage(t *testing.T) {
	defer setLanguage(lang.English)
	s := &wire.Summary{Totals: []wire.Total{{Invalid: true, Count: 2, Codes: []string{"eur", "EURO"}}}}
	for l, want := range map[lang.Tag]string{
		lang.English: `("eur", "EURO")`,
		lang.German:  "(„eur“, „EURO“)",
		lang.French:  "(«\u202feur\u202f», «\u202fEURO\u202f»)",
	} {
		setLanguage(l)
		if text, _ := validity(s); !strings.Contains(text, want) {
			t.Errorf("%s: %q, want %s", l, text, want)
		}
	}
}
