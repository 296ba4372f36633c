package ingest_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The number formats amount cells carry in workbooks as LibreOffice and
// exceljs write them: style 0 is General; the custom ones are declared
// (numFmtId 164, …), the built-in ones referred to by id only.
var amountFormats = xlsxgen.Book{
	Formats: []string{
		`#,##0.00\ [$€-407];[RED]\-#,##0.00\ [$€-407]`, // 1: LibreOffice, euros in German
		`"€"#,##0.00`,         // 2: exceljs, a currency format
		`#,##0.00 [$€-407]`,   // 3: a currency with its locale
		`#,##0`,               // 4: groups, no decimals
		`0`,                   // 5: whole
		`[$-407]#,##0.00;"-"`, // 6: a locale before the number
	},
	Builtin: []int{4, 2, 7, 8, 3}, // 7: #,##0.00, 8: 0.00, 9 and 10: currency, 11: #,##0
}

// showsTwo lists the styles of amountFormats that show two decimals.
var showsTwo = map[int]bool{1: true, 2: true, 3: true, 6: true, 7: true, 8: true, 9: true, 10: true}

const amountStyles = 12

// amountCell is one amount as a workbook stores it, and its style.
type amountCell struct {
	value string
	style int
}

// amountsBook writes a transfers workbook whose amount column (G) has
// header h and the cells given, in euros.
func amountsBook(h string, cells []amountCell) []byte {
	rows := []xlsxgen.Row{xlsxgen.Texts("profileId", "source.id", "source.type", "destination.id", "destination.type", "destinationAmount.currency", h)}
	for i, c := range cells {
		r := xlsxgen.Texts("110321", fmt.Sprint(1000+i), "managed_accounts", fmt.Sprint(2000+i), "managed_cards", "EUR")
		// LibreOffice types its number cells (t="n"), exceljs does not.
		typ := ""
		if i%2 == 1 {
			typ = "n"
		}
		r.Cells = append(r.Cells, xlsxgen.Cell{Type: typ, Value: c.value, Style: c.style})
		rows = append(rows, r)
	}
	b := amountFormats
	b.Sheets = []xlsxgen.Sheet{{Name: "Zahlungen", Rows: rows}}
	return b.Bytes()
}

// headers by what they say about units.
var (
	pathHeaders     = []string{"destinationAmount.amount", "destinationAmount.amount*", "destinationAmount.amount (minor units)", "Betrag in Cent", "Montant (centimes)"}
	neutralHeaders  = []string{"Betrag", "Amount", "Montant", "amount"}
	currencyHeaders = []string{"Betrag (EUR)", "Amount in EUR", "Montant €", "Betrag in Euro", "Amount (major units)"}
)

// unitsWanted is the rule the detector keeps, written as the evidence
// each piece gives: the header its say; a value with decimals major
// units; a whole number minor units, unless its format shows decimals,
// when the format says major units and the value says minor units unless
// something other than a format says major units too. Unanimous votes
// decide; none leave the default, minor units; any disagreement leaves
// the units undecided.
func unitsWanted(header string, cells []amountCell) (value string, undecided bool) {
	votes := map[string]bool{}
	if header != "" {
		votes[header] = true
	}
	shown := false
	for _, c := range cells {
		switch {
		case strings.Contains(c.value, "."):
			votes[reading.Major] = true
		case showsTwo[c.style]:
			shown = true
		default:
			votes[reading.Minor] = true
		}
	}
	if shown {
		if !votes[reading.Major] {
			votes[reading.Minor] = true
		}
		votes[reading.Major] = true
	}
	switch len(votes) {
	case 0:
		return reading.Minor, false
	case 1:
		for v := range votes {
			return v, false
		}
	}
	return reading.Minor, true
}

// TestUnitsFormatIsOnlyEvidence reads random workbooks whose amount
// columns mix headers, whole numbers and numbers with decimals, and
// number formats: the units are decided only when header, values and
// formats agree, and a format alone never makes whole numbers major
// units.
func TestUnitsFormatIsOnlyEvidence(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 110))
	for trial := range trials {
		var header, says string
		switch rng.IntN(3) {
		case 0:
			header, says = pathHeaders[rng.IntN(len(pathHeaders))], reading.Minor
		case 1:
			header = neutralHeaders[rng.IntN(len(neutralHeaders))]
		default:
			header, says = currencyHeaders[rng.IntN(len(currencyHeaders))], reading.Major
		}
		n := 1 + rng.IntN(30)
		cells := make([]amountCell, n)
		decimals := rng.IntN(3) // 0: none, 1: every one, 2: some
		style := rng.IntN(amountStyles)
		mixedStyles := rng.IntN(3) == 0
		for i := range cells {
			v := fmt.Sprint(1 + rng.IntN(5000000))
			if decimals == 1 || decimals == 2 && rng.IntN(2) == 0 {
				v = fmt.Sprintf("%d.%d", rng.IntN(50000), 1+rng.IntN(99))
				v = strings.TrimRight(v, "0")
			}
			s := style
			if mixedStyles {
				s = rng.IntN(amountStyles)
			}
			cells[i] = amountCell{v, s}
		}
		u := importOf(t, "z.xlsx", amountsBook(header, cells), "transfers").Reading().Units
		want, undecided := unitsWanted(says, cells)
		if u.Value != want || u.Undecided != undecided {
			t.Fatalf("trial %d: header %q, cells %v: units %+v, want %s undecided=%v", trial, header, cells, u, want, undecided)
		}
		if undecided && (!slices.ContainsFunc(u.Evidence, suggests(reading.Minor)) || !slices.ContainsFunc(u.Evidence, suggests(reading.Major))) {
			t.Fatalf("trial %d: undecided without the cells of each side: %+v", trial, u.Evidence)
		}
		// The same numbers without their formats: a format never turns
		// what the rest reads as minor units into major units.
		general := slices.Clone(cells)
		for i := range general {
			general[i].style = 0
		}
		g := importOf(t, "z.xlsx", amountsBook(header, general), "transfers").Reading().Units
		if !g.Undecided && g.Value == reading.Minor && !u.Undecided && u.Value == reading.Major {
			t.Fatalf("trial %d: header %q, cells %v: the formats alone made minor units major", trial, header, cells)
		}
	}
}

// unitCodes are a report's problems as "G2 code", the sheet left out.
func unitCodes(r *schema.Report) []string {
	out := importing.Codes(r)
	for i, c := range out {
		_, out[i], _ = strings.Cut(c, "!")
	}
	return out
}

func suggests(v string) func(reading.Cell) bool {
	return func(c reading.Cell) bool { return c.Suggests == v }
}

// TestUnitsOneShownAmountIsUndecided is the detectors' property for
// formats: under the API's own header, whole numbers are minor units; one
// of them shown with decimals makes the units undecided, and it is named
// first.
func TestUnitsOneShownAmountIsUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 120))
	for trial := range trials {
		n := 2 + rng.IntN(40)
		cells := make([]amountCell, n)
		for i := range cells {
			cells[i] = amountCell{fmt.Sprint(1 + rng.IntN(10000000)), []int{0, 4, 5, 11}[rng.IntN(4)]}
		}
		u := importOf(t, "z.xlsx", amountsBook("destinationAmount.amount", cells), "transfers").Reading().Units
		if u.Undecided || u.Value != reading.Minor || u.How != reading.Detected {
			t.Fatalf("trial %d: whole numbers under the API path: %+v", trial, u)
		}
		odd := rng.IntN(n)
		cells[odd].style = []int{1, 2, 3, 6, 7, 8, 9, 10}[rng.IntN(8)]
		u = importOf(t, "z.xlsx", amountsBook("destinationAmount.amount", cells), "transfers").Reading().Units
		if !u.Undecided || u.Value != reading.Minor || u.How != reading.Default {
			t.Fatalf("trial %d: one shown with decimals (row %d): %+v, want undecided", trial, odd+2, u)
		}
		if u.Evidence[0].Row != odd+2 || u.Evidence[0].Suggests != reading.Major {
			t.Fatalf("trial %d: the first evidence is %+v, want row %d", trial, u.Evidence[0], odd+2)
		}
	}
}

// TestWholeAmountsShownWithDecimalsUnderTheAPIPath is the workbook of the
// report: the template's header, whole numbers in minor units, shown as
// "#,##0.00" or a currency by LibreOffice or exceljs. It is asked, each
// such amount is an error until the operator chooses, and it then reads
// as chosen.
func TestWholeAmountsShownWithDecimalsUnderTheAPIPath(t *testing.T) {
	for _, style := range []int{1, 2, 7, 9} {
		data := amountsBook("destinationAmount.amount", []amountCell{{"1050", style}, {"250000", style}, {"99", 0}})
		im := importOf(t, "z.xlsx", data, "transfers")
		u := im.Reading().Units
		if !u.Undecided || u.Value != reading.Minor {
			t.Fatalf("style %d: units %+v, want undecided", style, u)
		}
		header := slices.IndexFunc(u.Evidence, func(c reading.Cell) bool { return c.Row == 1 })
		if header < 0 || u.Evidence[header].Column != "G" || u.Evidence[header].Raw != "destinationAmount.amount" || u.Evidence[header].Suggests != reading.Minor {
			t.Errorf("style %d: the header is not evidence: %+v", style, u.Evidence)
		}
		codes := unitCodes(im.Build(nil).Report)
		if !slices.Equal(codes, []string{"G2 amount-units", "G3 amount-units"}) {
			t.Errorf("style %d: problems %v, want the two amounts shown with decimals", style, codes)
		}
		for _, p := range im.Build(nil).Report.Problems {
			if p.Row == 2 && !strings.Contains(p.Message, "EUR 10.50 in minor units but EUR 1,050.00 in major units") {
				t.Errorf("style %d: %q", style, p.Message)
			}
		}
		for _, tc := range []struct {
			units string
			want  []string
		}{{ingest.Minor, []string{"1050", "250000", "99"}}, {ingest.Major, []string{"105000", "25000000", "9900"}}} {
			if err := im.SetSettings(ingest.Settings{Amounts: tc.units}, "amounts"); err != nil {
				t.Fatal(err)
			}
			res := im.Build(nil)
			if !res.Report.Valid() {
				t.Fatalf("style %d, %s chosen: %v", style, tc.units, res.Report.Errors())
			}
			for i, w := range tc.want {
				got := res.Value(i)["requestBody"].(map[string]any)["destinationAmount"].(map[string]any)["amount"]
				if got != json.Number(w) {
					t.Errorf("style %d, %s chosen: amount %d is %v, want %s", style, tc.units, i, got, w)
				}
			}
		}
	}
}

// TestUnitsHeadersAreEvidence reads the header of an amount column as one
// piece of evidence: it decides with the values that agree with it, and
// leaves the units undecided against those that do not.
func TestUnitsHeadersAreEvidence(t *testing.T) {
	tests := []struct {
		header    string
		cells     []amountCell
		want      string
		undecided bool
		errors    []string
	}{
		{"destinationAmount.amount", []amountCell{{"1050", 0}, {"99", 0}}, ingest.Minor, false, nil},
		{"destinationAmount.amount", []amountCell{{"10.5", 0}, {"99.99", 0}}, ingest.Minor, true, []string{"G2 amount", "G3 amount"}},
		{"Betrag (EUR)", []amountCell{{"1050", 1}, {"99", 7}}, ingest.Major, false, nil},
		{"Betrag (EUR)", []amountCell{{"1050", 0}, {"99", 0}}, ingest.Minor, true, []string{"G2 amount-units", "G3 amount-units"}},
		{"Montant €", []amountCell{{"1050.25", 0}, {"99", 2}}, ingest.Major, false, nil},
		{"Betrag", []amountCell{{"1050.25", 1}, {"2500", 1}}, ingest.Major, false, nil},
		{"Betrag", []amountCell{{"1050", 1}, {"2500", 1}}, ingest.Minor, true, []string{"G2 amount-units", "G3 amount-units"}},
		{"Betrag", []amountCell{{"1050", 4}, {"2500", 11}}, ingest.Minor, false, nil},
		{"destinationAmount.amount (EUR)", []amountCell{{"1050", 0}}, ingest.Minor, true, []string{"G2 amount-units"}},
	}
	for _, tc := range tests {
		im := importOf(t, "z.xlsx", amountsBook(tc.header, tc.cells), "transfers")
		u := im.Reading().Units
		if u.Value != tc.want || u.Undecided != tc.undecided {
			t.Errorf("%q %v: units %+v, want %s undecided=%v", tc.header, tc.cells, u, tc.want, tc.undecided)
		}
		if got := unitCodes(im.Build(nil).Report); !slices.Equal(got, tc.errors) {
			t.Errorf("%q %v: problems %v, want %v", tc.header, tc.cells, got, tc.errors)
		}
	}
	// A CSV file's text: the header and the values.
	csv := func(h string, amounts ...string) *ingest.Import {
		var b strings.Builder
		b.WriteString("profileId;source.id;source.type;destination.id;destination.type;currency;" + h + "\n")
		for i, a := range amounts {
			fmt.Fprintf(&b, "110321;%d;managed_accounts;%d;managed_cards;EUR;%s\n", 1000+i, 2000+i, a)
		}
		return importOf(t, "t.csv", []byte(b.String()), "transfers")
	}
	if u := csv("Amount in EUR", "1.234,56", "20,00").Reading().Units; u.Undecided || u.Value != ingest.Major {
		t.Errorf("a currency header and decimals: %+v", u)
	}
	im := csv("Amount in EUR", "2500", "1200")
	if u := im.Reading().Units; !u.Undecided {
		t.Errorf("a currency header and whole numbers: %+v", u)
	}
	if got := unitCodes(im.Build(nil).Report); !slices.Equal(got, []string{"G2 amount-units", "G3 amount-units"}) {
		t.Errorf("a currency header and whole numbers: problems %v", got)
	}
	im = csv("destinationAmount.amount", "10,50", "20,00")
	for _, p := range im.Build(nil).Report.Problems {
		if !strings.Contains(p.Message, `the column's header "destinationAmount.amount" says minor units`) {
			t.Errorf("decimals under the API path: %q", p.Message)
		}
	}
}
