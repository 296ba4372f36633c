// Package recordcachetest is the behaviour every submission.RecordCache
// keeps, run against each: memory, the command line's file, the browser's
// IndexedDB, a single server's file and the database several servers
// share.
package recordcachetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

// Run runs the suite. open returns an empty cache for one subtest and a
// function that opens it again: another handle on the same storage, as a
// restart or a second server sees it (the same cache where there is no
// other).
func Run(t *testing.T, open func(t *testing.T) (submission.RecordCache, func() submission.RecordCache)) {
	ctx := context.Background()
	seen := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	t.Run("bulks are read back as kept", func(t *testing.T) {
		c, again := open(t)
		if got, err := c.Load(ctx, "https://api/a"); err != nil || len(got) != 0 {
			t.Fatalf("an empty cache: %v, %v", got, err)
		}
		want := []submission.RecordedBulk{
			{BulkID: "1", Kind: "transfers", Status: bulkapi.Submitted, Seen: seen, Fingerprints: fingerprints(3, 1)},
			{BulkID: "2", Status: bulkapi.Completed, ExecutionStart: 1_795_000_000_000, Seen: seen.Add(time.Minute), Fingerprints: fingerprints(10_000, 2)},
			{BulkID: "3", Kind: "sends", Status: bulkapi.Submitted, Seen: seen},
			{BulkID: "4", Status: bulkapi.Submitted, Fingerprints: fingerprints(1, 4)}, // seen at no known time
		}
		if err := c.Update(ctx, "https://api/a", want, nil); err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]submission.RecordCache{"this handle": c, "another": again()} {
			got, err := c.Load(ctx, "https://api/a")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d bulks, want %d", name, len(got), len(want))
			}
			for _, w := range want {
				if msg := differs(got[w.BulkID], w); msg != "" {
					t.Errorf("%s: bulk %s: %s", name, w.BulkID, msg)
				}
			}
		}
	})
	t.Run("an update replaces and forgets by id", func(t *testing.T) {
		c, again := open(t)
		first := []submission.RecordedBulk{
			{BulkID: "1", Kind: "transfers", Status: bulkapi.Submitted, Seen: seen, Fingerprints: fingerprints(2, 1)},
			{BulkID: "2", Kind: "transfers", Status: bulkapi.Submitted, Seen: seen, Fingerprints: fingerprints(2, 2)},
			{BulkID: "3", Kind: "transfers", Status: bulkapi.Submitted, Seen: seen, Fingerprints: fingerprints(2, 3)},
		}
		if err := c.Update(ctx, "s", first, nil); err != nil {
			t.Fatal(err)
		}
		started := first[1]
		started.Status, started.ExecutionStart = bulkapi.Running, 1_795_000_000_000
		if err := c.Update(ctx, "s", []submission.RecordedBulk{started}, []string{"3", "no-such-bulk"}); err != nil {
			t.Fatal(err)
		}
		got, err := again().Load(ctx, "s")
		if err != nil || len(got) != 2 {
			t.Fatalf("after the update: %v, %v", got, err)
		}
		if msg := differs(got["1"], first[0]); msg != "" {
			t.Errorf("bulk 1 changed: %s", msg)
		}
		if msg := differs(got["2"], started); msg != "" {
			t.Errorf("bulk 2: %s", msg)
		}
		if err := c.Update(ctx, "s", nil, nil); err != nil {
			t.Errorf("an empty update: %v", err)
		}
	})
	t.Run("scopes are apart", func(t *testing.T) {
		c, again := open(t)
		if err := c.Update(ctx, "https://one", []submission.RecordedBulk{{BulkID: "1", Status: bulkapi.Submitted, Seen: seen, Fingerprints: fingerprints(1, 1)}}, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Update(ctx, "https://two", []submission.RecordedBulk{{BulkID: "1", Status: bulkapi.Completed, Seen: seen, Fingerprints: fingerprints(1, 9)}}, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.Update(ctx, "https://two", nil, []string{"1"}); err != nil {
			t.Fatal(err)
		}
		one, err := again().Load(ctx, "https://one")
		if err != nil || len(one) != 1 || one["1"].Status != bulkapi.Submitted {
			t.Errorf("scope one after scope two forgot its bulk: %v, %v", one, err)
		}
		if two, err := again().Load(ctx, "https://two"); err != nil || len(two) != 0 {
			t.Errorf("scope two: %v, %v", two, err)
		}
	})
	t.Run("updates at once all stay", func(t *testing.T) {
		// Through one handle: the command line's file is one process's.
		c, again := open(t)
		const n = 8
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rb := submission.RecordedBulk{BulkID: fmt.Sprint("b", i), Status: bulkapi.Submitted, Seen: seen, Fingerprints: fingerprints(100, byte(i))}
				errs[i] = c.Update(ctx, "s", []submission.RecordedBulk{rb}, nil)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("update %d: %v", i, err)
			}
		}
		if got, err := again().Load(ctx, "s"); err != nil || len(got) != n {
			t.Errorf("%d bulks kept of %d, %v", len(got), n, err)
		}
	})
}

// fingerprints returns n made-up fingerprints, the first byte of each
// seed and the rest its index.
func fingerprints(n int, seed byte) []byte {
	out := make([]byte, n*submission.FingerprintSize)
	for i := range n {
		fp := out[i*submission.FingerprintSize:]
		fp[0] = seed
		fp[1], fp[2], fp[3] = byte(i), byte(i>>8), byte(i>>16)
	}
	return out
}

// differs says how got differs from want, "" when it does not.
func differs(got, want submission.RecordedBulk) string {
	switch {
	case got.BulkID != want.BulkID:
		return fmt.Sprintf("id %q, want %q", got.BulkID, want.BulkID)
	case got.Kind != want.Kind:
		return fmt.Sprintf("kind %q, want %q", got.Kind, want.Kind)
	case got.Status != want.Status:
		return fmt.Sprintf("status %q, want %q", got.Status, want.Status)
	case got.ExecutionStart != want.ExecutionStart:
		return fmt.Sprintf("execution start %d, want %d", got.ExecutionStart, want.ExecutionStart)
	case !got.Seen.Equal(want.Seen):
		return fmt.Sprintf("seen %v, want %v", got.Seen, want.Seen)
	case !bytes.Equal(got.Fingerprints, want.Fingerprints):
		return fmt.Sprintf("%d bytes of fingerprints, want %d (or other bytes)", len(got.Fingerprints), len(want.Fingerprints))
	}
	return ""
}
