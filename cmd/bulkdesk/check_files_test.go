package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

const transfersHeader = "profileId;source.id;source.type;destination.id;destination.type;currency;amount;description\n"

func transferLine(i int, amount string) string {
	return fmt.Sprintf("110321;%d;managed_accounts;%d;managed_cards;EUR;%s;Salary %d\n", 1000+i, 2000+i, amount, i)
}

// writeWorkbook writes a workbook whose sheets hold the given rows.
func writeWorkbook(t *testing.T, sheets map[string][][]any, order ...string) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, name := range order {
		if i == 0 {
			f.SetSheetName("Sheet1", name)
		} else {
			f.NewSheet(name)
		}
		for r, row := range sheets[name] {
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			if err := f.SetSheetRow(name, cell, &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckCSVWithDecimalCommas(t *testing.T) {
	file := writeFile(t, "pay.csv", transfersHeader+transferLine(1, "1.234,56")+transferLine(2, "12,50"))
	out := filepath.Join(t.TempDir(), "request.json")
	code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-o", out, file)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q, stdout %s", code, stderr, stdout)
	}
	for _, want := range []string{
		"transfers, valid: 0 of 2 elements invalid, 0 errors, 0 warnings",
		"read utf-8, semicolon-separated, header row 1, 8 of 8 columns mapped; amounts in major units (10.50), decimal ',', groups '.'",
		"reading: amounts in MAJOR units: 10.50 is EUR 10.50, not EUR 0.10.\n",
		"reading: decimal comma: 1.234,56.\n",
		"reading: values separated by semicolons.\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"requestBody":{"description":"Salary 1","destination":{"id":"2001","type":"managed_cards"},"destinationAmount":{"amount":123456,"currency":"EUR"},"profileId":"110321","source":{"id":"1001","type":"managed_accounts"}}},` +
		`{"requestBody":{"description":"Salary 2","destination":{"id":"2002","type":"managed_cards"},"destinationAmount":{"amount":1250,"currency":"EUR"},"profileId":"110321","source":{"id":"1002","type":"managed_accounts"}}}]` + "\n"
	if string(body) != want {
		t.Errorf("request body:\n%s\nwant\n%s", body, want)
	}
	// Forcing minor units makes every amount an error at its cell.
	code, stdout, _ = runCLI(t, "check", "-kind", "transfers", "-amounts", "minor", file)
	if code != exitInvalid || !strings.Contains(stdout, `pay!G2 (destinationAmount.amount): error: amount (column G): "1.234,56" has a decimal part`) {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

func TestCheckWorkbookReportsCells(t *testing.T) {
	book := writeWorkbook(t, map[string][][]any{
		"Notes":     {{"see the other sheet"}},
		"Transfers": {{"Transfers, November"}, {}, {"profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount"}, {"110321", "1001", "managed_accounts", "2001", "managed_cards", "EUR", 1050}, {"110321", "10x1", "managed_accounts", "2002", "managed_cards", "EUR", 10.5}},
	}, "Notes", "Transfers")
	code, stdout, _ := runCLI(t, "check", "-kind", "transfers", "-sheet", "Transfers", "-amounts", "minor", "-format", "json", book)
	if code != exitInvalid {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	var got struct {
		Kind            string `json:"kind"`
		Elements        int    `json:"elements"`
		InvalidElements int    `json:"invalidElements"`
		Errors          []struct {
			Element int    `json:"element"`
			Pointer string `json:"pointer"`
			Sheet   string `json:"sheet"`
			Row     int    `json:"row"`
			Column  string `json:"column"`
			Code    string `json:"code"`
		} `json:"errors"`
		Warnings []json.RawMessage `json:"warnings"`
		Source   struct {
			Sheet     string `json:"sheet"`
			HeaderRow int    `json:"headerRow"`
		} `json:"source"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Kind != "transfers" || got.Elements != 2 || got.InvalidElements != 1 || got.Source.Sheet != "Transfers" || got.Source.HeaderRow != 3 {
		t.Errorf("summary %+v", got)
	}
	want := []string{"1 /requestBody/destinationAmount/amount Transfers 5 G amount", "1 /requestBody/source/id Transfers 5 B pattern"}
	var errs []string
	for _, e := range got.Errors {
		errs = append(errs, fmt.Sprintf("%d %s %s %d %s %s", e.Element, e.Pointer, e.Sheet, e.Row, e.Column, e.Code))
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
	// Text output names the cells; the default sheet is the first with values.
	code, stdout, _ = runCLI(t, "check", "-kind", "transfers", "-sheet", "Transfers", book)
	if code != exitInvalid || !strings.Contains(stdout, "Transfers!B5: error: source.id may contain only digits") {
		t.Errorf("text output:\n%s", stdout)
	}
	code, _, stderr := runCLI(t, "check", "-kind", "transfers", "-sheet", "Nope", book)
	if code != exitUsage || !strings.Contains(stderr, `there is no sheet "Nope"; the sheets are "Notes", "Transfers"`) {
		t.Errorf("unknown sheet: exit %d %s", code, stderr)
	}
}

func TestCheckWithMappingFile(t *testing.T) {
	file := writeFile(t, "erp.csv", "Konto;Ziel;Betrag;Whg\n1001;2001;12,50;EUR\n")
	mapping := writeFile(t, "map.json", `{"kind": "transfers", "headerRow": 1, "columns": [
		{"column": "A", "header": "Konto", "field": "source.id"},
		{"column": "B", "header": "Ziel", "field": "destination.id"},
		{"column": "C", "header": "Betrag", "field": "destinationAmount.amount"},
		{"column": "D", "header": "Whg", "field": "destinationAmount.currency"}],
		"settings": {"amounts": "major", "decimal": ",", "group": "."}}`)
	code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-mapping", mapping, "-format", "json", file)
	if code != exitInvalid || stderr != "" {
		t.Fatalf("exit %d %s", code, stderr)
	}
	// Mapped, converted; what is missing is reported as required.
	if !strings.Contains(stdout, `"field": "destinationAmount.amount"`) || strings.Contains(stdout, `"code": "amount"`) || !strings.Contains(stdout, `"pointer": "/requestBody/profileId"`) {
		t.Errorf("report:\n%s", stdout)
	}
	bad := writeFile(t, "bad.json", `{"kind": "transfers", "columns": [{"header": "Konto", "field": "sauce.id"}]}`)
	if code, _, stderr := runCLI(t, "check", "-kind", "transfers", "-mapping", bad, file); code != exitUsage || !strings.Contains(stderr, `has no field "sauce.id"`) {
		t.Errorf("bad mapping: exit %d %s", code, stderr)
	}
}

func TestCheckSplitsLargeFiles(t *testing.T) {
	var b strings.Builder
	b.WriteString("card id\n")
	for i := range 10005 {
		fmt.Fprintf(&b, "%d\n", 100+i)
	}
	file := writeFile(t, "cards.csv", b.String())
	code, stdout, _ := runCLI(t, "check", "-kind", "card_blocks", file)
	if code != exitInvalid || !strings.Contains(stdout, "the file holds 10,005 elements; a bulk takes at most 10,000: split it into 2 bulks") {
		t.Errorf("exit %d:\n%.400s", code, stdout)
	}
	dir := filepath.Join(t.TempDir(), "parts")
	code, _, stderr := runCLI(t, "check", "-kind", "card_blocks", "-split", dir, file)
	if code != exitOK {
		t.Errorf("split: exit %d %s", code, stderr)
	}
	for name, n := range map[string]int{"cards-001.json": 10000, "cards-002.json": 5} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var elems []map[string]any
		if err := json.Unmarshal(data, &elems); err != nil || len(elems) != n {
			t.Errorf("%s: %d elements, %v", name, len(elems), err)
		}
		if name == "cards-002.json" && !bytes.Contains(data, []byte(`{"pathParams":{"_id_":"10104"}}`)) {
			t.Errorf("%s: %s", name, data)
		}
	}
}

func TestCheckReadingOverrides(t *testing.T) {
	file := writeFile(t, "latin.txt", "card id|note\n101|caf\xe9\n")
	code, stdout, _ := runCLI(t, "check", "-kind", "card_blocks", "-encoding", "windows-1252", "-delimiter", "|", file)
	if code != exitOK || !strings.Contains(stdout, "read windows-1252, pipe-separated") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	code, _, stderr := runCLI(t, "check", "-kind", "card_blocks", "-encoding", "utf-8", file)
	if code != exitUsage || !strings.Contains(stderr, "row 2, column B: the value is not valid utf-8") {
		t.Errorf("forced utf-8: exit %d %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "check", "-kind", "card_blocks", "-amounts", "cents", file); code != exitUsage || !strings.Contains(stderr, `amounts must be "minor" or "major"`) {
		t.Errorf("bad setting: exit %d %s", code, stderr)
	}
}

func TestCheckUnreadableSpreadsheets(t *testing.T) {
	for name, tc := range map[string]struct {
		file string
		data []byte
		want string
	}{
		"xls":  {"old.xls", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...), "save it as .xlsx or .csv"},
		"html": {"report.xlsx", []byte("<html><body><table></table></body></html>"), "this is a web page (HTML)"},
		"zip":  {"broken.xlsx", []byte("PK\x03\x04 broken"), "the workbook is damaged"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tc.file)
			os.WriteFile(p, tc.data, 0o600)
			code, stdout, stderr := runCLI(t, "check", "-kind", "card_blocks", p)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d stdout %q stderr %q", code, stdout, stderr)
			}
		})
	}
}
