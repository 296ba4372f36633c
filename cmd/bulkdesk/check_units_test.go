package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// minorUnitsShownAsMajor writes the template's header over whole amounts
// in minor units that a spreadsheet shows with two decimals, in format.
func minorUnitsShownAsMajor(t *testing.T, format excelize.Style) string {
	t.Helper()
	p := writeWorkbook(t, map[string][][]any{"Pay": {
		{"profileId", "source.id", "source.type", "destination.id", "destination.type", "destinationAmount.currency", "destinationAmount.amount"},
		{"110321", "1001", "managed_accounts", "2001", "managed_cards", "EUR", 1050},
		{"110321", "1002", "managed_accounts", "2002", "managed_cards", "EUR", 250000},
	}}, "Pay")
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	style, err := f.NewStyle(&format)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetCellStyle("Pay", "G2", "G3", style); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	return p
}

// A number format is no unit: check says the units are undecided, names
// the header and the cells on each side, fails each amount it cannot
// read for sure, and reads the file as the operator then chooses.
func TestCheckAsksWhenAFormatDisagreesWithTheHeader(t *testing.T) {
	euro := `#,##0.00 [$€-407]`
	for name, format := range map[string]excelize.Style{"#,##0.00": {NumFmt: 4}, "currency": {CustomNumFmt: &euro}} {
		file := minorUnitsShownAsMajor(t, format)
		code, stdout, _ := runCLI(t, "check", "-kind", "transfers", file)
		if code != exitInvalid || !strings.Contains(stdout, "reading (UNDECIDED): amounts in minor units: 1050 is EUR 10.50.") ||
			!strings.Contains(stdout, `G1 "destinationAmount.amount" reads minor`) || !strings.Contains(stdout, `G2 "1050" reads major`) {
			t.Errorf("%s: exit %d:\n%s", name, code, stdout)
		}
		if !strings.Contains(stdout, `Pay!G2: error: destinationAmount.amount: "1050" is EUR 10.50 in minor units but EUR 1,050.00 in major units`) {
			t.Errorf("%s: the amount is no error:\n%s", name, stdout)
		}
		_, got, raw := runCheckJSON(t, "-kind", "transfers", file)
		if u := got.Reading.Units; !u.Undecided || u.Value != "minor" {
			t.Errorf("%s: JSON units %+v\n%s", name, u, raw)
		}
		out := filepath.Join(t.TempDir(), "request.json")
		code, stdout, _ = runCLI(t, "check", "-kind", "transfers", "-amounts", "minor", "-o", out, file)
		body, _ := os.ReadFile(out)
		if code != exitOK || strings.Contains(stdout, "UNDECIDED") || !strings.Contains(string(body), `"amount":1050,`) {
			t.Errorf("%s, -amounts minor: exit %d:\n%s\n%s", name, code, stdout, body)
		}
	}
}
