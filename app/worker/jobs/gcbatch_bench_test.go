package jobs_test

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/xlsxbook"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// BenchmarkOpenBatchGC times the open job of 10,000 transfers as xlsx,
// CSV and JSON, built at once, with the collector set for the reading
// jobs as $BENCH_BATCH_GC says (SetBatchGC: -1 off, a GOGC, or unset for
// the collector left alone) within $BENCH_BATCH_BUDGET_MB (unset: none),
// under the worker's memory limit. Run one
// process per setting, under Node as the worker runs:
//
//	BENCH_BATCH_GC=-1 GOOS=js GOARCH=wasm go test -run '^$' -bench OpenBatchGC -count 5 -benchtime 5x -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./app/worker/jobs/
//
// ms-wait is the operator's wait (the job sent to its result back),
// ms-cycle a whole job with the collection after it, gc-per-file the
// collections per job, sys-MB the memory the program holds at the end
// (WebAssembly's only grows: its peak), ms-read, ms-validate and
// ms-review the job's phases (wire.Phases), ms-to-worker the time from
// a job sent to its start (the collection after the last one, if any),
// ms-after the wait less the job itself: the result's way back and,
// where the worker has one thread, what it does once the result is
// posted (the collection) before the harness hears of it.
func BenchmarkOpenBatchGC(b *testing.B) {
	rows := fixture.Rows.List(10000)
	files := []struct{ name, file string }{{"xlsx", "t.xlsx"}, {"csv", "t.csv"}, {"json", "t.json"}}
	data := map[string][]byte{"xlsx": xlsxbook.Transfers("Sheet1", rows), "csv": fixture.CSV(rows), "json": fixture.Payroll.Body(10000)}
	h := batchHarness(b)
	for _, f := range files {
		b.Run(f.name, func(b *testing.B) { openBatch(b, h, f.file, data[f.name], 10000) })
	}
}

// BenchmarkOpenBatchGC100kJSON is BenchmarkOpenBatchGC for a request body
// of 100,000 transfers, alone in its process for its memory.
func BenchmarkOpenBatchGC100kJSON(b *testing.B) {
	openBatch(b, batchHarness(b), "t.json", fixture.Payroll.Body(100000), 100000)
}

// batchHarness starts the workers with the collector set as
// $BENCH_BATCH_GC and $BENCH_BATCH_BUDGET_MB say and the worker's memory
// limit, warmed up.
func batchHarness(b *testing.B) *harness {
	percent, _ := strconv.Atoi(os.Getenv("BENCH_BATCH_GC"))
	budget, _ := strconv.ParseInt(os.Getenv("BENCH_BATCH_BUDGET_MB"), 10, 64)
	budget <<= 20
	limit := debug.SetMemoryLimit(ingest.MemoryLimit)
	b.Cleanup(func() { debug.SetMemoryLimit(limit) })
	h := newHarness(b, func(w *workers) {
		w.reader.SetBatchGC(percent, budget)
		w.reader.TimePhases(benchClock, 0, 0)
	})
	select {
	case <-h.warm:
	case <-time.After(5 * time.Minute):
		b.Fatal("the server did not warm up")
	}
	return h
}

// benchClock is the jobs' clock for their phases, in milliseconds.
func benchClock() float64 { return float64(time.Since(benchStart).Microseconds()) / 1000 }

var benchStart = time.Now()

func openBatch(b *testing.B, h *harness, name string, data []byte, elements int) {
	var wait time.Duration
	var phases wire.Phases
	var toWorker, after float64
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	for b.Loop() {
		start, sent := time.Now(), benchClock()
		var p wire.Prepared
		h.result(h.send(wire.JobOpen, wire.Open{FileName: name, Kind: "transfers", Auto: true}, data), &p)
		wait += time.Since(start)
		if p.Phases != nil {
			phases.Read += p.Phases.Read
			phases.Validate += p.Phases.Validate
			phases.Review += p.Phases.Review
			toWorker += p.Phases.Begun - sent
			after += float64(time.Since(start).Microseconds())/1000 - (p.Phases.Ended - p.Phases.Begun)
		}
		if p.Summary == nil || p.Summary.Elements != elements {
			b.Fatalf("summary = %+v", p.Summary)
		}
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(wait.Milliseconds())/float64(b.N), "ms-wait")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms-cycle")
	b.ReportMetric(float64(ms.NumGC-gcs)/float64(b.N), "gc-per-file")
	b.ReportMetric(phases.Read/float64(b.N), "ms-read")
	b.ReportMetric(phases.Validate/float64(b.N), "ms-validate")
	b.ReportMetric(phases.Review/float64(b.N), "ms-review")
	b.ReportMetric(toWorker/float64(b.N), "ms-to-worker")
	b.ReportMetric(after/float64(b.N), "ms-after")
	b.ReportMetric(float64(ms.Sys)/1e6, "sys-MB")
	b.ReportMetric(0, "ns/op")
}
