package ingest_test

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The benchmarks of this file read and check request bodies as the
// worker does since a body is kept as its bytes: Open, then every
// element checked from its bytes (CheckBody), none decoded unless it has
// a problem. BenchmarkIngest10kTransfersJSON and the Memory benchmarks
// decode every element through Request, as a caller that needs them all
// at once does.

func BenchmarkIngest10kTransfersJSONBytes(b *testing.B) {
	data := transfersJSON(10000)
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if r := checkBody(b, data, v, k); len(r.Problems) != 0 || r.Elements != 10000 {
			b.Fatalf("benchmark file is not clean: %d elements, %v", r.Elements, r.Problems[:min(3, len(r.Problems))])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/file")
}

// BenchmarkHeld100kRequestBody reports what reading and checking a
// request body of 100,000 transfers keeps: the heap in use once the
// check is done and collected, with the file's elements and report still
// held, less what it was before the file was read (held-MB); and the
// heap at its highest, sampled at every progress report (peak-MB).
func BenchmarkHeld100kRequestBody(b *testing.B) {
	data := fixture.Payroll.Body(100000)
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(ingest.MemoryLimit))
	var held, peak uint64
	for b.Loop() {
		runtime.GC()
		base := heapInUse()
		top := base
		f, err := ingest.Open("req.json", data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		els, ok := f.RequestElements()
		body, _ := els.Body()
		if !ok {
			b.Fatal("not a request body")
		}
		r, err := v.CheckBodyContext(context.Background(), k, body, func(int, int) { top = max(top, heapInUse()) })
		if err != nil || r.Elements != 100000 {
			b.Fatal(err, r.Elements)
		}
		runtime.GC()
		held = max(held, heapInUse()-min(base, heapInUse()))
		peak = max(peak, top-base)
		runtime.KeepAlive(f)
		runtime.KeepAlive(r)
	}
	b.ReportMetric(float64(held)/(1<<20), "held-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

func checkBody(b *testing.B, data []byte, v *schema.Validator, k *schema.Kind) *schema.Report {
	f, err := ingest.Open("t.json", data, ingest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	els, ok := f.RequestElements()
	if !ok {
		b.Fatal("not a request body")
	}
	body, _ := els.Body()
	return v.CheckBody(k, body)
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
