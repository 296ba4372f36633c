package ingest_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// The benchmarks measure what an operator waits for: a file's bytes in,
// elements built and validated, report out. The files are 10,000
// transfers that use every field, as an ERP export or a filled template
// would hold them.

var transferHeaders = []string{"profileId", "tag", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "destinationAmount.amount", "description", "scheduledTimestamp"}

var scheduled = fmt.Sprint(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())

func transferRow(i int) []string {
	return []string{"110321", fmt.Sprintf("payroll-%d", i), "managed_accounts", fmt.Sprintf("10%07d", i%97), "managed_cards", fmt.Sprintf("20%07d", i), "EUR", fmt.Sprint(100 + i*7), fmt.Sprintf("Salary November, ref %d", i), scheduled}
}

// transfersXLSX writes n transfers as Excel does: shared strings, amounts
// as numbers, ids as text.
func transfersXLSX(n int) []byte {
	rows := []xlsxgen.Row{xlsxgen.Texts(transferHeaders...)}
	for i := range n {
		r := transferRow(i)
		cells := make([]xlsxgen.Cell, len(r))
		for j, v := range r {
			cells[j] = xlsxgen.S(v)
		}
		cells[7] = xlsxgen.N(r[7])
		rows = append(rows, xlsxgen.Row{Cells: cells})
	}
	return xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Transfers", Rows: rows}}}.Bytes()
}

func transfersCSV(n int) []byte {
	var b strings.Builder
	b.WriteString(strings.Join(transferHeaders, ",") + "\n")
	for i := range n {
		r := transferRow(i)
		r[8] = `"` + r[8] + `"`
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	return []byte(b.String())
}

// transfersJSON writes n transfers as a request body.
func transfersJSON(n int) []byte {
	elems := make([]any, n)
	for i := range n {
		r := transferRow(i)
		elems[i] = map[string]any{"requestBody": map[string]any{
			"profileId": r[0], "tag": r[1], "source": map[string]any{"type": r[2], "id": r[3]},
			"destination": map[string]any{"type": r[4], "id": r[5]}, "destinationAmount": map[string]any{"currency": r[6], "amount": json.Number(r[7])},
			"description": r[8], "scheduledTimestamp": r[9],
		}}
	}
	b, _ := json.Marshal(elems)
	return b
}

// importAndValidate is one import as the console runs it.
func importAndValidate(b *testing.B, name string, data []byte, v *schema.Validator, k *schema.Kind) *schema.Report {
	f, err := ingest.Open(name, data, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if doc, _, ok := f.Request(); ok {
		return v.ValidateRequest(k, doc.([]any))
	}
	tab, err := f.Table("", nil)
	if err != nil {
		b.Fatal(err)
	}
	return ingest.NewImport(tab, k, v).Build(nil).Report
}

func benchImport(b *testing.B, name string, data []byte, fresh bool) {
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	if r := importAndValidate(b, name, data, v, k); !r.Valid() || r.Elements != 10000 || len(r.Problems) != 0 {
		b.Fatalf("benchmark file is not clean: %d elements, %v", r.Elements, r.Problems[:min(3, len(r.Problems))])
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if fresh {
			// The first file after page load also compiles the schema.
			var err error
			if v, err = schema.NewValidator(); err != nil {
				b.Fatal(err)
			}
		}
		importAndValidate(b, name, data, v, k)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/file")
}

func BenchmarkIngest10kTransfersXLSX(b *testing.B) {
	benchImport(b, "t.xlsx", transfersXLSX(10000), false)
}

func BenchmarkIngest10kTransfersXLSXFirst(b *testing.B) {
	benchImport(b, "t.xlsx", transfersXLSX(10000), true)
}

func BenchmarkIngest10kTransfersCSV(b *testing.B) {
	benchImport(b, "t.csv", transfersCSV(10000), false)
}

func BenchmarkIngest10kTransfersJSON(b *testing.B) {
	benchImport(b, "t.json", transfersJSON(10000), false)
}

// The stages of the xlsx import, to see where the time goes.

func BenchmarkStageReadXLSX(b *testing.B) {
	data := transfersXLSX(10000)
	for b.Loop() {
		f, err := ingest.Open("t.xlsx", data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Table("", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStageBuildOnly(b *testing.B) {
	k, _ := schema.Lookup("transfers")
	f, _ := ingest.Open("t.xlsx", transfersXLSX(10000), ingest.Options{})
	tab, _ := f.Table("", nil)
	im := ingest.NewImport(tab, k, schema.Default())
	for b.Loop() {
		im.Build(nil)
	}
}

// BenchmarkBaselineExcelizeRawRows reads the same sheet with excelize's
// streaming row reader and raw values: the straightforward way.
func BenchmarkBaselineExcelizeRawRows(b *testing.B) {
	data := transfersXLSX(10000)
	for b.Loop() {
		f, err := excelize.OpenReader(strings.NewReader(string(data)), excelize.Options{RawCellValue: true, UnzipSizeLimit: 1 << 30, UnzipXMLSizeLimit: 1 << 28})
		if err != nil {
			b.Fatal(err)
		}
		rows, err := f.Rows("Transfers")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			if _, err := rows.Columns(excelize.Options{RawCellValue: true}); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 10001 {
			b.Fatalf("%d rows", n)
		}
		f.Close()
	}
}

// TestHundredThousandRows: a file ten times over the limit is read, built
// and counted, not refused or crashed on, and the report says to split it.
func TestHundredThousandRows(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 100,000 rows; run without -short")
	}
	data := transfersXLSX(100000)
	f, err := ingest.Open("big.xlsx", data, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := schema.Lookup("transfers")
	im := ingest.NewImport(tab, k, schema.Default())
	if im.DataRows() != 100000 {
		t.Fatalf("%d data rows", im.DataRows())
	}
	res := im.Build(nil)
	errs := res.Report.Errors()
	if len(res.Elements) != 100000 || len(errs) != 1 || !strings.Contains(errs[0].Message, "the file holds 100,000 elements; a bulk takes at most 10,000: split it into 10 bulks") {
		t.Errorf("%d elements, errors %v", len(res.Elements), errs)
	}
}

// BenchmarkMemory10kTransfersXLSX reports the heap an import holds at
// its peak, sampled at every progress report, relative to the file's
// size: under WebAssembly the linear memory must hold that peak (and
// never shrinks).
func BenchmarkMemory10kTransfersXLSX(b *testing.B) {
	data := transfersXLSX(10000)
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	var peak uint64
	var ms runtime.MemStats
	sample := func(int, int) {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		peak = base
		f, err := ingest.Open("t.xlsx", data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tab, err := f.Table("", sample)
		if err != nil {
			b.Fatal(err)
		}
		res := ingest.NewImport(tab, k, v).Build(sample)
		if res.Report.Elements != 10000 {
			b.Fatal(res.Report.Elements)
		}
		peak -= base
	}
	b.ReportMetric(float64(len(data))/(1<<20), "file-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peak)/float64(len(data)), "peak/filesize")
}
