package main

import (
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
		// The template alone holds only the example row: no element yet.
		code, stdout, _ = runCLI(t, "check", "-kind", "card_blocks", out)
		if code != exitInvalid || !strings.Contains(stdout, "1 of 1 columns mapped") || !strings.Contains(stdout, "row 2 is the template's example row, unchanged; it is left out") {
			t.Errorf("%s: exit %d\n%s", name, code, stdout)
		}
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
	intro, _ := f.GetCellValue("Fields", "A1")
	header, _ := f.GetCellValue("Fields", "E4")
	if !strings.Contains(intro, "Umbuchungen erstellen") || !strings.Contains(intro, "10.000") || header == "What it takes" {
		t.Errorf("the Fields sheet starts %q and heads a column %q", intro, header)
	}
	// What each field takes is said in German too.
	rows, _ := f.GetRows("Fields")
	var rules []string
	for _, r := range rows[4:] {
		if len(r) > 4 {
			rules = append(rules, r[4])
		}
	}
	if all := strings.Join(rules, " | "); !strings.Contains(all, "Text") || !strings.Contains(all, "ganze Zahl") || strings.Contains(all, "whole number") {
		t.Errorf("what the fields take: %s", all)
	}

	file := filepath.Join(t.TempDir(), "lot.csv")
	csv := "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
		"110321,managed_accounts,1001,managed_cards,2001,eur,1050\n"
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "check", "-kind", "transfers", "-lang", "fr", file)
	for _, want := range []string{"destinationAmount.currency doit être", "montants en unités mineures"} {
		if code != exitInvalid || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, want %q in:\n%s", code, want, stdout)
		}
	}
	if code, _, stderr := runCLI(t, "check", "-kind", "transfers", "-lang", "es", file); code != exitUsage || !strings.Contains(stderr, "choose en, de or fr") {
		t.Errorf("-lang es: exit %d %s", code, stderr)
	}
}
