package jobs_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// busyRecord is a console server's record of bulks that is busy for its
// first failures asks, then answers with an empty record.
type busyRecord struct {
	failures int32
	asked    atomic.Int32
}

func (b *busyRecord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	enc := json.NewEncoder(w)
	if b.asked.Add(1) <= b.failures {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = enc.Encode(recordhttp.Line{Error: "busy"})
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	_ = enc.Encode(recordhttp.Line{Record: &submission.Record{}})
}

// TestARecordThatFailsOnceIsReadAgain: a record of bulks the console's
// server could not give at the first ask (busy, or the connection
// dropped) is asked for once more before the repeat check goes on
// without it; a second failure is said, as before.
func TestARecordThatFailsOnceIsReadAgain(t *testing.T) {
	for _, c := range []struct {
		failures   int32
		asks       int32
		recordSaid bool
	}{
		{failures: 0, asks: 1},
		{failures: 1, asks: 2},
		{failures: 2, asks: 2, recordSaid: true},
	} {
		record := &busyRecord{failures: c.failures}
		mux := http.NewServeMux()
		mux.Handle("/record/", record)
		mux.Handle("/", fakeapi.New())
		h := newHarness(t, withAPI(mux))
		doc := h.load(fixture.Transfers(3))
		through := conn
		through.Record = "http://api.test/record"
		p := h.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &through})
		failed := p.Repeats != nil && strings.Contains(p.Repeats.RecordError, "could not be read")
		if failed != c.recordSaid || record.asked.Load() != c.asks {
			t.Errorf("busy for %d asks: asked %d times, record failure said %t (%+v); want %d asks, said %t",
				c.failures, record.asked.Load(), failed, p.Repeats, c.asks, c.recordSaid)
		}
	}
}
