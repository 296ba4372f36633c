package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// The files the console writes are downloaded under names in the
// operator's language, in ASCII; the operator's own part of the name,
// and a name the console did not make, stay as they are.
func TestDownloadedFilesAreNamedInTheLanguage(t *testing.T) {
	defer setLanguage(consoleLang)
	for _, tc := range []struct {
		l          lang.Tag
		name, want string
	}{
		{lang.English, "Löhne-April-results.xlsx", "Löhne-April-results.xlsx"},
		{lang.German, "Löhne-April-results.xlsx", "Löhne-April-ergebnisse.xlsx"},
		{lang.French, "paie-results.xlsx", "paie-resultats.xlsx"},
		{lang.German, "paie.receipt.json", "paie.beleg.json"},
		{lang.French, "paie.receipt.html", "paie.recu.html"},
		{lang.German, "paie-invalid.xlsx", "paie-ungueltig.xlsx"},
		{lang.French, "paie.errors.csv", "paie.erreurs.csv"},
		{lang.German, "transfers-vorlage.xlsx", "transfers-vorlage.xlsx"},
		{lang.French, "-results.xlsx", "-results.xlsx"},
	} {
		setLanguage(tc.l)
		if got := downloadName(tc.name); got != tc.want {
			t.Errorf("%s: %q is downloaded as %q, want %q", tc.l, tc.name, got, tc.want)
		}
	}
	for _, l := range []lang.Tag{lang.German, lang.French} {
		for _, end := range ownEndings {
			for _, c := range l.T(end) {
				if c > 0x7e || c == ' ' {
					t.Errorf("%s: the ending %q is %q, not in ASCII letters", l, end, l.T(end))
					break
				}
			}
		}
	}
}
