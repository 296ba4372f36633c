package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// fillGermanTransfers fills rows of a German transfers template, as an
// operator does in a spreadsheet: the columns found by the Fields sheet
// ("Felder"), amounts with their decimals, choices in words, dates in
// the column's date cells.
func fillGermanTransfers(t *testing.T, path string, rows int) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	letters := map[string]string{}
	fields, _ := f.GetRows("Felder")
	for _, r := range fields {
		if len(r) > 2 {
			letters[r[2]] = r[0]
		}
	}
	sheet := f.GetSheetName(0)
	for i := range rows {
		n := i + 2
		cell := func(path string) string { return fmt.Sprintf("%s%d", letters[path], n) }
		f.SetCellStr(sheet, cell("profileId"), "110321")
		f.SetCellStr(sheet, cell("source.id"), fmt.Sprintf("%07d", 1000+i))
		f.SetCellStr(sheet, cell("source.type"), "Verwaltetes Konto")
		f.SetCellStr(sheet, cell("destination.id"), "2001")
		f.SetCellStr(sheet, cell("destination.type"), "Verwaltete Karte")
		f.SetCellStr(sheet, cell("destinationAmount.currency"), "EUR")
		f.SetCellFloat(sheet, cell("destinationAmount.amount"), 1234.5+float64(i), -1, 64)
		f.SetCellStr(sheet, cell("description"), "Gehalt Dezember")
		// 15.12.2026 09:00
		f.SetCellFloat(sheet, cell("scheduledTimestamp"), 46371.375, -1, 64)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
}

// TestAFilledGermanTemplateChecksWithoutAQuestion: a template written in
// German, filled in as a German operator types, checks valid with every
// column mapped, its amounts in major units and its dates in the time
// zone the template or -time-zone names, and no reading undecided.
func TestAFilledGermanTemplateChecksWithoutAQuestion(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name            string
		template, check []string
	}{
		{"zone given to check", nil, []string{"-time-zone", "Europe/Berlin"}},
		{"zone in the template", []string{"-time-zone", "Europe/Berlin"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".xlsx")
			args := append([]string{"template", "-kind", "transfers", "-lang", "de", "-o", out}, tc.template...)
			if code, stdout, stderr := runCLI(t, args...); code != exitOK {
				t.Fatalf("exit %d %s %s", code, stdout, stderr)
			}
			fillGermanTransfers(t, out, 3)
			args = append([]string{"check", "-kind", "transfers", "-lang", "de"}, tc.check...)
			code, stdout, stderr := runCLI(t, append(args, out)...)
			if code != exitOK || strings.Contains(stdout, "UNDECIDED") || !strings.Contains(stdout, "10 von 10 Spalten zugeordnet") {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			for _, want := range []string{"Beträge mit Nachkommastellen", "Europe/Berlin", "wie in der Vorlage angegeben"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("no %q in\n%s", want, stdout)
				}
			}
			elements := filepath.Join(dir, "elements.json")
			code, stdout, _ = runCLI(t, append(append(args, "-format", "json", "-o", elements), out)...)
			var got struct {
				Reading map[string]struct {
					Undecided bool `json:"undecided"`
				} `json:"reading"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); code != exitOK || err != nil || len(got.Reading) == 0 {
				t.Fatalf("exit %d %v\n%s", code, err, stdout)
			}
			for name, d := range got.Reading {
				if d.Undecided {
					t.Errorf("%s undecided", name)
				}
			}
			body, err := os.ReadFile(elements)
			if err != nil {
				t.Fatal(err)
			}
			first := `{"requestBody":{"description":"Gehalt Dezember","destination":{"id":"2001","type":"managed_cards"},"destinationAmount":{"amount":123450,"currency":"EUR"},"profileId":"110321","scheduledTimestamp":"1797321600000","source":{"id":"0001000","type":"managed_accounts"}}}`
			if !strings.Contains(string(body), first) {
				t.Errorf("elements:\n%s\nwant the first\n%s", body, first)
			}
		})
	}
}
