package main

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
)

// germanExport is a German bank's export of transfers with a problem in
// nearly every row: amounts and dates that do not read, a currency that
// does not exist, ids that are no ids, a repeated row, a column that is
// not imported and a row that adds the others up.
const germanExport = "Profil-ID;Quellkonto;Quellkontotyp;Empfängerkonto;Empfängerkontotyp;Betrag;Währung;Verwendungszweck;Ausführungsdatum;Notiz\n" +
	"110321;1001;managed_accounts;2001;managed_accounts;10,00;EUR;Miete;15.12.2026;\n" +
	"110321;1001;managed_accounts;2001;managed_accounts;10,00;EUR;Miete;15.12.2026;\n" +
	"110321;mg1;konto;2002;managed_accounts;abc;EUD;Strom;45.13.2026;\n" +
	"110321;1001;managed_accounts;2003;managed_accounts;12,345;EUR;x;15.12.2026 25:00;\n" +
	";1001;managed_accounts;;managed_accounts;1.000,00;EUR;Kaution;morgen;\n" +
	"Summe;;;;;1.032,00;EUR;;;\n"

// TestCheckSpeaksTheOperatorsLanguage: with -lang de or fr, check's
// report, its own lines as much as the problems it lists, and its refusal
// of a file it cannot read, hold no English and write numbers as the
// language does.
func TestCheckSpeaksTheOperatorsLanguage(t *testing.T) {
	file := writeFile(t, "export.csv", germanExport)
	broken := writeFile(t, "kaputt.xlsx", "PK\x03\x04 kaputt")
	for _, l := range []string{"de", "fr"} {
		for _, args := range [][]string{
			{"check", "-kind", "transfers", "-lang", l, file},
			{"check", "-kind", "transfers", "-lang", l, "-amounts", "major", "-decimal", ",", "-time-zone", "Europe/Berlin", "-max-amount", "EUR:500", file},
			{"check", "-kind", "transfers", "-lang", l, broken},
			{"check", "-kind", "transfers", "-lang", l, "-split", t.TempDir(), file},
		} {
			code, stdout, stderr := runCLI(t, args...)
			if code == exitOK {
				t.Errorf("%q: exit %d", args, code)
			}
			for _, line := range strings.Split(stdout+stderr, "\n") {
				// The program's name and the file's own words stay.
				line = strings.ReplaceAll(strings.TrimPrefix(line, "bulkdesk check:"), file, "")
				if words := langtest.English(line, broken); len(words) > 0 {
					t.Errorf("%q: English %q in %q", args, words, line)
				}
				if bad := langtest.NotWritten(line, l); bad != "" {
					t.Errorf("%q: %q in %q", args, bad, line)
				}
			}
		}
	}
}
