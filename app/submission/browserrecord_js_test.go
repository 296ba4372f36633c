//go:build js && wasm

package submission_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

func TestBrowserRecordKeepsBulksInIndexedDB(t *testing.T) {
	ctx := context.Background()
	idb := shim("__fakeIndexedDB()")
	rec := submission.NewBrowserRecord(idb, "bulkdesk-record")
	if got, err := rec.Load(ctx, "a"); err != nil || len(got) != 0 {
		t.Fatalf("empty record: %v %v", got, err)
	}
	bulks := map[string]submission.RecordedBulk{
		"1": {BulkID: "1", Kind: "transfers", Status: bulkapi.Submitted, Seen: time.Unix(1, 0).UTC(), Fingerprints: make([]byte, 32)},
		"2": {BulkID: "2", Kind: "transfers", Status: bulkapi.Completed, ExecutionStart: 5, Fingerprints: []byte("0123456789abcdef")},
	}
	if err := rec.Save(ctx, "a", bulks); err != nil {
		t.Fatal(err)
	}
	delete(bulks, "1")
	if err := rec.Save(ctx, "a", bulks); err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(ctx, "b", map[string]submission.RecordedBulk{"9": {BulkID: "9"}}); err != nil {
		t.Fatal(err)
	}
	// Another worker (a reload) reads the same database.
	again := submission.NewBrowserRecord(idb, "bulkdesk-record")
	got, err := again.Load(ctx, "a")
	if err != nil || len(got) != 1 || string(got["2"].Fingerprints) != "0123456789abcdef" || got["2"].ExecutionStart != 5 {
		t.Fatalf("read again: %+v %v", got, err)
	}
}

// BenchmarkBrowserRecordLoad reads a record of 100 bulks × 10,000
// fingerprints from IndexedDB (the Node stand-in), as a worker's first
// check does.
func BenchmarkBrowserRecordLoad(b *testing.B) {
	ctx := context.Background()
	idb := shim("__fakeIndexedDB()")
	bulks := map[string]submission.RecordedBulk{}
	for i := range 100 {
		id := fmt.Sprint(1000 + i)
		fps := make([]byte, submission.FingerprintSize*10_000)
		for j := range fps {
			fps[j] = byte(i*7 + j)
		}
		bulks[id] = submission.RecordedBulk{BulkID: id, Kind: "transfers", Status: bulkapi.Submitted, Fingerprints: fps}
	}
	if err := submission.NewBrowserRecord(idb, "bench").Save(ctx, "s", bulks); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := submission.NewBrowserRecord(idb, "bench").Load(ctx, "s")
		if err != nil || len(got) != 100 || len(got["1000"].Fingerprints) != 160_000 {
			b.Fatal(len(got), err)
		}
	}
}
