package ingest_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A list of payments kept in a spreadsheet often ends with a row that
// adds its amounts up ("Summe" and a SUM formula under the amounts). That
// row is no payment: it is left out, not counted among the rows to
// validate nor shown among the values read, and its formula is not one of
// the amount column's. It is no problem either: the reading says it, and
// that it adds up to the rows above, as the file's own control total.
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
	if slices.ContainsFunc(codes, func(c string) bool { return strings.Contains(c, "A6") || strings.HasSuffix(c, " formula") }) {
		t.Errorf("problems %v, want none of the total row or its formula", codes)
	}
	want := reading.Total{Sheet: "Überweisungen", Row: 6, Label: "Summe", Column: "A", Sums: []reading.TotalSum{
		{Column: "C", Field: "destinationAmount.amount", Currency: "EUR", Stated: 1373456, Elements: 1373456, Count: 2, Matches: true}}}
	if got := im.Reading().Totals; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	if got := statement(im.Reading(), "totals"); got != `"Summe" in row 6: EUR 13,734.56, as the 2 rows above add up. The row is left out.` {
		t.Errorf("the total row is said as %q", got)
	}
}

// statement returns the text of the statement of a reading named name,
// in English.
func statement(r reading.Reading, name string) string {
	var out []string
	for _, s := range reading.Describe(r, "", lang.English) {
		if s.Name == name {
			out = append(out, s.Text)
		}
	}
	return strings.Join(out, " | ")
}

// The same in CSV, in each language's words, a colon or two rows after
// the data; a row that names a total but holds more than amounts is an
// operation, and stays one.
func TestTotalRowsOfCSV(t *testing.T) {
	const head = "Compte source;Compte destinataire;Montant;Devise\n2200000001;2200000002;4 250,00;EUR\n2200000001;2200000003;8 000,00;EUR\n"
	for _, tc := range []struct {
		name, tail string
		elements   int
		totals     []int
	}{
		{"total", "Total;;12 250,00;\n", 2, []int{4}},
		{"colon and blank row", "\n;TOTAL :;12 250,00;EUR\n", 2, []int{5}},
		{"two totals", "Somme;;12 250,00;\nTotal général;;12 250,00;\n", 2, []int{4, 5}},
		{"a payment named so", "2200000001;Total;1,00;EUR\n", 3, nil},
		{"a total above a payment", "Total;;;\n2200000001;2200000004;1,00;EUR\n", 4, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := importOf(t, "f.csv", []byte(head+tc.tail), "transfers")
			res := im.Build(nil)
			if len(res.Elements) != tc.elements || im.DataRows() != tc.elements {
				t.Errorf("%d elements, %d rows to validate, want %d", len(res.Elements), im.DataRows(), tc.elements)
			}
			var got []int
			for _, tot := range im.Reading().Totals {
				got = append(got, tot.Row)
			}
			if !slices.Equal(got, tc.totals) {
				t.Errorf("total rows %v, want %v", got, tc.totals)
			}
			for _, p := range res.Report.Problems {
				if slices.Contains(tc.totals, p.Row) {
					t.Errorf("a problem at the total row: %s %s", ingest.Where(p), p.Message)
				}
			}
		})
	}
}

// The total row is the file's own control total: each amount it holds is
// compared, exactly, with the sum of the amounts above it in its currency
// (the row's, else the one every row above is in). Equal, the reading says
// so; different, it is a warning at the total's cell naming both sums and
// the difference, gone once the amount typed wrong is corrected. A total
// whose amount cannot be read, or rows above whose sum is not known, is
// only left out.
func TestATotalRowIsTheFilesControlTotal(t *testing.T) {
	const head = "Compte source;Compte destinataire;Montant;Devise\n"
	rows := "2200000001;2200000002;4 250,00;EUR\n2200000001;2200000003;8 000,10;EUR\n2200000001;2200000004;99,00;USD\n"
	for _, tc := range []struct {
		name, body, statement string
		warnings              []string
	}{
		{"equal, in the row's currency", rows + "Somme;;12 250,10;EUR\nSomme;;99,00;USD\n",
			`"Somme" in row 5: EUR 12,250.10, as the 2 rows above add up. The row is left out. | ` +
				`"Somme" in row 6: USD 99.00, as in the one row above. The row is left out.`, nil},
		{"different from one row", rows + "Somme;;12 250,10;EUR\nSomme;;98,00;USD\n",
			`"Somme" in row 5: EUR 12,250.10, as the 2 rows above add up. The row is left out. | ` +
				`"Somme" in row 6: USD 98.00, but the one row above holds USD 99.00. The row is left out.`,
			[]string{"f!C6 total-differs: the total in row 6 is USD 98.00, but the one row above holds USD 99.00, a difference of USD 1.00: check the amounts and the total"}},
		{"different", rows + "Somme;;12 250,00;EUR\n",
			`"Somme" in row 5: EUR 12,250.00, but the 2 rows above add up to EUR 12,250.10. The row is left out.`,
			[]string{"f!C5 total-differs: the total in row 5 is EUR 12,250.00, but the 2 rows above add up to EUR 12,250.10, a difference of EUR 0.10: check the amounts and the total"}},
		{"no currency under several", rows + "Total;;12 349,10;\n",
			`"Total" in row 5 adds up the rows above: the row is left out.`, nil},
		{"no amount to read", rows + "Total;;douze mille;EUR\n",
			`"Total" in row 5 adds up the rows above: the row is left out.`, nil},
		{"an amount above that cannot be read", "2200000001;2200000002;beaucoup;EUR\nTotal;;10,00;EUR\n",
			`"Total" in row 3 adds up the rows above: the row is left out.`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := importOf(t, "f.csv", []byte(head+tc.body), "transfers")
			s := im.Settings()
			s.Amounts, s.Decimal, s.Group = ingest.Major, ",", " "
			if err := im.SetSettings(s); err != nil {
				t.Fatal(err)
			}
			// Said before the file is built, and after.
			before := statement(im.Reading(), "totals")
			res := im.Build(nil)
			if got := statement(im.Reading(), "totals"); got != tc.statement || before != got {
				t.Errorf("said %q before the build, %q after, want %q", before, got, tc.statement)
			}
			var got []string
			for _, p := range res.Report.Problems {
				if p.Code == ingest.TotalDiffersCode {
					got = append(got, ingest.Where(p)+" "+p.Code+": "+p.Message)
				}
			}
			if !slices.Equal(got, tc.warnings) {
				t.Errorf("warnings %q, want %q", got, tc.warnings)
			}
		})
	}

	t.Run("corrected", func(t *testing.T) {
		im := importOf(t, "f.csv", []byte(head+rows+"Somme;;12 250,00;EUR\n"), "transfers")
		s := im.Settings()
		s.Amounts, s.Decimal, s.Group = ingest.Major, ",", " "
		if err := im.SetSettings(s); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(im.Build(nil).Report.Problems, func(p schema.Problem) bool { return p.Code == ingest.TotalDiffersCode }) {
			t.Fatal("no warning before the correction")
		}
		if _, err := im.EditCell(3, 2, "8 000,00"); err != nil {
			t.Fatal(err)
		}
		for _, p := range im.Result().Report.Problems {
			if p.Code == ingest.TotalDiffersCode {
				t.Errorf("after the correction: %s %s", ingest.Where(p), p.Message)
			}
		}
		if got := statement(im.Reading(), "totals"); !strings.Contains(got, "as the 2 rows above add up") {
			t.Errorf("after the correction the total is said as %q", got)
		}
	})
}

// In German and French, the reading and the warning write the amounts as
// the language does.
func TestATotalRowInTheOperatorsLanguage(t *testing.T) {
	csv := "Auftraggeberkonto;Empfängerkonto;Betrag;Währung\n1100000001;1100000002;1.234,56;EUR\n1100000001;1100000003;25.190,25;EUR\nSumme;;26.424,18;\n"
	for _, tc := range []struct {
		l                  lang.Tag
		statement, warning string
	}{
		{lang.German, "„Summe“ in Zeile 4: EUR 26.424,18, aber die Summe der 2 Zeilen darüber ist EUR 26.424,81. Die Zeile wird ausgelassen.",
			"die Summe in Zeile 4 ist EUR 26.424,18, aber die 2 Zeilen darüber ergeben zusammen EUR 26.424,81, eine Differenz von EUR 0,63: Prüfen Sie die Beträge und die Summe"},
		{lang.French, "«\u202fSumme\u202f» à la ligne 4\u202f: EUR 26\u202f424,18, mais la somme des 2 lignes au-dessus est de EUR 26\u202f424,81. La ligne est écartée.",
			"le total de la ligne 4 est de EUR 26\u202f424,18, mais la somme des 2 lignes au-dessus est de EUR 26\u202f424,81, soit un écart de EUR 0,63\u202f: vérifiez les montants et le total"},
	} {
		t.Run(string(tc.l), func(t *testing.T) {
			im := importIn(t, tc.l, "export.csv", []byte(csv), "transfers")
			var warnings []string
			for _, p := range im.Build(nil).Report.Problems {
				if p.Code == ingest.TotalDiffersCode {
					warnings = append(warnings, p.Message)
				}
			}
			if len(warnings) != 1 || warnings[0] != tc.warning {
				t.Errorf("warnings %q, want %q", warnings, tc.warning)
			}
			var said []string
			for _, s := range reading.Describe(im.Reading(), "", tc.l) {
				if s.Name == "totals" {
					said = append(said, s.Text)
					if !s.Marked {
						t.Errorf("a total that differs is not marked to look at twice")
					}
				}
			}
			if len(said) != 1 || said[0] != tc.statement {
				t.Errorf("said %q, want %q", said, tc.statement)
			}
		})
	}
}

// importIn opens data as a file and prepares its import as kind, with
// the messages in language l.
func importIn(t *testing.T, l lang.Tag, name string, data []byte, kindID string) *ingest.Import {
	t.Helper()
	v, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Language: l})
	if err != nil {
		t.Fatal(err)
	}
	f, err := ingest.Open(name, data, ingest.Options{Lang: l})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := f.TableFor(context.Background(), "", fixture.Kind(kindID), v, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ingest.NewImport(tab, fixture.Kind(kindID), v)
}
