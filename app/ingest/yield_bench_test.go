package ingest_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// BenchmarkIngestYield is an import of 10,000 transfers as the worker runs
// it, with progress reports (every 500 rows read or built, every 100
// elements validated), each a goroutine switch (runtime.Gosched) or not.
// Under WebAssembly a switch unwinds the wasm frames and calls them
// again, so that a long loop resumes in the code V8 has optimized
// meanwhile: V8 has no on-stack replacement for wasm, and a call that
// runs for seconds stays in its baseline tier.
func BenchmarkIngestYield(b *testing.B) {
	files := []struct{ name, file string }{{"xlsx", "t.xlsx"}, {"csv", "t.csv"}, {"json", "t.json"}}
	data := map[string][]byte{"xlsx": transfersXLSX(10000), "csv": transfersCSV(10000), "json": transfersJSON(10000)}
	for _, f := range files {
		for _, yield := range []bool{false, true} {
			name := f.name + "/run"
			if yield {
				name = f.name + "/yield"
			}
			b.Run(name, func(b *testing.B) {
				progress := func(int, int) {}
				if yield {
					progress = func(int, int) { runtime.Gosched() }
				}
				for b.Loop() {
					importReporting(b, f.file, data[f.name], progress)
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/file")
			})
		}
	}
}

// importReporting is importAndValidate with progress reports.
func importReporting(b *testing.B, name string, data []byte, progress func(done, total int)) {
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	f, err := ingest.Open(name, data, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if doc, dups, ok := f.Request(); ok {
		if _, err := v.CheckDocumentContext(ctx, k, doc, dups, progress); err != nil {
			b.Fatal(err)
		}
		return
	}
	tab, err := f.TableContext(ctx, "", progress)
	if err != nil {
		b.Fatal(err)
	}
	if r := ingest.NewImport(tab, k, v).Build(progress); r.Report.Elements != 10000 {
		b.Fatalf("%d elements", r.Report.Elements)
	}
}
