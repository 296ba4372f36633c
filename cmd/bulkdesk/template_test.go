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

func TestTemplateWritesAFileThatChecksWithoutMapping(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"blocks.xlsx", "blocks.csv"} {
		out := filepath.Join(dir, name)
		code, stdout, stderr := runCLI(t, "template", "-kind", "card_blocks", "-o", out)
		if code != exitOK || !strings.Contains(stdout, "wrote "+out) {
			t.Fatalf("exit %d %s %s", code, stdout, stderr)
		}
		// The template alone holds no element yet: a workbook has nothing
		// below its header, a CSV file its example row, left out.
		code, stdout, _ = runCLI(t, "check", "-kind", "card_blocks", out)
		want := "there are no rows of values below the header"
		if strings.HasSuffix(name, ".csv") {
			want = "row 2 is the template's example row, unchanged; it is left out"
		}
		if code != exitInvalid || !strings.Contains(stdout, "1 of 1 columns mapped") || !strings.Contains(stdout, want) {
			t.Errorf("%s: exit %d\n%s", name, code, stdout)
		}
	}
}

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
			for _, want := range []string{"HAUPTEINHEITEN", "Europe/Berlin", "wie in der Vorlage angegeben"} {
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

func TestTemplateUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"template", "-kind", "card_blocks"}, "usage: bulkdesk template"},
		{[]string{"template", "-kind", "nope", "-o", "x.xlsx"}, `unknown bulk kind "nope"`},
		{[]string{"template", "-kind", "sends", "-backoffice", "-o", "x.xlsx"}, "no back-office variant"},
		{[]string{"template", "-kind", "sends", "-o", "x.pdf"}, "must end in .xlsx or .csv"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d %q", tc.args, code, stderr)
		}
	}
}

// TestTemplateAndCheckSpeakTheOperatorsLanguage writes a German template,
// whose Fields sheet explains the columns in German, and checks a file in
// French: the problem and the reading are in French, the field still
// named by its path.
func TestTemplateAndCheckSpeakTheOperatorsLanguage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "vorlage.xlsx")
	if code, stdout, stderr := runCLI(t, "template", "-kind", "transfers", "-lang", "de", "-o", out); code != exitOK {
		t.Fatalf("exit %d %s %s", code, stdout, stderr)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	intro, _ := f.GetCellValue("Felder", "A1")
	header, _ := f.GetCellValue("Felder", "E6")
	if !strings.Contains(intro, "Umbuchungen erstellen") || !strings.Contains(intro, "10.000") || header != "Was es annimmt" {
		t.Errorf("the Fields sheet starts %q and heads a column %q", intro, header)
	}
	// What each field takes is said in German too.
	rows, _ := f.GetRows("Felder")
	var rules []string
	for _, r := range rows[6:] {
		if len(r) > 4 {
			rules = append(rules, r[4])
		}
	}
	if all := strings.Join(rules, " | "); !strings.Contains(all, "Text") || !strings.Contains(all, "Betrag in der Währungseinheit") || strings.Contains(all, "amount") {
		t.Errorf("what the fields take: %s", all)
	}

	file := filepath.Join(t.TempDir(), "lot.csv")
	csv := "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
		"110321,managed_accounts,1001,managed_cards,2001,eur,1050\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "check", "-kind", "transfers", "-lang", "fr", file)
	for _, want := range []string{"destinationAmount.currency ne doit contenir que", "montants en unités mineures"} {
		if code != exitInvalid || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, want %q in:\n%s", code, want, stdout)
		}
	}
	if code, _, stderr := runCLI(t, "check", "-kind", "transfers", "-lang", "es", file); code != exitUsage || !strings.Contains(stderr, "choose en, de or fr") {
		t.Errorf("-lang es: exit %d %s", code, stderr)
	}
}
