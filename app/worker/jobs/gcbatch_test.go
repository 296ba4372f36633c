package jobs_test

import (
	"context"
	"encoding/json"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
)

// gogc is the collector's GOGC now, -1 when it is off.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(int64(s[0].Value.Uint64()))
}

// gcDuringOpen opens a file in a server set with SetBatchGC(percent) and
// returns GOGC as the job reported its progress and as it posted its
// result.
func gcDuringOpen(t *testing.T, percent int) (progress, result int) {
	t.Helper()
	progress, result = 0, 0
	results := make(chan struct{}, 1)
	s := jobs.NewServer(func(m wire.Message) {
		switch m.Type {
		case wire.TypeProgress:
			progress = gogc()
		case wire.TypeResult, wire.TypeError:
			result = gogc()
			results <- struct{}{}
		}
	})
	s.SetBatchGC(percent)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	body, _ := json.Marshal(wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true})
	s.Receive(wire.Message{ID: 1, Type: wire.TypeRequest, Job: wire.JobOpen, Body: body, Data: fixture.CSV(fixture.Rows.List(50))})
	select {
	case <-results:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the open job")
	}
	return progress, result
}

func TestAReadingJobRunsAsABatchOfTheCollector(t *testing.T) {
	normal := gogc()
	progress, result := gcDuringOpen(t, -1)
	if progress != -1 || result != -1 {
		t.Errorf("GOGC while reading %d, as the result went %d; want -1 (off) both", progress, result)
	}
	if !eventually.Until(10*time.Second, func() bool { return gogc() == normal }) {
		t.Errorf("GOGC after the job = %d, want %d back", gogc(), normal)
	}
}

func TestTheCollectorIsLeftAloneByDefault(t *testing.T) {
	normal := gogc()
	if progress, result := gcDuringOpen(t, 0); progress != normal || result != normal {
		t.Errorf("GOGC while reading %d, as the result went %d; want %d", progress, result, normal)
	}
}
