package lang_test

import (
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

func TestChoose(t *testing.T) {
	tests := []struct {
		preferred []string
		want      lang.Tag
	}{
		{nil, lang.English},
		{[]string{"de-CH", "en"}, lang.German},
		{[]string{"it-IT", "fr_BE", "de"}, lang.French},
		{[]string{"nl", "pt-BR"}, lang.English},
		{[]string{" EN-gb "}, lang.English},
	}
	for _, tc := range tests {
		if got := lang.Choose(tc.preferred); got != tc.want {
			t.Errorf("Choose(%q) = %s, want %s", tc.preferred, got, tc.want)
		}
	}
	if _, ok := lang.Parse("es"); ok {
		t.Error("Parse(es) claims a language the console does not speak")
	}
}

func TestNumbersAreWrittenForTheLanguage(t *testing.T) {
	tests := []struct {
		l           lang.Tag
		in, want    string
		count       int
		countString string
	}{
		{lang.English, "EUR 1,234,567.89 · 10,000 of 12,500", "EUR 1,234,567.89 · 10,000 of 12,500", 10000, "10,000"},
		{lang.German, "EUR 1,234,567.89 · 10,000 of 12,500", "EUR 1.234.567,89 · 10.000 of 12.500", 10000, "10.000"},
		{lang.French, "EUR -1,234.05", "EUR -1\u202f234,05", 1234567, "1\u202f234\u202f567"},
		// Only a separator between digits is a number's: prose stays.
		{lang.German, "Rows 1, 2. Done.", "Rows 1, 2. Done.", 7, "7"},
		// Digits are never read as a number: nothing is rounded.
		{lang.German, "JPY 123,456,789,012,345,678,901", "JPY 123.456.789.012.345.678.901", 0, "0"},
	}
	for _, tc := range tests {
		if got := tc.l.Localize(tc.in); got != tc.want {
			t.Errorf("%s.Localize(%q) = %q, want %q", tc.l, tc.in, got, tc.want)
		}
		if got := tc.l.Count(tc.count); got != tc.countString {
			t.Errorf("%s.Count(%d) = %q, want %q", tc.l, tc.count, got, tc.countString)
		}
	}
}

func TestPlural(t *testing.T) {
	if got := lang.English.Plural(0, "element", "elements"); got != "0 elements" {
		t.Errorf("English 0: %q", got)
	}
	if got := lang.English.Plural(2500, "element", "elements"); got != "2,500 elements" {
		t.Errorf("English 2500: %q", got)
	}
	// French counts nothing in the singular; German does not.
	if got := lang.French.Plural(0, "element", "elements"); got != "0 élément" {
		t.Errorf("French 0: %q", got)
	}
	if got := lang.German.Plural(2500, "element", "elements"); got != "2.500 Elemente" {
		t.Errorf("German 2500: %q", got)
	}
}

func TestDateTime(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 5, 7, 0, time.UTC)
	for l, want := range map[lang.Tag]string{
		lang.English: "2026-11-27 09:05:07",
		lang.German:  "27.11.2026, 09:05:07",
		lang.French:  "27/11/2026 09:05:07",
	} {
		if got := l.DateTime(at); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
}

// TestCatalogsDecode keeps a broken catalog from reaching the console,
// where a text would silently stay English.
func TestCatalogsDecode(t *testing.T) {
	for _, l := range lang.All {
		words, err := lang.Catalog(l)
		if err != nil {
			t.Fatal(err)
		}
		if l != lang.English && len(words) == 0 {
			t.Errorf("the %s catalog is empty", l.Name())
		}
	}
}

// A moment is written in words in each language, with its zone, to the
// minute unless it has seconds.
func TestMoment(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	midnight := time.Date(2026, 12, 15, 0, 0, 0, 0, berlin)
	march := time.Date(2026, 3, 2, 14, 30, 5, 250e6, berlin)
	for _, tc := range []struct {
		l    lang.Tag
		at   time.Time
		want string
	}{
		{lang.English, midnight, "15 Dec 2026, 00:00 Europe/Berlin"},
		{lang.German, midnight, "15. Dez. 2026, 00:00 Europe/Berlin"},
		{lang.French, midnight, "15 déc. 2026, 00:00 Europe/Berlin"},
		{lang.German, march, "2. März 2026, 14:30:05,250 Europe/Berlin"},
		{lang.French, march.Truncate(time.Second).In(time.UTC), "2 mars 2026, 13:30:05 UTC"},
		{lang.English, march.Truncate(time.Second), "2 Mar 2026, 14:30:05 Europe/Berlin"},
	} {
		if got := tc.l.Moment(tc.at); got != tc.want {
			t.Errorf("%s: Moment(%v) = %q, want %q", tc.l, tc.at, got, tc.want)
		}
	}
}

// A quoted value is quoted as each language quotes, and what cannot be
// seen is named, never escaped.
func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		l        lang.Tag
		in, want string
	}{
		{lang.English, "EUR", `"EUR"`},
		{lang.German, "EUR", "„EUR“"},
		{lang.French, "EUR", "«\u202fEUR\u202f»"},
		{lang.German, "1\u00a0234,56", "„1\u00a0234,56“"},
		{lang.English, "a\tb\u200bc", `"a␉b[U+200B]c"`},
		{lang.French, `say "hi"`, "«\u202fsay \"hi\"\u202f»"},
	} {
		if got := tc.l.Quote(tc.in); got != tc.want {
			t.Errorf("%s.Quote(%q) = %q, want %q", tc.l, tc.in, got, tc.want)
		}
	}
	if got := lang.German.F("%[2]q is %[1]q, %5[3]s %.2[4]f", "a", "b", "c", 1.5); got != "„b“ is „a“,     c 1.50" {
		t.Errorf("German.F = %q", got)
	}
	if got := lang.English.F("%d%% of %q", 5, "x\u00a0y"); got != "5% of \"x\u00a0y\"" {
		t.Errorf("English.F = %q", got)
	}
}

// A date cell is shown in digits as each language writes dates.
func TestDate(t *testing.T) {
	at := time.Date(2027, 6, 15, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		l     lang.Tag
		clock bool
		want  string
	}{
		{lang.English, true, "2027-06-15 09:00"},
		{lang.German, true, "15.06.2027, 09:00"},
		{lang.French, true, "15/06/2027 09:00"},
		{lang.French, false, "15/06/2027"},
	} {
		if got := tc.l.Date(at, tc.clock); got != tc.want {
			t.Errorf("%s.Date = %q, want %q", tc.l, got, tc.want)
		}
	}
	if got := lang.German.Date(at.Add(1500*time.Millisecond), true); got != "15.06.2027, 09:00:01,500" {
		t.Errorf("German with milliseconds: %q", got)
	}
}

// A noun counted inside a text ("%s of %s elements invalid") takes the
// singular where Plural does: in French for 0 and 1, else for 1 only.
func TestSingularAgreesWithPlural(t *testing.T) {
	for _, tc := range []struct {
		l    lang.Tag
		n    int
		want bool
	}{
		{lang.French, 0, true}, {lang.French, 1, true}, {lang.French, 2, false},
		{lang.German, 0, false}, {lang.German, 1, true}, {lang.German, 2, false},
		{lang.English, 0, false}, {lang.English, 1, true}, {lang.English, 1000, false},
	} {
		if got := tc.l.Singular(tc.n); got != tc.want {
			t.Errorf("%s.Singular(%d) = %v, want %v", tc.l, tc.n, got, tc.want)
		}
		one := tc.l.Plural(tc.n, "element", "elements") == tc.l.Count(tc.n)+" "+tc.l.T("element")
		if one != tc.want {
			t.Errorf("%s.Plural(%d) takes the singular: %v, Singular says %v", tc.l, tc.n, one, tc.want)
		}
	}
	// check's summary of a file of one element, in the singular.
	if got := lang.French.F("%s: %s, %s: %s of %s element invalid, %s, %s", "un.csv", "transfers", "valide", "0", "1", "0 erreur", "0 avertissement"); got != "un.csv\u202f: transfers, valide\u202f: 0 sur 1 élément invalide, 0 erreur, 0 avertissement" {
		t.Errorf("French summary of one element: %q", got)
	}
}
