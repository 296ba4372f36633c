package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// The benchmarks measure what an operator waits for: a file's bytes in,
// elements built and validated, report out. The files are 10,000
// transfers that use every field, as an ERP export or a filled template
// would hold them.

var transferHeaders = fixture.FullHeader

func transferRow(i int) []string { return fixture.November.At(i).Strings() }

// transfersXLSX writes n transfers as Excel does: shared strings, amounts
// as numbers, ids as text.
func transfersXLSX(n int) []byte { return transfersBook(n, nil) }

// transfersBook writes n transfers as transfersXLSX does, each row
// changed by change first when it is not nil.
func transfersBook(n int, change func([]string)) []byte {
	rows := []xlsxgen.Row{xlsxgen.Texts(transferHeaders...)}
	for i := range n {
		r := transferRow(i)
		if change != nil {
			change(r)
		}
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

// transfersJSONRows writes n transfers as an array of flat objects, one
// per row, keyed by the template's headers.
func transfersJSONRows(n int) []byte {
	rows := make([]map[string]any, n)
	for i := range n {
		r := transferRow(i)
		row := make(map[string]any, len(r))
		for j, h := range transferHeaders {
			row[h] = r[j]
		}
		row["destinationAmount.amount"] = json.Number(r[7])
		rows[i] = row
	}
	b, _ := json.Marshal(rows)
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
	// 300,000 shared strings and a million cells span many blocks: every
	// cell must still hold its own value.
	checkTransferCells(t, tab, 100000)
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
	_, csv := readTable(t, "big.csv", transfersCSV(100000), ingest.Options{})
	checkTransferCells(t, csv, 100000)
}

// checkTransferCells checks that a table holds the header and n rows of
// transfers, every cell as written.
func checkTransferCells(t *testing.T, tab *ingest.Table, n int) {
	t.Helper()
	if len(tab.Rows) != n+1 {
		t.Fatalf("%d rows", len(tab.Rows))
	}
	for i, r := range tab.Rows {
		want := transferHeaders
		if i > 0 {
			want = transferRow(i - 1)
		}
		if len(r.Cells) != len(want) {
			t.Fatalf("row %d: %d cells", r.Number, len(r.Cells))
		}
		for j, c := range r.Cells {
			if c.Value != want[j] {
				t.Fatalf("row %d column %d: %q, want %q", r.Number, j, c.Value, want[j])
			}
		}
	}
}

// The memory benchmarks measure what one import adds to the heap, from the
// file's bytes to the built result and its report, against the file's
// size. Three figures, each divided by the file's size:
//
//   - peak/filesize: the heap in use (live and not yet collected objects)
//     at its highest, sampled after opening, at every progress report of
//     reading and building, and at the end, above the heap before;
//   - alloc/filesize: every byte the import allocated, collected or not:
//     the heap cannot grow by more than this, whenever the collector
//     runs, so it bounds the peak;
//   - live/filesize: what stays once the import is done (the table, the
//     result and its report), after a collection.
//
// Under WebAssembly the linear memory must hold the peak, and it never
// shrinks. Each figure is the largest over the benchmark's iterations.
func benchMemory(b *testing.B, name string, data []byte, problems int) {
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	// A first import compiles the schema, which the console does once.
	if r := importAndValidate(b, name, data, v, k); r.Elements != 10000 || len(r.Problems) != problems {
		b.Fatalf("benchmark file has %d elements and %d problems, want %d: %v", r.Elements, len(r.Problems), problems, r.Problems[:min(3, len(r.Problems))])
	}
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	read := func() (inUse, allocated uint64) {
		metrics.Read(samples)
		return samples[0].Value.Uint64(), samples[1].Value.Uint64()
	}
	var peak, allocs, live uint64
	for b.Loop() {
		runtime.GC()
		base, allocBase := read()
		top := base
		sample := func(int, int) { top = max(top, first(read())) }
		f, err := ingest.Open(name, data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		sample(0, 0)
		var keep any
		if doc, _, ok := f.Request(); ok {
			keep = v.ValidateRequest(k, doc.([]any))
		} else {
			tab, err := f.Table("", sample)
			if err != nil {
				b.Fatal(err)
			}
			im := ingest.NewImport(tab, k, v)
			sample(0, 0)
			if res := im.Build(sample); res.Report.Elements != 10000 {
				b.Fatal(res.Report.Elements)
			}
			keep = im
		}
		inUse, allocated := read()
		peak = max(peak, top, inUse)
		allocs = max(allocs, allocated-allocBase)
		f = nil
		runtime.GC()
		after, _ := read()
		live = max(live, after-min(after, base))
		runtime.KeepAlive(keep)
		peak -= min(peak, base)
	}
	size := float64(len(data))
	b.ReportMetric(size/(1<<20), "file-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peak)/size, "peak/filesize")
	b.ReportMetric(float64(allocs)/size, "alloc/filesize")
	b.ReportMetric(float64(live)/size, "live/filesize")
}

func first(a, _ uint64) uint64 { return a }

func BenchmarkMemory10kTransfersXLSX(b *testing.B) {
	benchMemory(b, "t.xlsx", transfersXLSX(10000), 0)
}

func BenchmarkMemory10kTransfersCSV(b *testing.B) {
	benchMemory(b, "t.csv", transfersCSV(10000), 0)
}

func BenchmarkMemory10kTransfersJSON(b *testing.B) {
	benchMemory(b, "t.json", transfersJSON(10000), 0)
}

func BenchmarkMemory10kTransfersJSONRows(b *testing.B) {
	benchMemory(b, "t.json", transfersJSONRows(10000), 0)
}

// BenchmarkMemory10kTransfersXLSXErrors is the xlsx file with a problem
// in every row (a currency in lower case): its report holds 10,000
// problems.
func BenchmarkMemory10kTransfersXLSXErrors(b *testing.B) {
	benchMemory(b, "t.xlsx", transfersBook(10000, func(r []string) { r[6] = "eur" }), 10000)
}

// The Sys benchmarks read, build and validate 100,000 rows of transfers,
// the most a table may hold (ingest.DefaultLimits), and report the memory
// the process took from the system. Under WebAssembly that is the linear
// memory the worker holds, which never shrinks: it must stay under 1 GB.
// Run them once (-benchtime=1x), natively or under Node:
//
//	GOOS=js GOARCH=wasm go test -run X -bench Sys -benchtime=1x -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./app/ingest/
//
// sys-before-MB is what generating the file took first; peak-heap-MB the
// heap in use at its highest while reading and building (sampled at each
// progress report), the file's bytes and what the generator keeps
// included.
func BenchmarkSys100kTransfersXLSX(b *testing.B) {
	benchSys(b, "t.xlsx", transfersXLSX(100000))
}

func BenchmarkSys100kTransfersCSV(b *testing.B) {
	benchSys(b, "t.csv", transfersCSV(100000))
}

func benchSys(b *testing.B, name string, data []byte) {
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	measureMemory(b, len(data), func(sample func(int, int)) {
		f, err := ingest.Open(name, data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tab, err := f.TableFor(context.Background(), "", k, v, sample)
		if err != nil {
			b.Fatal(err)
		}
		if res := ingest.NewImport(tab, k, v).Build(sample); res.Report.Elements != 100000 {
			b.Fatal(res.Report.Elements)
		}
	})
}

// measureMemory runs read in a benchmark loop and reports the memory the
// program took of the system before and after, and the heap in use at
// its highest, sampled whenever read calls sample (its progress reports)
// and once at the end.
func measureMemory(b *testing.B, fileSize int, read func(sample func(int, int))) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Sys
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	sample := func(int, int) {
		metrics.Read(samples)
		peak = max(peak, samples[0].Value.Uint64())
	}
	for b.Loop() {
		read(sample)
		sample(0, 0)
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(fileSize)/(1<<20), "file-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(before)/(1<<20), "sys-before-MB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapsys-MB")
}

// BenchmarkSys100kRequestBody reads request bodies of 100,000 transfers,
// the most one file may hold, as the worker does: decoded once by Open,
// then checked from that document, under the soft memory limit the worker
// and check set. "long" pads each description to 900 characters (over
// the contract's 255, so each element has an error), which makes the file
// about 100 MB. Run it natively and under WebAssembly as those above.
func BenchmarkSys100kRequestBody(b *testing.B) {
	plain := fixture.Payroll.Body(100000)
	long := bytes.ReplaceAll(plain, []byte(`"description":"`), []byte(`"description":"`+strings.Repeat("x", 900)))
	for _, tc := range []struct {
		name string
		data []byte
	}{{"payroll", plain}, {"long", long}} {
		b.Run(tc.name, func(b *testing.B) { benchSysRequest(b, tc.data) })
	}
}

func benchSysRequest(b *testing.B, data []byte) {
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(ingest.MemoryLimit))
	measureMemory(b, len(data), func(sample func(int, int)) {
		f, err := ingest.Open("req.json", data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		doc, dups, ok := f.Request()
		if !ok {
			b.Fatal("not a request body")
		}
		r, err := v.CheckDocumentContext(context.Background(), k, doc, dups, sample)
		if err != nil || r.Elements != 100000 {
			b.Fatal(err, r.Elements)
		}
	})
}
