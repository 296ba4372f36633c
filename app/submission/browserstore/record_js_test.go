//go:build js && wasm

package browserstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/idb/idbtest"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/browserstore"
	"github.com/bulkdesk/bulkdesk/app/submission/recordcachetest"
)

func TestRecordCacheKeepsTheCachesBehaviour(t *testing.T) {
	idb := idbtest.Fake()
	n := 0
	recordcachetest.Run(t, func(t *testing.T) (submission.RecordCache, func() submission.RecordCache) {
		n++
		name := fmt.Sprint("bulkdesk-record-", n)
		// Another worker (a reload) reads the same database.
		return browserstore.NewRecordCache(idb, name), func() submission.RecordCache { return browserstore.NewRecordCache(idb, name) }
	})
}

// BenchmarkBrowserRecordLoad reads a record of 100 bulks × 10,000
// fingerprints from IndexedDB (the Node stand-in), as a worker's first
// check does.
func BenchmarkBrowserRecordLoad(b *testing.B) {
	ctx := context.Background()
	idb := idbtest.Fake()
	var bulks []submission.RecordedBulk
	for i := range 100 {
		id := fmt.Sprint(1000 + i)
		fps := make([]byte, submission.FingerprintSize*10_000)
		for j := range fps {
			fps[j] = byte(i*7 + j)
		}
		bulks = append(bulks, submission.RecordedBulk{BulkID: id, Kind: "transfers", Status: bulkapi.Submitted, Fingerprints: fps})
	}
	if err := browserstore.NewRecordCache(idb, "bench").Update(ctx, "s", bulks, nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := browserstore.NewRecordCache(idb, "bench").Load(ctx, "s")
		if err != nil || len(got) != 100 || len(got["1000"].Fingerprints) != 160_000 {
			b.Fatal(len(got), err)
		}
	}
}
