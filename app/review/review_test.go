package review_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/export"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
)

// transfersCSV is a transfers file in major units: row 3 has a lower-case
// currency (an error), row 5 repeats row 2, and row 6 is in USD.
const transfersCSV = `profileId;source.id;source.type;destination.id;destination.type;currency;amount;description
110321;1001;managed_accounts;2001;managed_cards;EUR;1.234,56;Salary November
110321;1002;managed_accounts;2002;managed_cards;eur;12,50;Bonus
110321;1001;managed_accounts;2003;managed_cards;EUR;0,99;Expenses
110321;1001;managed_accounts;2001;managed_cards;EUR;1.234,56;Salary November
110321;1003;managed_accounts;2004;managed_cards;USD;100,00;Refund
`

// openTable builds a Document from CSV text of kind, with its first
// passes.
func openTable(t *testing.T, kind, text string, pass ...review.FirstPass) *review.Document {
	t.Helper()
	f, err := ingest.Open("pay.csv", []byte(text), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	table, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := schema.Lookup(kind)
	if err != nil {
		t.Fatal(err)
	}
	im := ingest.NewImport(table, k, schema.Default())
	im.Build(nil)
	d, err := review.FromImport(im, false, "pay.csv", pass...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// openRequest builds a Document from a JSON request body of kind.
func openRequest(t *testing.T, kind, body string) *review.Document {
	t.Helper()
	k, err := schema.Lookup(kind)
	if err != nil {
		t.Fatal(err)
	}
	v := schema.Default()
	r, err := v.CheckRequest(k, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err := schema.DecodeJSON([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return review.FromRequest(k, false, "pay.json", doc.([]any), r, v)
}

func column(t *testing.T, d *review.Document, field string) int {
	t.Helper()
	for i, c := range d.Columns() {
		if c.Field == field {
			return i
		}
	}
	t.Fatalf("no column for %s in %+v", field, d.Columns())
	return -1
}

func TestTableRowsShowCellsAndMarkProblems(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	if d.Len() != 5 {
		t.Fatalf("%d elements, want 5", d.Len())
	}
	cur := column(t, d, "destinationAmount.currency")
	if c := d.Columns()[cur]; c.Letter != "F" || c.Header != "currency" || !c.Required {
		t.Errorf("currency column = %+v", c)
	}
	rows := d.Rows(0, 10, false)
	if len(rows) != 5 || rows[1].Label != "3" || rows[1].Cells[cur] != "eur" || rows[1].Severity != schema.Error {
		t.Fatalf("row 3 = %+v", rows[1])
	}
	if len(rows[1].Marks) != 1 || rows[1].Marks[0].Column != cur || rows[1].Marks[0].Severity != schema.Error || rows[1].Marks[0].Messages[0] == "" {
		t.Errorf("marks of row 3 = %+v", rows[1].Marks)
	}
	// The repeated row is a warning on the later one.
	if rows[3].Severity != schema.Warning || len(rows[3].Problems) != 1 || !strings.Contains(rows[3].Problems[0], "row 2") {
		t.Errorf("row 5 = %+v, want a duplicate warning naming row 2", rows[3])
	}
	if sheet, row := d.Origin(3); sheet != "pay" || row != 5 {
		t.Errorf("origin of element 3 = %q %d", sheet, row)
	}
	// The errors-only view holds the invalid element alone.
	if n := d.ViewLen(true); n != 1 {
		t.Errorf("errors-only view has %d rows", n)
	}
	if r := d.Rows(0, 5, true); len(r) != 1 || r[0].Element != 1 {
		t.Errorf("errors-only rows = %+v", r)
	}
}

func TestEditingACellRevalidatesItsRow(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	v0 := d.Version()
	cur := column(t, d, "destinationAmount.currency")
	if err := d.Edit(1, cur, "EUR"); err != nil {
		t.Fatal(err)
	}
	s := d.Summary()
	if s.Invalid != 0 || s.Errors != 0 || d.Version() == v0 {
		t.Errorf("after the fix: %+v, version %d → %d", s, v0, d.Version())
	}
	if got := d.Row(1); got.Cells[cur] != "EUR" || got.Severity != "" {
		t.Errorf("row after the fix = %+v", got)
	}
	body := d.Elements()[1].(map[string]any)["requestBody"].(map[string]any)
	if fmt.Sprint(body["destinationAmount"]) != "map[amount:1250 currency:EUR]" {
		t.Errorf("element 1 = %v", body)
	}
	// Breaking an amount shows at its cell.
	amt := column(t, d, "destinationAmount.amount")
	if err := d.Edit(0, amt, "12,345"); err != nil {
		t.Fatal(err)
	}
	if r := d.Row(0); r.Severity != schema.Error || len(r.Marks) != 1 || r.Marks[0].Column != amt {
		t.Errorf("row 2 with 12,345 EUR = %+v", r)
	}
}

func TestSummaryTotalsPerCurrencyAndSource(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	s := d.Summary()
	if s.Elements != 5 || s.Valid != 4 || s.Invalid != 1 || s.Errors != 1 || s.Duplicates != 1 {
		t.Errorf("counts = %+v", s)
	}
	// Row 3's currency is "eur": it is summed apart, in the one row of
	// invalid currencies.
	var got []string
	for _, tot := range s.Totals {
		got = append(got, fmt.Sprintf("%s %v %d %s", tot.Label(), tot.Invalid, tot.Count, tot))
	}
	want := []string{"EUR false 3 EUR 2,470.11", "USD false 1 USD 100.00", `invalid currency true 1 invalid currency: 1,250 in minor units ("eur")`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("totals:\n got %q\nwant %q", got, want)
	}
	if len(s.Sources) != 3 || s.Sources[0].Source != "managed_accounts 1001" || s.Sources[0].Count != 3 ||
		len(s.Sources[0].Totals) != 1 || s.Sources[0].Totals[0].String() != "EUR 2,470.11" {
		t.Errorf("sources = %+v", s.Sources)
	}
}

func TestReplaceInAColumn(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	cur := column(t, d, "destinationAmount.currency")
	n, err := d.Replace(cur, "eur", "EUR", true, true)
	if err != nil || n != 1 {
		t.Fatalf("replaced %d, %v; want 1", n, err)
	}
	if d.Summary().Invalid != 0 {
		t.Errorf("still invalid: %+v", d.Summary())
	}
	desc := column(t, d, "description")
	if n, _ := d.Replace(desc, "SALARY", "Pay", false, false); n != 2 {
		t.Errorf("case-insensitive replace changed %d cells, want 2", n)
	}
	if got := d.Row(0).Cells[desc]; got != "Pay November" {
		t.Errorf("description = %q", got)
	}
	if _, err := d.Replace(desc, "", "x", false, false); err == nil {
		t.Error("replacing nothing was accepted")
	}
}

func TestReplaceManyRowsRebuildsTheTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("profileId;source.id;source.type;destination.id;destination.type;currency;amount\n")
	for i := range 200 {
		fmt.Fprintf(&b, "110321;%d;managed_accounts;%d;managed_cards;eur;%d\n", 1000+i, 2000+i, 100+i)
	}
	d := openTable(t, "transfers", b.String())
	if s := d.Summary(); s.Invalid != 200 {
		t.Fatalf("invalid = %d, want 200", s.Invalid)
	}
	n, err := d.Replace(column(t, d, "destinationAmount.currency"), "eur", "EUR", true, false)
	if err != nil || n != 200 {
		t.Fatalf("replaced %d, %v", n, err)
	}
	if s := d.Summary(); s.Invalid != 0 || len(s.Totals) != 1 || s.Totals[0].Count != 200 {
		t.Errorf("after replacing: %+v", s)
	}
}

func TestNextProblemGoesRound(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	start := review.Place{Element: -1, Column: -1}
	f, ok := d.NextProblem(start, false, false)
	if !ok || f.Element != 1 || f.Wrapped || f.Column != column(t, d, "destinationAmount.currency") {
		t.Fatalf("first problem = %+v", f)
	}
	f, _ = d.NextProblem(review.Place{Element: f.Element, Column: f.Column}, false, false)
	if f.Element != 3 || f.Problem.Code != review.DuplicateCode {
		t.Errorf("second problem = %+v", f)
	}
	f, _ = d.NextProblem(review.Place{Element: f.Element, Column: f.Column}, false, false)
	if f.Element != 1 || !f.Wrapped {
		t.Errorf("third problem = %+v, want the first again, wrapped", f)
	}
	// Errors only: positions are in the view of invalid elements.
	f, _ = d.NextProblem(review.Place{Element: 1, Column: f.Column}, false, true)
	if f.Element != 1 || f.Position != 0 || !f.Wrapped {
		t.Errorf("next error after the only one = %+v", f)
	}
	f, _ = d.NextProblem(review.Place{Element: d.Len(), Column: -1}, true, false)
	if f.Element != 3 {
		t.Errorf("previous from the end = %+v", f)
	}
}

// Problem navigation stops at every marked cell of a row, left to right,
// before the next row; back, right to left.
func TestNextProblemVisitsEveryCellOfARow(t *testing.T) {
	csv := "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
		"110321,managed_accounts,1001,managed_cards,2001,EUR,100\n" +
		"x,managed_accounts,1001,managed_cards,2002,eur,ten\n" +
		"110321,managed_accounts,1002,managed_cards,2003,EUR,300\n" +
		"110321,managed_accounts,1003,nowhere,2004,EUR,400\n"
	d := openTable(t, "transfers", csv)
	a, cur, amt, dt := column(t, d, "profileId"), column(t, d, "destinationAmount.currency"), column(t, d, "destinationAmount.amount"), column(t, d, "destination.type")
	want := []review.Place{{1, a}, {1, cur}, {1, amt}, {3, dt}}
	at := review.Place{Element: -1, Column: -1}
	for k, w := range want {
		f, ok := d.NextProblem(at, false, false)
		if !ok || f.Element != w.Element || f.Column != w.Column {
			t.Fatalf("stop %d = %+v, want %+v", k, f, w)
		}
		at = review.Place{Element: f.Element, Column: f.Column}
	}
	// From a cell between two marked ones, the next is on its right.
	if f, _ := d.NextProblem(review.Place{Element: 1, Column: a + 1}, false, false); f.Element != 1 || f.Column != cur {
		t.Errorf("after B3: %+v", f)
	}
	// Back from the amount: the currency, then profileId, then the
	// previous row's last.
	at = review.Place{Element: 1, Column: amt}
	for _, w := range []review.Place{{1, cur}, {1, a}, {3, dt}} {
		f, _ := d.NextProblem(at, true, false)
		if f.Element != w.Element || f.Column != w.Column {
			t.Errorf("back from %+v = %+v, want %+v", at, f, w)
		}
		at = review.Place{Element: f.Element, Column: f.Column}
	}
}

const requestBody = `[
{"pathParams":{},"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1001"},"destination":{"type":"managed_cards","id":"2001"},"destinationAmount":{"currency":"EUR","amount":1050}}},
{"pathParams":{},"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1001"},"destination":{"type":"managed_cards","id":"2002"},"destinationAmount":{"currency":"EUR","amount":"ten"},"tag":"x"}},
{"pathParams":{},"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1002"},"destination":{"type":"managed_cards","id":"2003"}}}
]`

func TestRequestBodyColumnsAndEdits(t *testing.T) {
	d := openRequest(t, "transfers", requestBody)
	var fields []string
	for _, c := range d.Columns() {
		fields = append(fields, c.Field)
	}
	for _, want := range []string{"profileId", "source.id", "destinationAmount.amount", "destinationAmount.currency", "tag"} {
		if !strings.Contains(" "+strings.Join(fields, " ")+" ", " "+want+" ") {
			t.Errorf("no column %s in %q", want, fields)
		}
	}
	amt := column(t, d, "destinationAmount.amount")
	if r := d.Row(1); r.Label != "#1" || r.Cells[amt] != "ten" || len(r.Marks) == 0 || r.Marks[0].Column != amt {
		t.Errorf("element 1 = %+v", r)
	}
	if sheet, row := d.Origin(2); sheet != "" || row != 2 {
		t.Errorf("origin of element 2 = %q %d", sheet, row)
	}
	// Element 2 lacks its amount: the required field's cell is marked.
	if r := d.Row(2); r.Severity != schema.Error || r.Cells[amt] != "" {
		t.Errorf("element 2 = %+v", r)
	}
	if err := d.Edit(1, amt, "1000"); err != nil {
		t.Fatal(err)
	}
	if r := d.Row(1); r.Severity != "" {
		t.Errorf("after the fix element 1 = %+v", r)
	}
	amount := d.Elements()[1].(map[string]any)["requestBody"].(map[string]any)["destinationAmount"].(map[string]any)["amount"]
	if amount != json.Number("1000") {
		t.Errorf("amount = %#v, want the number 1000", amount)
	}
	cur := column(t, d, "destinationAmount.currency")
	if err := d.Edit(2, amt, "5"); err != nil {
		t.Fatal(err)
	}
	if err := d.Edit(2, cur, "EUR"); err != nil {
		t.Fatal(err)
	}
	if s := d.Summary(); s.Invalid != 0 || len(s.Totals) != 1 || s.Totals[0].Count != 3 || s.Totals[0].String() != "EUR 20.55" {
		t.Errorf("summary = %+v", s)
	}
	// Clearing a cell removes the field.
	if err := d.Edit(1, column(t, d, "tag"), ""); err != nil {
		t.Fatal(err)
	}
	if _, has := d.Elements()[1].(map[string]any)["requestBody"].(map[string]any)["tag"]; has {
		t.Error("the cleared tag is still sent")
	}
}

func TestRequestBodyIsTheCanonicalJSONOfTheElements(t *testing.T) {
	d := openRequest(t, "transfers", `[{"pathParams":{},"requestBody":{"profileId":"1","z":"<&>","a":1.50}}]`)
	body, err := export.RequestBody(d)
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != `[{"pathParams":{},"requestBody":{"a":1.50,"profileId":"1","z":"<&>"}}]` {
		t.Errorf("body = %s", body)
	}
}

// importErrorWorkbook reads a document's error workbook back as transfers.
func importErrorWorkbook(t *testing.T, d *review.Document) *ingest.Import {
	t.Helper()
	tab, header, r := d.ErrorTable()
	wb, err := workbook.ErrorWorkbook(tab, header, r, lang.English)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ingest.Open("errors.xlsx", wb, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	table, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := schema.Lookup("transfers")
	return ingest.NewImport(table, k, schema.Default())
}

func TestExports(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	im := importErrorWorkbook(t, d)
	if res := im.Build(nil); len(res.Elements) != 5 || len(res.Report.InvalidElements()) != 1 {
		t.Errorf("the error workbook imports as %d elements, %d invalid", len(res.Elements), len(res.Report.InvalidElements()))
	}

	m, err := export.Manifest(d, time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"section,name,currency,count,amount_minor,amount\n",
		"file,pay.csv,,5,,\n",
		"kind,transfers,,,,\n",
		"count,invalid,,1,,\n",
		"count,duplicates,,1,,\n",
		"total,EUR,EUR,3,247011,\"EUR 2,470.11\"\n",
		"source,managed_accounts 1001,EUR,3,247011,\"EUR 2,470.11\"\n",
		"created,2025-03-04T05:06:07Z,,,,\n",
	} {
		if !strings.Contains(string(m), want) {
			t.Errorf("the manifest lacks %q:\n%s", want, m)
		}
	}
}

func TestRequestErrorWorkbookImportsWithoutMapping(t *testing.T) {
	d := openRequest(t, "transfers", requestBody)
	im := importErrorWorkbook(t, d)
	if im.Table.Sheet != "Request" {
		t.Errorf("the sheet is %q", im.Table.Sheet)
	}
	if un := im.Mapping().Unmapped(); len(un) != 0 {
		t.Errorf("unmapped columns: %+v", un)
	}
	res := im.Build(nil)
	if len(res.Elements) != 3 {
		t.Fatalf("%d elements", len(res.Elements))
	}
	// The kind has no path parameter: the import leaves pathParams out.
	got, _ := json.Marshal(res.Value(0)["requestBody"])
	want, _ := json.Marshal(d.Elements()[0].(map[string]any)["requestBody"])
	if string(got) != string(want) {
		t.Errorf("element 0 reads back as\n%s\nwant\n%s", got, want)
	}
}

// A file of more elements than one bulk takes is sent as several: the
// console tells it as a warning, not an error beside "every element is
// valid".
func TestAFileOfMoreThanABulkIsAWarning(t *testing.T) {
	var b strings.Builder
	b.WriteString("card id\n")
	for i := range schema.MaxElements + 1 {
		fmt.Fprintf(&b, "%d\n", 1000+i)
	}
	d := openTable(t, "card_blocks", b.String())
	s := d.Summary()
	if s.Errors != 0 || s.Invalid != 0 {
		t.Fatalf("summary: %d errors, %d invalid, %d warnings: %v", s.Errors, s.Invalid, s.Warnings, d.Report().Problems[:min(3, len(d.Report().Problems))])
	}
	var found bool
	for _, p := range d.Report().Problems {
		if p.Code == schema.TooManyElements {
			found = p.Severity == schema.Warning && p.Message == "the file holds 10,001 elements, more than one bulk takes (10,000): it is submitted as 2 bulks"
		}
	}
	if !found {
		t.Errorf("problems %v", d.Report().Problems)
	}
}
