package ui

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A loaded total beyond 64 bits is written as every other amount is.
func TestControlTotalBeyond64Bits(t *testing.T) {
	s := wire.Summary{Elements: 2, Totals: []wire.Total{{Currency: "EUR", Count: 2, Minor: "18446744073709551614"}}}
	got := controlTotals{totals: map[string]string{"EUR": "1.00"}}.checkTotal(s, "EUR")
	want := "EUR 184,467,440,737,095,516.14 loaded, EUR 184,467,440,737,095,515.14 more than the EUR 1.00 expected."
	if got.ok || got.message != want {
		t.Errorf("got %q, want %q", got.message, want)
	}
}

// Control totals are typed for each currency of the file, as the
// operator's language writes numbers; what cannot be read is a format
// problem with how to type it, never a difference.
func TestControlTotals(t *testing.T) {
	defer setLanguage(lang.English)
	s := wire.Summary{Elements: 3, Totals: []wire.Total{
		{Currency: "EUR", Count: 2, Minor: "2642481"}, {Currency: "JPY", Count: 1, Minor: "1500"}, {Currency: "eur", Count: 1, Minor: "5", Invalid: true}}}
	for _, tc := range []struct {
		lang     lang.Tag
		count    string
		totals   map[string]string
		counted  controlResult
		eur, jpy controlResult
	}{
		{lang.English, "3", map[string]string{"EUR": "26,424.81", "JPY": "1,500"},
			controlResult{true, true, false, "3 elements, as expected."},
			controlResult{true, true, false, "EUR 26,424.81, as expected."},
			controlResult{true, true, false, "JPY 1,500, as expected."}},
		{lang.German, "1.200", map[string]string{"EUR": "26.424,81", "JPY": "1.500"},
			controlResult{true, false, false, "3 Elemente geladen, 1.197 weniger als die erwarteten 1.200."},
			controlResult{true, true, false, "EUR 26.424,81, wie erwartet."},
			controlResult{true, true, false, "JPY 1.500, wie erwartet."}},
		{lang.French, "3", map[string]string{"EUR": "16 620,13", "JPY": "26424.81"},
			controlResult{true, true, false, "3 éléments, comme attendu."},
			controlResult{true, false, false, "Chargé\u202f: EUR 26\u202f424,81, soit EUR 9\u202f804,68 de plus que les EUR 16\u202f620,13 attendus."},
			controlResult{true, false, true, "«\u202f26424.81\u202f» a plus de décimales que JPY n’en a\u202f: saisissez 26\u202f424."}},
		{lang.French, "", map[string]string{"EUR": "26.424"},
			controlResult{},
			controlResult{true, false, true, "«\u202f26.424\u202f» peut se lire de deux façons\u202f: saisissez 26\u202f424,00."},
			controlResult{}},
		{lang.German, "drei", map[string]string{"EUR": "1,500"},
			controlResult{true, false, true, `„drei“ ist keine Anzahl von Elementen: Geben Sie eine ganze Zahl ein, z. B. 1.200.`},
			controlResult{true, false, true, `„1,500“ hat mehr Nachkommastellen als EUR: Geben Sie 1.500,00 oder 1,50 ein.`},
			controlResult{}},
		{lang.English, "", map[string]string{"EUR": "1.500"},
			controlResult{},
			controlResult{true, false, true, `"1.500" has more decimals than EUR has: type 1,500.00 or 1.50.`},
			controlResult{}},
	} {
		setLanguage(tc.lang)
		c := controlTotals{count: tc.count, totals: tc.totals}
		for what, got := range map[string][2]controlResult{
			"count": {c.checkCount(s), tc.counted}, "EUR": {c.checkTotal(s, "EUR"), tc.eur}, "JPY": {c.checkTotal(s, "JPY"), tc.jpy}} {
			if got[0] != got[1] {
				t.Errorf("%s %s %+v:\n got %+v\nwant %+v", tc.lang, what, tc.totals, got[0], got[1])
			}
		}
	}
	if r := (controlTotals{}).checkCount(s); r.checked {
		t.Error("an empty expected count was checked")
	}
	if got := controlCurrencies(s); len(got) != 2 || got[0] != "EUR" || got[1] != "JPY" {
		t.Errorf("currencies to type totals for: %q", got)
	}
}

func TestSplitLimits(t *testing.T) {
	for text, want := range map[string][]string{
		"EUR:10000 USD:2500.50":            {"EUR:10000", "USD:2500.50"},
		"EUR:10000, USD:2500":              {"EUR:10000", "USD:2500"},
		"EUR:10 000,00 USD:2\u202f500,50":  {"EUR:10 000,00", "USD:2\u202f500,50"},
		"EUR:10.000,50;gbp : 1.000\nJPY:5": {"EUR:10.000,50", "gbp : 1.000", "JPY:5"},
		"EUR 10000":                        {"EUR 10000"},
		"  ":                               nil,
	} {
		if got := splitLimits(text); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
