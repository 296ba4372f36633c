package review_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The pipeline benchmarks take a file of 100,000 transfers (the most one
// file may hold) from its bytes to a review, as the console's worker
// does: read (decode), validate, build the review, its summary and the
// first window of rows. Each stage's time is reported apart (decode-ms,
// validate-ms, review-ms). Under WebAssembly:
//
//	GOOS=js GOARCH=wasm go test -run '^$' -bench Pipeline100k -benchmem -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./app/review/

const pipelineRows = 100_000

// pipelineJSON is a request body of n transfers that use every field.
func pipelineJSON(n int) []byte { return fixture.November.Body(n) }

// pipelineCSV is the same transfers as a CSV file under the full header.
func pipelineCSV(n int) []byte {
	var b strings.Builder
	b.WriteString(strings.Join(fixture.FullHeader, ",") + "\n")
	for i := range n {
		r := fixture.November.At(i).Strings()
		r[8] = `"` + r[8] + `"`
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	return []byte(b.String())
}

// stages times the stages of one pipeline run.
type stages struct{ decode, validate, review time.Duration }

func (s *stages) report(b *testing.B) {
	n := float64(b.N)
	b.ReportMetric(float64(s.decode.Milliseconds())/n, "decode-ms")
	b.ReportMetric(float64(s.validate.Milliseconds())/n, "validate-ms")
	b.ReportMetric(float64(s.review.Milliseconds())/n, "review-ms")
}

// reviewJSON reads a request body decoded whole and reviews it, as a
// checker's review of a bulk does (the worker keeps a file's body as its
// bytes: review.FromRequestElements).
func reviewJSON(tb testing.TB, data []byte, v *schema.Validator, k *schema.Kind, st *stages) *review.Document {
	t0 := time.Now()
	f, err := ingest.Open("t.json", data, ingest.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	doc, dups, ok := f.Request()
	if !ok {
		tb.Fatal("not a request body")
	}
	t1 := time.Now()
	r, err := v.CheckDocumentContext(context.Background(), k, doc, dups, func(int, int) {})
	if err != nil {
		tb.Fatal(err)
	}
	t2 := time.Now()
	d := review.FromRequest(k, false, "t.json", doc.([]any), r, v)
	finishReview(tb, d)
	st.decode += t1.Sub(t0)
	st.validate += t2.Sub(t1)
	st.review += time.Since(t2)
	return d
}

// reviewCSV reads a CSV file, builds its elements and reviews them.
func reviewCSV(tb testing.TB, data []byte, v *schema.Validator, k *schema.Kind, st *stages) *review.Document {
	t0 := time.Now()
	f, err := ingest.Open("t.csv", data, ingest.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tab, err := f.TableFor(context.Background(), "", k, v, func(int, int) {})
	if err != nil {
		tb.Fatal(err)
	}
	t1 := time.Now()
	im := ingest.NewImport(tab, k, v)
	if _, err := im.BuildContext(context.Background(), func(int, int) {}); err != nil {
		tb.Fatal(err)
	}
	t2 := time.Now()
	d, err := review.FromImport(im, false, "t.csv")
	if err != nil {
		tb.Fatal(err)
	}
	finishReview(tb, d)
	st.decode += t1.Sub(t0)
	st.validate += t2.Sub(t1)
	st.review += time.Since(t2)
	return d
}

// finishReview asks what the page shows first: the summary and the first
// window of rows.
func finishReview(tb testing.TB, d *review.Document) {
	s := d.Summary()
	if s.Elements != pipelineRows || s.Invalid != 0 || len(s.Totals) != 1 {
		tb.Fatalf("summary %+v", s)
	}
	if rows := d.Rows(0, 120, false); len(rows) != 120 {
		tb.Fatalf("%d rows", len(rows))
	}
}

func BenchmarkPipeline100k(b *testing.B) {
	k := fixture.Kind("transfers")
	v := fixture.Validator()
	for _, tc := range []struct {
		name string
		data []byte
		run  func(testing.TB, []byte, *schema.Validator, *schema.Kind, *stages) *review.Document
	}{
		{"json", pipelineJSON(pipelineRows), reviewJSON},
		{"csv", pipelineCSV(pipelineRows), reviewCSV},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tc.run(b, tc.data, v, k, new(stages)) // compiles the schema
			var st stages
			b.SetBytes(int64(len(tc.data)))
			b.ResetTimer()
			for b.Loop() {
				tc.run(b, tc.data, v, k, &st)
			}
			st.report(b)
		})
	}
}

// BenchmarkHeld100k reports what a reviewed file of 100,000 transfers
// holds once built (held-MB: the heap in use after a collection, the
// file's bytes excluded), as the worker keeps it between jobs, and the
// memory the process took of the system (sys-MB; sys-before-MB once the
// file was made). Under WebAssembly sys-MB is the linear memory, which
// never shrinks: run one case per process, once, to read it.
//
//	GOOS=js GOARCH=wasm go test -run '^$' -bench 'Held100k/json' -benchtime 1x -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./app/review/
func BenchmarkHeld100k(b *testing.B) {
	k := fixture.Kind("transfers")
	v := fixture.Validator()
	if err := v.Has(k); err != nil { // compiles the schema, as the console does once
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data func(int) []byte
		run  func(testing.TB, []byte, *schema.Validator, *schema.Kind, *stages) *review.Document
	}{
		{"json", pipelineJSON, reviewJSON},
		{"csv", pipelineCSV, reviewCSV},
	} {
		b.Run(tc.name, func(b *testing.B) {
			data := tc.data(pipelineRows)
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			sysBefore := ms.Sys
			var held uint64
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				base := ms.HeapInuse
				d := tc.run(b, data, v, k, new(stages))
				runtime.GC()
				runtime.ReadMemStats(&ms)
				held = max(held, ms.HeapInuse-min(ms.HeapInuse, base))
				runtime.KeepAlive(d)
			}
			b.ReportMetric(float64(held)/(1<<20), "held-MB")
			b.ReportMetric(float64(sysBefore)/(1<<20), "sys-before-MB")
			b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
		})
	}
}
