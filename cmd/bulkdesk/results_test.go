package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/xuri/excelize/v2"
)

// runToTheEnd submits file (a CSV of transfers) and executes its one bulk
// to the end, going on past failures; it returns the bulk's id.
func runToTheEnd(t testing.TB, api, file string) string {
	t.Helper()
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-format", "json", file)
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); code != exitOK || err != nil || len(chunks) != 1 {
		t.Fatalf("submit: %d %v %s", code, err, errOut)
	}
	id := chunks[0].BulkID
	if code, _, errOut := runCLI(t, "bulks", "execute", "-api-url", api, "-mode", "ON_FAILURE_CONTINUE", id); code != exitOK {
		t.Fatalf("execute: %s", errOut)
	}
	if code, out, errOut := runCLI(t, "bulks", "get", "-wait", "-api-url", api, id); code != exitOK || !strings.Contains(out, "PARTIALLY_COMPLETED") {
		t.Fatalf("get -wait: %d %s %s", code, out, errOut)
	}
	return id
}

// TestBulksResultsNamesEveryPayment writes the result workbook of a bulk
// whose operations partly failed, from the command line: every row says
// whom the element paid, how much in which currency, with what reference
// and from which account, where it was in the file, its state and error,
// the failed rows first; and its first sheet, the failed rows, is a file
// of transfers that check reads as the elements that failed.
func TestBulksResultsNamesEveryPayment(t *testing.T) {
	api := startSandboxCommand(t, "-ops-per-second", "100000", "-fail-share", "0")
	useSandboxCredentials(t)
	run := fixture.Sample.Failing(3, 11)
	ts := run.List(20)
	file := writeFile(t, "pay.csv", string(fixture.CSV(ts)))
	id := runToTheEnd(t, api, file)

	out := filepath.Join(t.TempDir(), "results.xlsx")
	// The flags may follow the bulk's id.
	code, stdout, errOut := runCLI(t, "bulks", "results", "-api-url", api, id, "-o", out)
	if code != exitOK || stdout != "wrote "+out+": 20 rows, 2 failed or cancelled\n" {
		t.Fatalf("results: %d %q %s", code, stdout, errOut)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if sheets := f.GetSheetList(); !slices.Equal(sheets, []string{"Failed rows", "Results"}) {
		t.Fatalf("sheets %v", sheets)
	}
	rows, err := f.GetRows("Results", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	header := []string{"File", "Sheet", "Row", "Bulk", "Sequence", "Operation status", "Paid to", "Amount", "Currency", "Reference", "From", "Error", "Response", "Operation id"}
	if len(rows) != 21 || !slices.Equal(rows[0], header) {
		t.Fatalf("%d rows, header %q", len(rows), rows[0])
	}
	order := []int{3, 11}
	for i := range ts {
		if i != 3 && i != 11 {
			order = append(order, i)
		}
	}
	for n, i := range order {
		row := rows[n+1]
		tr := ts[i]
		status := "COMPLETED"
		if i == 3 || i == 11 {
			status = "FAILED"
		}
		want := []string{"pay.csv", row[1], strconv.Itoa(i + 2), id, strconv.Itoa(i), status, "managed_cards " + tr.Destination,
			strconv.FormatFloat(float64(tr.Amount)/100, 'f', -1, 64), "EUR", tr.Description, "managed_accounts " + tr.Source}
		if !slices.Equal(row[:len(want)], want) {
			t.Errorf("row %d:\n %q\nwant\n %q", n+1, row[:min(len(row), len(want))], want)
		}
		if errText := row[11]; (status == "FAILED") != strings.Contains(errText, "SANDBOX_DECLINED") {
			t.Errorf("row %d (%s): error %q", n+1, status, errText)
		}
		if status == "COMPLETED" && (len(row) < 13 || row[12] == "") {
			t.Errorf("row %d: no response of the API", n+1)
		}
	}

	// The failed rows load again as a file of transfers: those two.
	body := filepath.Join(t.TempDir(), "again.json")
	code, stdout, errOut = runCLI(t, "check", "-kind", "transfers", "-format", "json", "-o", body, out)
	if code != exitOK {
		t.Fatalf("check of the result workbook: %d\n%s\n%s", code, stdout, errOut)
	}
	var report struct {
		Elements int `json:"elements"`
		Invalid  int `json:"invalid"`
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil || report.Elements != 2 || report.Invalid != 0 {
		t.Errorf("check read %+v (%v):\n%s", report, err, stdout)
	}
	again := readFile(t, body)
	var els []string
	for _, tr := range []fixture.Transfer{ts[3], ts[11]} {
		els = append(els, fmt.Sprintf(`{"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":%q},"destination":{"type":"managed_cards","id":%q},"destinationAmount":{"currency":"EUR","amount":%d},"description":%q}}`,
			tr.Source, tr.Destination, tr.Amount, tr.Description))
	}
	want := "[" + strings.Join(els, ",") + "]"
	if compactJSON(t, again) != compactJSON(t, want) {
		t.Errorf("the failed rows read back as\n %s\nwant\n %s", again, want)
	}
}

// A bulk the journal does not know: its rows are placed by element.
func TestBulksResultsOfABulkSubmittedElsewhere(t *testing.T) {
	api := startSandboxCommand(t, "-ops-per-second", "100000", "-fail-share", "0")
	useSandboxCredentials(t)
	id := runToTheEnd(t, api, writeFile(t, "pay.csv", string(fixture.CSV(fixture.Sample.Failing(1).List(3)))))
	journal := filepath.Join(t.TempDir(), "other.db")
	t.Setenv(envJournal, journal)
	out := filepath.Join(t.TempDir(), "r.xlsx")
	if code, _, errOut := runCLI(t, "bulks", "results", "-api-url", api, "-o", out, id); code != exitOK {
		t.Fatalf("results: %s", errOut)
	}
	if _, err := os.Stat(journal); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading the results made a journal: %v", err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows("Results")
	if len(rows) != 4 || rows[0][0] != "Element" || fmt.Sprint(rows[1][:4]) != fmt.Sprintf("[1 %s 1 FAILED]", id) {
		t.Errorf("rows %q", rows)
	}
	for name, args := range map[string][]string{
		"no -o":     {"bulks", "results", "-api-url", api, id},
		"not xlsx":  {"bulks", "results", "-api-url", api, "-o", "r.csv", id},
		"two bulks": {"bulks", "results", "-api-url", api, "-o", out, id, id},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%s: exit %d", name, code)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// compactJSON writes a JSON text with its objects' keys sorted and its
// numbers as written, for comparison.
func compactJSON(t *testing.T, text string) string {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
