package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// checkJSON runs "check -format json" and decodes what scripts read.
type checkJSON struct {
	Errors []struct {
		Row    int    `json:"row"`
		Column string `json:"column"`
		Code   string `json:"code"`
	} `json:"errors"`
	Source struct {
		Sheet     string `json:"sheet"`
		HeaderRow int    `json:"headerRow"`
	} `json:"source"`
	Reading *reading.Reading `json:"reading"`
}

func runCheckJSON(t *testing.T, args ...string) (int, checkJSON, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"check", "-format", "json"}, args...)...)
	var got checkJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("exit %d, stderr %q: %v\n%s", code, stderr, err, stdout)
	}
	return code, got, stdout
}

// The file: whole amounts in minor units and one typed as 30.50.
// Nothing is guessed: the one amount is an error at its cell, and the
// units are undecided with that cell named first.
func TestCheckSaysUnitsAreUndecided(t *testing.T) {
	var b strings.Builder
	b.WriteString(transfersHeader)
	for i, a := range []string{"25000", "150075", "1999", "500000", "30.50"} {
		b.WriteString(transferLine(i+1, a))
	}
	file := writeFile(t, "pay.csv", b.String())

	code, got, raw := runCheckJSON(t, "-kind", "transfers", file)
	if code != exitInvalid {
		t.Fatalf("exit %d:\n%s", code, raw)
	}
	if len(got.Errors) != 1 || got.Errors[0].Row != 6 || got.Errors[0].Column != "G" {
		t.Errorf("errors %+v, want one at G6", got.Errors)
	}
	u := got.Reading.Units
	if u.Value != reading.Minor || u.How != reading.Default || !u.Undecided || len(u.Evidence) < 2 {
		t.Fatalf("units %+v", u)
	}
	if e := u.Evidence[0]; e.Raw != "30.50" || e.Row != 6 || e.Column != "G" || e.Sheet != "pay" || e.Suggests != reading.Major {
		t.Errorf("first evidence %+v, want the 30.50 cell", e)
	}
	if !strings.Contains(raw, `"units": {`) || !strings.Contains(raw, `"undecided": true`) || !strings.Contains(raw, `"dateOrder"`) {
		t.Errorf("JSON reading:\n%s", raw)
	}
	for name, want := range map[string]reading.How{"encoding": reading.Default, "delimiter": reading.Detected, "headerRow": reading.Detected} {
		if d := got.Reading.Get(name); d.How != want {
			t.Errorf("%s: %+v, want %s", name, d, want)
		}
	}
	if got.Reading.HeaderRow.Value != "1" || got.Reading.Delimiter.Value != ";" {
		t.Errorf("reading %+v", got.Reading)
	}

	code, stdout, _ := runCLI(t, "check", "-kind", "transfers", file)
	if code != exitInvalid || !strings.Contains(stdout, `reading (UNDECIDED): amounts in minor units: 1050 is EUR 10.50. The file does not say: its cells disagree (pay!G6 "30.50" reads major units (10.50 as written); pay!G2 "25000" reads minor units`) {
		t.Errorf("text output:\n%s", stdout)
	}
	if !strings.Contains(stdout, "pay!G6 (destinationAmount.amount): error:") {
		t.Errorf("the 30.50 cell is no error:\n%s", stdout)
	}

	// The operator's choice settles it, and says so.
	for _, units := range []string{"major", "minor"} {
		_, got, raw = runCheckJSON(t, "-kind", "transfers", "-amounts", units, file)
		if u := got.Reading.Units; u.Value != units || u.How != reading.Chosen || u.Undecided {
			t.Errorf("-amounts %s: units %+v\n%s", units, u, raw)
		}
		code, stdout, _ = runCLI(t, "check", "-kind", "transfers", "-amounts", units, file)
		if strings.Contains(stdout, "UNDECIDED") || !strings.Contains(stdout, "as you chose") {
			t.Errorf("-amounts %s: exit %d\n%s", units, code, stdout)
		}
	}
	_, got, _ = runCheckJSON(t, "-kind", "transfers", "-decimal", ",", "-delimiter", ";", file)
	if got.Reading.Decimal.How != reading.Chosen || got.Reading.Group.How != reading.Chosen || got.Reading.Delimiter.How != reading.Chosen {
		t.Errorf("-decimal: %+v", got.Reading)
	}
}

// Request bodies are read as they are: they have no reading.
func TestCheckRequestBodyHasNoReading(t *testing.T) {
	file := filepath.Join("..", "..", "schema", "testdata", "valid", "transfers.json")
	code, got, raw := runCheckJSON(t, "-kind", "transfers", file)
	if code != exitOK || got.Reading != nil || strings.Contains(raw, `"reading"`) {
		t.Errorf("exit %d:\n%s", code, raw)
	}
	if _, stdout, _ := runCLI(t, "check", "-kind", "transfers", file); strings.Contains(stdout, "reading") {
		t.Errorf("text output:\n%s", stdout)
	}
}

var paymentRows = [][]any{
	{"profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount"},
	{"110321", "1001", "managed_accounts", "2001", "managed_cards", "EUR", 1050},
	{"110321", "1002", "managed_accounts", "2002", "managed_cards", "EUR", 2500},
}

// A cover sheet before the data is passed over: the sheet whose headers
// fit the kind is read.
func TestCheckReadsTheSheetThatFitsTheKind(t *testing.T) {
	summary := [][]any{{"Payments, November"}, {"Total", 3550}, {"Count", 2}, {"Prepared by", "Finance"}}
	book := writeWorkbook(t, map[string][][]any{"Summary": summary, "Payments": paymentRows}, "Summary", "Payments")
	code, got, raw := runCheckJSON(t, "-kind", "transfers", book)
	if code != exitOK || got.Source.Sheet != "Payments" {
		t.Fatalf("exit %d, sheet %q:\n%s", code, got.Source.Sheet, raw)
	}
	s := got.Reading.Sheet
	if s.Value != "Payments" || s.How != reading.Detected || s.Undecided || len(s.Evidence) == 0 || s.Evidence[0].Sheet != "Payments" || s.Evidence[0].Row != 1 {
		t.Errorf("sheet %+v", s)
	}
	if _, stdout, _ := runCLI(t, "check", "-kind", "transfers", book); !strings.Contains(stdout, `reading: sheet "Payments".`) {
		t.Errorf("text output:\n%s", stdout)
	}
	// The operator's pick wins.
	code, got, _ = runCheckJSON(t, "-kind", "transfers", "-sheet", "Summary", book)
	if code != exitInvalid || got.Source.Sheet != "Summary" || got.Reading.Sheet.How != reading.Chosen {
		t.Errorf("-sheet: exit %d %+v", code, got.Reading.Sheet)
	}

	// Two sheets that fit alike: undecided, the first sheet with values
	// is read, and both are named.
	book = writeWorkbook(t, map[string][][]any{"Summary": summary, "Payments": paymentRows, "Payments (2)": paymentRows}, "Summary", "Payments", "Payments (2)")
	_, got, raw = runCheckJSON(t, "-kind", "transfers", book)
	s = got.Reading.Sheet
	if s.Value != "Summary" || s.How != reading.Default || !s.Undecided {
		t.Fatalf("tied sheets: %+v\n%s", s, raw)
	}
	sheets := map[string]bool{}
	for _, e := range s.Evidence {
		sheets[e.Sheet] = true
	}
	if !sheets["Payments"] || !sheets["Payments (2)"] || len(sheets) != 2 {
		t.Errorf("tied sheets' evidence %+v", s.Evidence)
	}
	if _, stdout, _ := runCLI(t, "check", "-kind", "transfers", book); !strings.Contains(stdout, `reading (UNDECIDED): sheet "Summary". The file does not say`) {
		t.Errorf("text output:\n%s", stdout)
	}
}

// A mapping file saved by one check reads the next file the same way:
// its sheet, header row and settings, as the operator's choices.
func TestCheckMappingFileRoundTrip(t *testing.T) {
	rows := [][]any{
		{"Pay run, November"},
		{"Finance department"},
		{"Konto", "Ziel", "Betrag", "Whg", "Profil", "Von", "Nach"},
		{"1001", "2001", "12,50", "EUR", "110321", "managed_accounts", "managed_cards"},
		{"1002", "2002", "1.250,00", "EUR", "110321", "managed_accounts", "managed_cards"},
	}
	book := writeWorkbook(t, map[string][][]any{"Cover": {{"Read me first"}, {"Total", 1262.5}}, "Pay run": rows}, "Cover", "Pay run")
	first := writeFile(t, "map.json", `{"kind": "transfers", "headerRow": 3, "columns": [
		{"column": "A", "header": "Konto", "field": "source.id"},
		{"column": "B", "header": "Ziel", "field": "destination.id"},
		{"column": "C", "header": "Betrag", "field": "destinationAmount.amount"},
		{"column": "D", "header": "Whg", "field": "destinationAmount.currency"},
		{"column": "E", "header": "Profil", "field": "profileId"},
		{"column": "F", "header": "Von", "field": "source.type"},
		{"column": "G", "header": "Nach", "field": "destination.type"}]}`)
	saved := filepath.Join(t.TempDir(), "saved.json")
	code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-sheet", "Pay run", "-mapping", first, "-amounts", "major", "-decimal", ",", "-save-mapping", saved, book)
	if code != exitOK {
		t.Fatalf("exit %d %s\n%s", code, stderr, stdout)
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"sheet": "Pay run"`, `"headerRow": 3`, `"amounts": "major"`, `"decimal": ","`, `"group": "."`, `"header": "Betrag"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("saved mapping lacks %s:\n%s", want, data)
		}
	}

	// Without -sheet nor settings, the saved mapping reads it as before.
	code, got, raw := runCheckJSON(t, "-kind", "transfers", "-mapping", saved, book)
	if code != exitOK || got.Source.Sheet != "Pay run" || got.Source.HeaderRow != 3 {
		t.Fatalf("exit %d:\n%s", code, raw)
	}
	r := got.Reading
	for name, want := range map[string]string{"sheet": "Pay run", "headerRow": "3", "units": "major", "decimal": ",", "group": "."} {
		if d := r.Get(name); d.Value != want || d.How != reading.Chosen {
			t.Errorf("%s: %+v, want %q as chosen", name, d, want)
		}
	}
	// Next month's workbook names its sheet otherwise: the sheet with the
	// mapping's headers is read, and the operator told.
	renamed := writeWorkbook(t, map[string][][]any{"Cover": {{"Read me first"}, {"Total", 1262.5}}, "December": rows}, "Cover", "December")
	code, stdout, stderr = runCLI(t, "check", "-kind", "transfers", "-mapping", saved, "-format", "json", renamed)
	if code != exitOK || !strings.Contains(stderr, `the workbook has no sheet "Pay run"; sheet "December" has the mapping's headers`) || !strings.Contains(stdout, `"sheet": "December"`) {
		t.Errorf("renamed sheet: exit %d %s\n%s", code, stderr, stdout)
	}
	// A flag still wins over the mapping file.
	_, got, _ = runCheckJSON(t, "-kind", "transfers", "-mapping", saved, "-sheet", "Cover", book)
	if got.Source.Sheet != "Cover" {
		t.Errorf("-sheet with -mapping read %q", got.Source.Sheet)
	}

	// A CSV file's encoding and delimiter are saved and restored.
	csv := writeFile(t, "latin.txt", "card id|note\n101|caf\xe9\n")
	saved = filepath.Join(t.TempDir(), "blocks.json")
	if code, _, stderr := runCLI(t, "check", "-kind", "card_blocks", "-encoding", "windows-1252", "-delimiter", "|", "-save-mapping", saved, csv); code != exitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if data, _ := os.ReadFile(saved); !strings.Contains(string(data), `"encoding": "windows-1252"`) || !strings.Contains(string(data), `"delimiter": "|"`) || strings.Contains(string(data), `"sheet"`) {
		t.Errorf("saved mapping:\n%s", data)
	}
	code, got, raw = runCheckJSON(t, "-kind", "card_blocks", "-mapping", saved, csv)
	if code != exitOK || got.Reading.Encoding.Value != "windows-1252" || got.Reading.Encoding.How != reading.Chosen || got.Reading.Delimiter.Value != "|" || got.Reading.Delimiter.How != reading.Chosen {
		t.Errorf("exit %d:\n%s", code, raw)
	}

	// Mapping files of before load as they did.
	old := writeFile(t, "old.json", `{"kind": "card_blocks", "headerRow": 1, "columns": [{"column": "A", "header": "card id", "field": "pathParams._id_"}]}`)
	if code, _, stderr := runCLI(t, "check", "-kind", "card_blocks", "-mapping", old, "-encoding", "windows-1252", csv); code != exitOK {
		t.Errorf("old mapping file: exit %d %s", code, stderr)
	}
}
