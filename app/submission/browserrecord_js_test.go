//go:build js && wasm

package submission_test

import (
	"context"
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
