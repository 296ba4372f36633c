package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/xuri/excelize/v2"
)

var update = flag.Bool("update", false, "rewrite the expected results of the corpus")

// generatedCorpus builds the binary files of the corpus: each is written
// exactly as the program it stands for writes it.
func generatedCorpus(t *testing.T) map[string][]byte {
	t.Helper()
	files := make(map[string][]byte)
	files["transfers-leading-zero-ids.xlsx"] = xlsxgen.Book{Formats: []string{"000000"}, Sheets: []xlsxgen.Sheet{{Name: "Transfers", Rows: []xlsxgen.Row{
		xlsxgen.Texts("profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount"),
		{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.S("000123"), xlsxgen.S("managed_accounts"), xlsxgen.N("2001"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), xlsxgen.N("1050")}},
		{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.N("124"), xlsxgen.S("managed_accounts"), xlsxgen.N("1234567890123456"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), xlsxgen.N("2000")}},
		{Cells: []xlsxgen.Cell{xlsxgen.N("110321"), {Value: "125", Style: 1}, xlsxgen.S("managed_accounts"), xlsxgen.N("1.2345678901234568E+18"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), xlsxgen.N("3000")}},
	}}}}.Bytes()
	files["users-date-serials.xlsx"] = xlsxgen.Book{Formats: []string{"dd/mm/yyyy"}, Sheets: []xlsxgen.Sheet{{Name: "Users", Rows: []xlsxgen.Row{
		xlsxgen.Texts("First name", "Last name", "Email", "Date of birth"),
		{Cells: []xlsxgen.Cell{xlsxgen.S("Ada"), xlsxgen.S("Lovelace"), xlsxgen.S("ada@example.com"), {Value: "33217", Style: 1}}},
		{Cells: []xlsxgen.Cell{xlsxgen.S("Alan"), xlsxgen.S("Turing"), xlsxgen.S("alan@example.com"), xlsxgen.S("1992-06-23")}},
	}}}}.Bytes()
	files["transfers-formulas.xlsx"] = xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Pay", Rows: []xlsxgen.Row{
		xlsxgen.Texts("profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount", "description"),
		{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.S("1001"), xlsxgen.S("managed_accounts"), xlsxgen.S("2001"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), {Formula: "1000+50", Value: "1050"}, {Type: "s", Formula: "\"Salary \"&B2", Value: "Salary 1001"}}},
		{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.S("1002"), xlsxgen.S("managed_accounts"), xlsxgen.S("2002"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), {Formula: "G2*2", NoValue: true}, xlsxgen.S("Bonus")}},
	}}}}.Bytes()
	files["card_spend_rules-merged.xlsx"] = xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Rules", Merged: []string{"A1:B1", "B3:B5"}, Rows: []xlsxgen.Row{
		xlsxgen.Texts("Rules to apply"),
		xlsxgen.Texts("card id", "allowAtm"),
		{Cells: []xlsxgen.Cell{xlsxgen.N("101"), xlsxgen.B(false)}},
		{Cells: []xlsxgen.Cell{xlsxgen.N("102")}},
		{Cells: []xlsxgen.Cell{xlsxgen.N("103")}},
	}}}}.Bytes()
	files["card_blocks-hidden.xlsx"] = xlsxgen.Book{Sheets: []xlsxgen.Sheet{
		{Name: "Lists", State: "hidden", Rows: []xlsxgen.Row{xlsxgen.Texts("card id"), {Cells: []xlsxgen.Cell{xlsxgen.N("999")}}}},
		{Name: "Blocks", Rows: []xlsxgen.Row{
			xlsxgen.Texts("card id"),
			{Cells: []xlsxgen.Cell{xlsxgen.N("101")}},
			{Hidden: true, Cells: []xlsxgen.Cell{xlsxgen.N("102")}},
		}},
	}}.Bytes()
	files["transfers-cover-sheet.xlsx"] = xlsxgen.Book{Formats: []string{"#,##0.00"}, Sheets: []xlsxgen.Sheet{
		{Name: "Summary", Rows: []xlsxgen.Row{
			xlsxgen.Texts("Payments, November"),
			{Cells: []xlsxgen.Cell{xlsxgen.S("Total"), {Value: "1300.5", Style: 1}}},
		}},
		{Name: "Payments", Rows: []xlsxgen.Row{
			xlsxgen.Texts("Pay run November"),
			xlsxgen.Texts("Approved by the finance team"),
			xlsxgen.Texts("profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount"),
			{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.S("1001"), xlsxgen.S("managed_accounts"), xlsxgen.S("2001"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), {Value: "1050", Style: 1}}},
			{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.S("1002"), xlsxgen.S("managed_accounts"), xlsxgen.S("2002"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), {Value: "250.5", Style: 1}}},
		}},
	}}.Bytes()
	var encrypted bytes.Buffer
	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "card id")
	f.SetCellValue("Sheet1", "A2", "101")
	if err := f.Write(&encrypted, excelize.Options{Password: "secret"}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	files["card_blocks-password.xlsx"] = encrypted.Bytes()
	files["card_blocks-legacy.xls"] = append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 1024)...)
	good := files["card_blocks-hidden.xlsx"]
	files["card_blocks-corrupt.xlsx"] = good[:len(good)*2/3]
	files["card_blocks-zip-bomb.xlsx"] = xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: "<sheetData>" + strings.Repeat("<row/>", 2<<20) + "</sheetData>"}}}.Bytes()
	return files
}

// TestCorpus reads every file of testdata/corpus and the generated ones
// and compares what an operator would see with testdata/corpus/*.want.
// Run with -update to rewrite them, then read the diff.
func TestCorpus(t *testing.T) {
	files := generatedCorpus(t)
	entries, err := os.ReadDir(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".want") {
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			got := describeImport(t, name, data)
			wantFile := filepath.Join("testdata", "corpus", name+".want")
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("no expected result: %v (run go test -run TestCorpus -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s:\n--- got\n%s\n--- want\n%s", name, got, want)
			}
		})
	}
}

// describeImport reads a file as its name's kind prefix says and writes
// what an operator would see: how it was read, the elements and the
// problems, or the one message that says why it cannot be read.
func describeImport(t *testing.T, name string, data []byte) string {
	var b strings.Builder
	kindID, _, _ := strings.Cut(name, "-")
	f, err := ingest.Open(name, data, ingest.Options{Limits: ingest.Limits{Zip: xlsxLimitsSmall}})
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	fmt.Fprintf(&b, "format: %s", f.Format)
	if f.Format == ingest.CSV {
		fmt.Fprintf(&b, ", %s, delimiter %s", f.Encoding, reading.DelimiterName(f.Delimiter))
	}
	b.WriteString("\nsheets:")
	for _, s := range f.Sheets() {
		fmt.Fprintf(&b, " %q", s.Name)
		if s.Hidden {
			b.WriteString(" (hidden)")
		}
	}
	b.WriteString("\n")
	tab, err := f.TableFor(context.Background(), "", fixture.Kind(kindID), fixture.Validator(), nil)
	if err != nil {
		return b.String() + "error: " + err.Error() + "\n"
	}
	im := ingest.NewImport(tab, fixture.Kind(kindID), fixture.Validator())
	m := im.Mapping()
	fmt.Fprintf(&b, "sheet %q, header row %d\n", tab.Sheet, m.HeaderRow)
	for _, c := range m.Columns {
		fmt.Fprintf(&b, "  %s %q → %s %s %v\n", c.Letter, c.Header, c.Field, c.Match, c.Suggestions)
	}
	fmt.Fprintf(&b, "settings: %s\n", im.Settings())
	r := im.Reading()
	for _, n := range reading.Names {
		d := r.Get(n)
		if d.How == "" {
			continue
		}
		fmt.Fprintf(&b, "  reading %s: %q %s", n, d.Value, d.How)
		if d.Undecided {
			b.WriteString(" UNDECIDED")
			for _, c := range d.Evidence {
				fmt.Fprintf(&b, "; %s %q suggests %s (%s)", c.Place(lang.English), c.Raw, c.Suggests, c.Why)
			}
		}
		b.WriteString("\n")
	}
	for _, e := range im.Examples() {
		fmt.Fprintf(&b, "  example %s%d %q → %s%s\n", e.Column, e.Row, e.Raw, e.Parsed, e.Error)
	}
	res := im.Build(nil)
	b.WriteString("request:\n")
	for i, e := range res.Elements {
		j, _ := json.Marshal(res.Value(i))
		fmt.Fprintf(&b, "  row %d: %s\n", e.Row, j)
	}
	b.WriteString("problems:\n")
	for _, p := range res.Report.Problems {
		fmt.Fprintf(&b, "  %s: %s %s: %s\n", ingest.Where(p), p.Severity, p.Code, p.Message)
	}
	return b.String()
}
