package ingest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// transferFields are headers that map to distinct fields of transfers.
var transferFields = []string{"profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount", "description"}

func transfersKind(t testing.TB) *schema.Kind {
	t.Helper()
	k, err := schema.Lookup("transfers")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func openBook(t testing.TB, b xlsxgen.Book) *ingest.File {
	t.Helper()
	f, err := ingest.Open("book.xlsx", b.Bytes(), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// paymentsSheet is a sheet of titles rows of titles, a header of the
// given headers and rows of values below it.
func paymentsSheet(name string, titles int, headers []string, rows int) xlsxgen.Sheet {
	s := xlsxgen.Sheet{Name: name}
	for i := range titles {
		s.Rows = append(s.Rows, xlsxgen.Texts(fmt.Sprintf("Pay run %d", i+1)))
	}
	s.Rows = append(s.Rows, xlsxgen.Texts(headers...))
	for i := range rows {
		var r xlsxgen.Row
		for j := range headers {
			r.Cells = append(r.Cells, xlsxgen.S(fmt.Sprintf("v%d%d", i, j)))
		}
		s.Rows = append(s.Rows, r)
	}
	return s
}

func summarySheet(name string) xlsxgen.Sheet {
	return xlsxgen.Sheet{Name: name, Rows: []xlsxgen.Row{
		xlsxgen.Texts("Payments, November"),
		{Cells: []xlsxgen.Cell{xlsxgen.S("Total"), xlsxgen.N("3550")}},
		{Cells: []xlsxgen.Cell{xlsxgen.S("Count"), xlsxgen.N("2")}},
		xlsxgen.Texts("Prepared by", "Finance"),
	}}
}

func sheetsOf(d reading.Decision) []string {
	var out []string
	for _, c := range d.Evidence {
		if !slices.Contains(out, c.Sheet) {
			out = append(out, c.Sheet)
		}
	}
	return out
}

func TestChooseSheetPassesOverACoverSheet(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	hidden := paymentsSheet("Old", 0, transferFields, 2)
	hidden.State = "hidden"
	f := openBook(t, xlsxgen.Book{Sheets: []xlsxgen.Sheet{
		summarySheet("Summary"), hidden, {Name: "Empty"}, paymentsSheet("Payments", 2, transferFields, 3),
	}})
	name, d := f.ChooseSheet(k, v)
	if name != "Payments" || d.Value != "Payments" || d.How != reading.Detected || d.Undecided {
		t.Fatalf("chose %q: %+v", name, d)
	}
	if len(d.Evidence) == 0 || slices.ContainsFunc(d.Evidence, func(c reading.Cell) bool {
		return c.Sheet != "Payments" || c.Row != 3 || c.Suggests != "Payments"
	}) {
		t.Errorf("evidence %+v, want the headers of Payments!3", d.Evidence)
	}
	if e := d.Evidence[0]; e.Column != "A" || e.Raw != "profileId" {
		t.Errorf("first evidence %+v", e)
	}

	tb, err := f.TableFor(context.Background(), "", k, v, nil)
	if err != nil || tb.Sheet != "Payments" || tb.Reading.Sheet.How != reading.Detected {
		t.Fatalf("TableFor: %v %q %+v", err, tb.Sheet, tb.Reading.Sheet)
	}
	im := ingest.NewImport(tb, k, v)
	if r := im.Reading(); r.Sheet.Value != "Payments" || r.HeaderRow.Value != "3" || r.HeaderRow.How != reading.Detected {
		t.Errorf("reading %+v", r)
	}
	// The operator's pick is read as chosen.
	tb, err = f.TableFor(context.Background(), "Summary", k, v, nil)
	if err != nil || tb.Sheet != "Summary" || !reflect.DeepEqual(tb.Reading.Sheet, reading.Decision{Value: "Summary", How: reading.Chosen}) {
		t.Fatalf("picked: %v %+v", err, tb.Reading.Sheet)
	}
}

func TestChooseSheetDefaults(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	for name, tc := range map[string]struct {
		book xlsxgen.Book
		want string
	}{
		"one sheet":         {xlsxgen.Book{Sheets: []xlsxgen.Sheet{paymentsSheet("Pay", 0, transferFields, 1)}}, "Pay"},
		"one with values":   {xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Blank"}, paymentsSheet("Pay", 0, transferFields, 1)}}, "Pay"},
		"no sheet maps":     {xlsxgen.Book{Sheets: []xlsxgen.Sheet{summarySheet("A"), paymentsSheet("B", 0, []string{"Spalte 1", "Spalte 2"}, 2)}}, "A"},
		"headers only":      {xlsxgen.Book{Sheets: []xlsxgen.Sheet{summarySheet("A"), paymentsSheet("B", 1, transferFields, 0)}}, "A"},
		"a list of fields:": {xlsxgen.Book{Sheets: []xlsxgen.Sheet{summarySheet("A"), {Name: "Fields", Rows: []xlsxgen.Row{xlsxgen.Texts("#", "Title", "Path"), xlsxgen.Texts("1", "Amount", "amount")}}}}, "A"},
	} {
		f := openBook(t, tc.book)
		got, d := f.ChooseSheet(k, v)
		if got != tc.want || !reflect.DeepEqual(d, reading.Decision{Value: tc.want, How: reading.Default}) {
			t.Errorf("%s: %q %+v", name, got, d)
		}
	}
	f, err := ingest.Open("pay.csv", []byte(strings.Join(transferFields, ",")+"\n1,2,3,4,5,EUR,100,x\n"), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, d := f.ChooseSheet(k, v); got != "pay" || !reflect.DeepEqual(d, reading.Decision{Value: "pay", How: reading.Default}) {
		t.Errorf("CSV: %q %+v", got, d)
	}
	tb, err := f.TableFor(context.Background(), "", k, v, nil)
	if err != nil || tb.Sheet != "pay" || !reflect.DeepEqual(tb.Reading.Sheet, reading.Decision{}) {
		t.Errorf("CSV table: %v %+v", err, tb.Reading.Sheet)
	}
}

func TestChooseSheetTiesAreUndecided(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	f := openBook(t, xlsxgen.Book{Sheets: []xlsxgen.Sheet{
		summarySheet("Summary"),
		paymentsSheet("March", 1, transferFields[:4], 2),
		paymentsSheet("Notes", 0, transferFields[:2], 2),
		paymentsSheet("April", 0, transferFields[2:6], 1),
	}})
	name, d := f.ChooseSheet(k, v)
	if name != "Summary" || d.Value != "Summary" || d.How != reading.Default || !d.Undecided {
		t.Fatalf("chose %q: %+v", name, d)
	}
	if got := sheetsOf(d); !slices.Equal(got, []string{"March", "April"}) {
		t.Errorf("evidence from %v, want March and April", got)
	}
	tb, err := f.TableFor(context.Background(), "", k, v, nil)
	if err != nil || tb.Sheet != "Summary" || !tb.Reading.Sheet.Undecided {
		t.Errorf("TableFor: %v %+v", err, tb.Reading.Sheet)
	}
}

// The header row is found under title rows in a workbook exactly as in a
// CSV file.
func TestHeaderUnderTitleRowsInWorkbookAndCSV(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	book := openBook(t, xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "pay", Rows: []xlsxgen.Row{
		xlsxgen.Texts("Transfers, November"),
		xlsxgen.Texts("Finance", "Prepared 3 Nov"),
		xlsxgen.Texts(transferFields...),
		{Cells: []xlsxgen.Cell{xlsxgen.S("110321"), xlsxgen.S("1001"), xlsxgen.S("managed_accounts"), xlsxgen.S("2001"), xlsxgen.S("managed_cards"), xlsxgen.S("EUR"), xlsxgen.N("1050"), xlsxgen.S("Salary")}},
	}}}})
	csv, err := ingest.Open("pay.csv", []byte("Transfers, November\nFinance,Prepared 3 Nov\n"+strings.Join(transferFields, ",")+"\n110321,1001,managed_accounts,2001,managed_cards,EUR,1050,Salary\n"), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []reading.Decision
	for _, f := range []*ingest.File{book, csv} {
		tb, err := f.TableFor(context.Background(), "", k, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		im := ingest.NewImport(tb, k, v)
		if m := im.Mapping(); m.HeaderRow != 3 || len(m.Mapped()) != 8 {
			t.Errorf("%s: header row %d, %d mapped", f.Format, m.HeaderRow, len(m.Mapped()))
		}
		res := im.Build(nil)
		if res.Report.Elements != 1 || !res.Report.Valid() {
			t.Errorf("%s: %+v", f.Format, res.Report.Problems)
		}
		got = append(got, im.Reading().HeaderRow)
	}
	if got[0].Value != "3" || got[0].How != reading.Detected || len(got[0].Evidence) != 5 || got[0].Evidence[0] != (reading.Cell{Sheet: "pay", Row: 3, Column: "A", Raw: "profileId", Suggests: "3", Why: "the header of profileId"}) {
		t.Errorf("xlsx header row %+v", got[0])
	}
	if fmt.Sprint(got[0]) != fmt.Sprint(got[1]) {
		t.Errorf("xlsx and CSV differ:\n%+v\n%+v", got[0], got[1])
	}
}

func headerReading(t *testing.T, csv string) reading.Decision {
	t.Helper()
	k, v := transfersKind(t), schema.Default()
	f, err := ingest.Open("h.csv", []byte(csv), ingest.Options{Delimiter: ","})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ingest.NewImport(tb, k, v).Reading().HeaderRow
}

func TestHeaderDecision(t *testing.T) {
	// A header written twice: rows 1 and 3 tie, the first is read.
	d := headerReading(t, "source.id,amount,currency\n1001,100,EUR\ncurrency,source.id,amount\n1002,200,EUR\n")
	if d.Value != "1" || d.How != reading.Default || !d.Undecided {
		t.Fatalf("tie: %+v", d)
	}
	var rows []int
	for _, c := range d.Evidence {
		if !slices.Contains(rows, c.Row) {
			rows = append(rows, c.Row)
		}
		if c.Suggests != strconv.Itoa(c.Row) {
			t.Errorf("evidence %+v", c)
		}
	}
	if !slices.Equal(rows, []int{1, 3}) {
		t.Errorf("evidence rows %v", rows)
	}
	// No row maps: the header row is the default one.
	if d := headerReading(t, "Title\nSpalte 1,Spalte 2\n1001,100\n"); d.Value != "2" || d.How != reading.Default || d.Undecided || len(d.Evidence) != 0 {
		t.Errorf("none maps: %+v", d)
	}
	// A row that maps better than another is detected.
	if d := headerReading(t, "amount,Notes\n100,x\nsource.id,amount,currency\n1002,200,EUR\n"); d.Value != "3" || d.How != reading.Detected || len(d.Evidence) != 3 {
		t.Errorf("best: %+v", d)
	}
}

// For random tops of sheets, a row (a sheet) that ties with another for
// the best header makes the decision undecided; without the tie it is
// detected.
func TestHeaderAndSheetTiesProperty(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	rng := rand.New(rand.NewPCG(7, 11))
	noise := func() xlsxgen.Row {
		var r xlsxgen.Row
		for j := range 1 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				r.Cells = append(r.Cells, xlsxgen.N(strconv.Itoa(rng.IntN(100000))))
			} else {
				r.Cells = append(r.Cells, xlsxgen.S(fmt.Sprintf("qz%d-%d", j, rng.IntN(100))))
			}
		}
		return r
	}
	headers := func(n int) []string {
		h := slices.Clone(transferFields)
		rng.Shuffle(len(h), func(i, j int) { h[i], h[j] = h[j], h[i] })
		return h[:n]
	}
	for i := range 60 {
		// Header rows: the best of n fields at row a, its columns
		// shuffled at row b, weaker headers and noise elsewhere.
		n := 2 + rng.IntN(len(transferFields)-2)
		best := headers(n)
		total := 4 + rng.IntN(16)
		a, b := rng.IntN(total), rng.IntN(total)
		for a == b {
			b = rng.IntN(total)
		}
		var rows []xlsxgen.Row
		for r := range total {
			switch {
			case r == a:
				rows = append(rows, xlsxgen.Texts(best...))
			case r == b:
				shuffled := slices.Clone(best)
				rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
				rows = append(rows, xlsxgen.Texts(shuffled...))
			case rng.IntN(4) == 0:
				rows = append(rows, xlsxgen.Texts(headers(1+rng.IntN(n-1))...))
			default:
				rows = append(rows, noise())
			}
		}
		check := func(rows []xlsxgen.Row, wantUndecided bool, want int) {
			t.Helper()
			f := openBook(t, xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", Rows: rows}}})
			tb, err := f.Table("", nil)
			if err != nil {
				t.Fatal(err)
			}
			d := ingest.NewImport(tb, k, v).Reading().HeaderRow
			if d.Undecided != wantUndecided || d.Value != strconv.Itoa(want) {
				t.Fatalf("case %d (rows %d and %d of %d, undecided %v): %+v", i, a+1, b+1, total, wantUndecided, d)
			}
		}
		check(rows, true, min(a, b)+1)
		alone := slices.Clone(rows)
		alone[b] = noise()
		check(alone, false, a+1)

		// Sheets: two of m fields with values below, others of fewer
		// fields or none, in random order.
		m := 2 + rng.IntN(len(transferFields)-2)
		sheets := []xlsxgen.Sheet{
			paymentsSheet("Tie 1", rng.IntN(3), headers(m), 1+rng.IntN(3)),
			paymentsSheet("Tie 2", rng.IntN(3), headers(m), 1+rng.IntN(3)),
		}
		for j := range rng.IntN(4) {
			if rng.IntN(2) == 0 {
				sheets = append(sheets, summarySheet(fmt.Sprintf("Other %d", j)))
			} else {
				sheets = append(sheets, paymentsSheet(fmt.Sprintf("Other %d", j), rng.IntN(3), headers(1+rng.IntN(m-1)), 1+rng.IntN(3)))
			}
		}
		rng.Shuffle(len(sheets), func(i, j int) { sheets[i], sheets[j] = sheets[j], sheets[i] })
		f := openBook(t, xlsxgen.Book{Sheets: sheets})
		name, d := f.ChooseSheet(k, v)
		if !d.Undecided || name != sheets[0].Name || d.Value != name {
			t.Fatalf("case %d: sheets %v: %q %+v", i, names(sheets), name, d)
		}
		if got := sheetsOf(d); len(got) != 2 || !slices.Contains(got, "Tie 1") || !slices.Contains(got, "Tie 2") {
			t.Fatalf("case %d: evidence from %v", i, got)
		}
		// Without the tie, the sheet is detected.
		for j := range sheets {
			if sheets[j].Name == "Tie 2" {
				sheets[j] = summarySheet("Tie 2")
			}
		}
		f = openBook(t, xlsxgen.Book{Sheets: sheets})
		if name, d := f.ChooseSheet(k, v); name != "Tie 1" || d.How != reading.Detected || slices.ContainsFunc(d.Evidence, func(c reading.Cell) bool { return c.Sheet != "Tie 1" }) {
			t.Fatalf("case %d: sheets %v: %q %+v", i, names(sheets), name, d)
		}
	}
}

func names(sheets []xlsxgen.Sheet) []string {
	var out []string
	for _, s := range sheets {
		out = append(out, s.Name)
	}
	return out
}

// BenchmarkChooseSheet measures the choice of the sheet of a workbook of
// three sheets of 10,000 transfers each (two of them incomplete copies):
// only the top rows of each are read, so it costs a small part of reading
// the chosen sheet.
func BenchmarkChooseSheet(b *testing.B) {
	k, v := transfersKind(b), schema.Default()
	sheet := func(name string, headers []string) xlsxgen.Sheet {
		rows := []xlsxgen.Row{xlsxgen.Texts(headers...)}
		for i := range 10000 {
			r := transferRow(i)[:len(headers)]
			var row xlsxgen.Row
			for _, c := range r {
				row.Cells = append(row.Cells, xlsxgen.S(c))
			}
			rows = append(rows, row)
		}
		return xlsxgen.Sheet{Name: name, Rows: rows}
	}
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{
		summarySheet("Summary"), sheet("Old", transferHeaders[:4]), sheet("Draft", transferHeaders[:6]), sheet("Transfers", transferHeaders),
	}}.Bytes()
	f, err := ingest.Open("book.xlsx", data, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	f.Sheets()
	b.Run("choose", func(b *testing.B) {
		for b.Loop() {
			if name, d := f.ChooseSheet(k, v); name != "Transfers" || d.How != reading.Detected {
				b.Fatalf("%q %+v", name, d)
			}
		}
	})
	b.Run("read the chosen sheet", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.Table("Transfers", nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// With a saved mapping, the sheet with its headers is read even when they
// are no usual headers of the kind.
func TestChooseSheetByMapping(t *testing.T) {
	k, v := transfersKind(t), schema.Default()
	f := openBook(t, xlsxgen.Book{Sheets: []xlsxgen.Sheet{summarySheet("Cover"), paymentsSheet("December", 2, []string{"Spalte 1", "Spalte 2", "Spalte 3"}, 2)}})
	if name, d := f.ChooseSheet(k, v); name != "Cover" || d.How != reading.Default || d.Undecided {
		t.Errorf("without the mapping: %q %+v", name, d)
	}
	saved := ingest.Mapping{Kind: "transfers", Columns: []ingest.ColumnMapping{
		{Letter: "A", Header: "Spalte 1", Field: "source.id"}, {Letter: "C", Header: "Spalte 3", Field: "destinationAmount.amount"},
	}}
	name, d := f.ChooseSheetByMapping(k, v, saved)
	if name != "December" || d.How != reading.Detected || len(d.Evidence) != 2 || d.Evidence[1].Raw != "Spalte 3" || d.Evidence[1].Row != 3 {
		t.Errorf("with the mapping: %q %+v", name, d)
	}
}
