package jobs_test

import (
	"context"
	"encoding/json"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
)

// collector is the collector's setting at a moment: GOGC (-1 when off)
// and the memory limit.
type collector struct {
	gogc  int
	limit int64
}

func collectorNow() collector {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return collector{gogc: int(int64(s[0].Value.Uint64())), limit: int64(s[1].Value.Uint64())}
}

// csvFile is a CSV file of 50 transfers.
var csvFile = fixture.CSV(fixture.Rows.List(50))

// gcDuringOpen opens a file in a server set with SetBatchGC(percent,
// budget) and returns the collector's setting as the job reported its
// progress and as it posted its result.
func gcDuringOpen(t *testing.T, percent int, budget int64, name string, data []byte) (progress, result collector) {
	t.Helper()
	results := make(chan struct{}, 1)
	s := jobs.NewServer(func(m wire.Message) {
		switch m.Type {
		case wire.TypeProgress:
			progress = collectorNow()
		case wire.TypeResult, wire.TypeError:
			result = collectorNow()
			results <- struct{}{}
		}
	})
	s.SetBatchGC(percent, budget)
	// As the worker does: under WebAssembly, the job's progress reports
	// are where other goroutines (the finalizers') run.
	s.Yield = func() { time.Sleep(time.Millisecond) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	body, _ := json.Marshal(wire.Open{FileName: name, Kind: "transfers", Auto: true})
	s.Receive(wire.Message{ID: 1, Type: wire.TypeRequest, Job: wire.JobOpen, Body: body, Data: data})
	select {
	case <-results:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the open job")
	}
	return progress, result
}

// backTo waits for the collector's setting to come back to normal once
// a batch is over.
func backTo(t *testing.T, normal collector) {
	t.Helper()
	if !eventually.Until(10*time.Second, func() bool { return collectorNow() == normal }) {
		t.Errorf("the collector after the job = %+v, want %+v back", collectorNow(), normal)
	}
}

func TestAReadingJobRunsAsABatchOfTheCollector(t *testing.T) {
	normal := collectorNow()
	progress, result := gcDuringOpen(t, -1, 0, "pay.csv", csvFile)
	if progress.gogc != -1 || result.gogc != -1 {
		t.Errorf("GOGC while reading %d, as the result went %d; want -1 (off) both", progress.gogc, result.gogc)
	}
	if progress.limit != normal.limit {
		t.Errorf("memory limit while reading %d, want %d: no budget was set", progress.limit, normal.limit)
	}
	backTo(t, normal)
}

func TestABatchKeepsToItsBudget(t *testing.T) {
	normal := collectorNow()
	const budget = 64 << 20
	progress, _ := gcDuringOpen(t, -1, budget, "pay.csv", csvFile)
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(heap)
	if progress.limit >= normal.limit || progress.limit > int64(heap[0].Value.Uint64())+2*budget {
		t.Errorf("memory limit while reading %d, with %d of heap now: want the heap in use plus a budget of %d", progress.limit, heap[0].Value.Uint64(), budget)
	}
	backTo(t, normal)
}

func TestABatchOverItsBudgetGoesOnAsUsual(t *testing.T) {
	normal := collectorNow()
	// A byte: the job's first allocations spend it.
	_, result := gcDuringOpen(t, -1, 1, "pay.csv", csvFile)
	if result != normal {
		t.Errorf("the collector as the result went %+v, want %+v: the budget was spent", result, normal)
	}
	backTo(t, normal)
}

func TestAJSONFileIsReadWithTheCollectorAsUsual(t *testing.T) {
	normal := collectorNow()
	for _, name := range []string{"pay.json", "pay"} {
		if progress, result := gcDuringOpen(t, -1, 0, name, fixture.Payroll.Body(50)); progress != normal || result != normal {
			t.Errorf("%s: collector while reading %+v, as the result went %+v; want %+v", name, progress, result, normal)
		}
	}
}

func TestTheCollectorIsLeftAloneByDefault(t *testing.T) {
	normal := collectorNow()
	if progress, result := gcDuringOpen(t, 0, 0, "pay.csv", csvFile); progress != normal || result != normal {
		t.Errorf("collector while reading %+v, as the result went %+v; want %+v", progress, result, normal)
	}
}

// A file opened right after another's result begins at once: the last
// one's garbage is collected when the worker is idle, not before the next
// file is read, and once for both.
func TestAFileOpenedRightAfterAnotherDoesNotWaitForItsCollection(t *testing.T) {
	normal := collectorNow()
	var frees atomic.Int32
	idle := make(chan struct{})
	progressed := make(chan int32, 100)
	results := make(chan struct{}, 2)
	s := jobs.NewServer(func(m wire.Message) {
		switch m.Type {
		case wire.TypeProgress:
			progressed <- frees.Load()
		case wire.TypeResult, wire.TypeError:
			results <- struct{}{}
		}
	})
	s.SetBatchGC(-1, 64<<20)
	s.SetCollection(func() { <-idle }, func() { frees.Add(1) })
	s.Yield = func() { time.Sleep(time.Millisecond) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	body, _ := json.Marshal(wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true})
	for id := range 2 {
		s.Receive(wire.Message{ID: id + 1, Type: wire.TypeRequest, Job: wire.JobOpen, Body: body, Data: csvFile})
		select {
		case <-results:
		case <-time.After(30 * time.Second):
			t.Fatal("no answer to the open job")
		}
	}
	close(progressed)
	for n := range progressed {
		if n != 0 {
			t.Fatalf("a job reported progress after %d collections, want none before the worker is idle", n)
		}
	}
	close(idle)
	if !eventually.Until(10*time.Second, func() bool { return frees.Load() == 1 }) {
		t.Errorf("%d collections once idle, want 1 for both files", frees.Load())
	}
	backTo(t, normal)
}
