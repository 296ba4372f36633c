package ingest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
)

// TestACellsProblemIsSaidInTheOperatorsLanguage: what a cell's reader
// refuses (an amount, a date), the file that cannot be opened and the
// value of a cell quoted in the message are said in the operator's
// language, the field named by the header the operator sees, never in
// English inside German or French, never with an escape code.
func TestACellsProblemIsSaidInTheOperatorsLanguage(t *testing.T) {
	csv := "Profil-ID;Quellkonto;Quellkontotyp;Empfängerkonto;Empfängerkontotyp;Betrag;Währung;Ausführungsdatum\n" +
		"110321;1001;managed_accounts;2001;managed_accounts;abc;EUR;15.12.2026\n" +
		"110321;1001;managed_accounts;2002;managed_accounts;1\u00a0234,56;EUR;45.13.2026\n" +
		"110321;1001;managed_accounts;2003;managed_accounts;1.234,567;EUR;15.12.2026\n"
	for _, tc := range []struct {
		l    lang.Tag
		want []string
	}{
		{lang.German, []string{
			"Betrag (Spalte F): „abc“ ist keine Zahl",
			"Betrag (Spalte F): „1.234,567“ hat mehr Nachkommastellen als die 2 der Währung: Beträge werden nie gerundet, korrigieren Sie den Wert",
			"Betrag (Spalte F): „1\u00a0234,56“ enthält ein Leerzeichen, wo nur Ziffern und das Tausendertrennzeichen („.“) stehen dürfen (Dezimaltrennzeichen „,“)",
			"Ausführungsdatum (Spalte H): „45.13.2026“ ist kein gültiges Datum",
		}},
		{lang.French, []string{
			"Betrag (colonne F)\u202f: «\u202fabc\u202f» n’est pas un nombre",
			"Ausführungsdatum (colonne H)\u202f: «\u202f45.13.2026\u202f» n’est pas une date valide",
		}},
	} {
		t.Run(string(tc.l), func(t *testing.T) {
			im := importIn(t, tc.l, "export.csv", []byte(csv), "transfers")
			s := im.Settings()
			s.Amounts, s.Decimal, s.Group, s.DateOrder, s.TimeZone = ingest.Major, ",", ".", ingest.DMY, "Europe/Berlin"
			if err := im.SetSettings(s); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range im.Build(nil).Report.Problems {
				got = append(got, p.Message)
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.Join(got, "\n"), w) {
					t.Errorf("no %q among\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// A file that cannot be opened says why in the operator's language, with
// what to do and without the reader's own English.
func TestAnUnreadableFileIsSaidInTheOperatorsLanguage(t *testing.T) {
	for l, want := range map[lang.Tag]string{
		lang.English: "broken.xlsx: the workbook is damaged: save it again as .xlsx or .csv",
		lang.German:  "broken.xlsx: Die Arbeitsmappe ist beschädigt: Speichern Sie sie erneut als .xlsx oder .csv",
		lang.French:  "broken.xlsx\u202f: le classeur est endommagé\u202f: enregistrez-le de nouveau au format .xlsx ou .csv",
	} {
		_, err := ingest.Open("broken.xlsx", []byte("PK\x03\x04 broken"), ingest.Options{Lang: l})
		var re *ingest.ReadError
		if !errors.As(err, &re) || err.Error() != want {
			t.Errorf("%s: %v, want %q", l, err, want)
		}
	}
	_, err := ingest.Open("leer.csv", []byte("  \n"), ingest.Options{Lang: lang.German})
	if err == nil || err.Error() != "leer.csv: Die Datei ist leer" {
		t.Errorf("an empty file: %v", err)
	}
}
