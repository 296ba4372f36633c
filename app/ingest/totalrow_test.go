package ingest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
)

// A list of payments kept in a spreadsheet often ends with a row that
// adds its amounts up ("Summe" and a SUM formula under the amounts). That
// row is no payment: it is left out, said as a warning at its label, not
// counted among the rows to validate nor shown among the values read, and
// its formula is not one of the amount column's.
func TestATotalBelowTheDataIsLeftOut(t *testing.T) {
	header := xlsxgen.Texts("Auftraggeberkonto", "Empfängerkonto", "Betrag", "Währung", "Verwendungszweck")
	payment := func(to, amount string) xlsxgen.Row {
		return xlsxgen.Row{Cells: []xlsxgen.Cell{xlsxgen.N("1100000001"), xlsxgen.N(to), {Value: amount, Style: 1}, xlsxgen.S("EUR"), xlsxgen.S("Miete")}}
	}
	book := xlsxgen.Book{Formats: []string{`#,##0.00\ "€"`}, Sheets: []xlsxgen.Sheet{{Name: "Überweisungen", Rows: []xlsxgen.Row{
		xlsxgen.Texts("Überweisungen Dezember 2026"),
		{Number: 3, Cells: header.Cells},
		payment("1100000002", "1234.56"),
		payment("1100000003", "12500"),
		{Cells: []xlsxgen.Cell{xlsxgen.S("Summe"), xlsxgen.Empty(), {Value: "13734.56", Formula: "SUM(C4:C5)", Style: 1}}},
	}}}}
	tab, err := openBook(t, book).Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	im := ingest.NewImport(tab, fixture.Kind("transfers"), fixture.Validator())
	for _, ex := range im.Examples() {
		if ex.Row == 6 {
			t.Errorf("the values read as examples show the total: %+v", ex)
		}
	}
	if n := im.DataRows(); n != 2 {
		t.Errorf("%d rows to validate, want 2", n)
	}
	res := im.Build(nil)
	if len(res.Elements) != 2 || res.Elements[1].Row != 5 {
		t.Errorf("elements %+v, want rows 4 and 5", res.Elements)
	}
	codes := importing.Codes(res.Report)
	if !slices.Contains(codes, "Überweisungen!A6 total-row") || slices.Contains(codes, "Überweisungen!C formula") {
		t.Errorf("problems %v, want the total row's and no formula's", codes)
	}
	for _, p := range res.Report.Problems {
		if p.Code == "total-row" && p.Message != `row 6 adds up the rows above (A6: "Summe"); it is left out` {
			t.Errorf("the total row is said as %q", p.Message)
		}
	}
}

// The same in CSV, in each language's words, a colon or two rows after
// the data; a row that names a total but holds more than amounts is an
// operation, and stays one.
func TestTotalRowsOfCSV(t *testing.T) {
	const head = "Compte source;Compte destinataire;Montant;Devise\n2200000001;2200000002;4 250,00;EUR\n2200000001;2200000003;8 000,00;EUR\n"
	for _, tc := range []struct {
		name, tail string
		elements   int
		codes      []string
	}{
		{"total", "Total;;12 250,00;\n", 2, []string{"f!A4 total-row"}},
		{"colon and blank row", "\n;TOTAL :;12 250,00;EUR\n", 2, []string{"f!B5 total-row"}},
		{"two totals", "Somme;;12 250,00;\nTotal général;;12 250,00;\n", 2, []string{"f!A4 total-row", "f!A5 total-row"}},
		{"a payment named so", "2200000001;Total;1,00;EUR\n", 3, nil},
		{"a total above a payment", "Total;;;\n2200000001;2200000004;1,00;EUR\n", 4, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := importOf(t, "f.csv", []byte(head+tc.tail), "transfers")
			res := im.Build(nil)
			if len(res.Elements) != tc.elements || im.DataRows() != tc.elements {
				t.Errorf("%d elements, %d rows to validate, want %d", len(res.Elements), im.DataRows(), tc.elements)
			}
			var got []string
			for _, c := range importing.Codes(res.Report) {
				if strings.HasSuffix(c, " total-row") {
					got = append(got, c)
				}
			}
			if !slices.Equal(got, tc.codes) {
				t.Errorf("total rows %v, want %v", got, tc.codes)
			}
		})
	}
}
