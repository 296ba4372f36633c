package submission

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A RecordAPI lists bulks and their operations; *bulkapi.Client is one.
type RecordAPI interface {
	ListAll(ctx context.Context, status bulkapi.Status) ([]bulkapi.BulkProcess, error)
	AllOperations(ctx context.Context, bulkID string, status bulkapi.OperationStatus) ([]bulkapi.Operation, error)
}

// A Record is the API's record of the identity's bulks, as far as a repeat
// check needs it.
type Record struct {
	// Listed is every bulk the list shows, by id, to tell the state of a
	// bulk the journal knows.
	Listed map[string]bulkapi.BulkProcess `json:"listed"`
	// Bulks are those that count (see Counts), with their fingerprints.
	Bulks []RecordedBulk `json:"bulks"`
	// Fetched is how many bulks' operations were fetched; Cached how many
	// came from the cache.
	Fetched int `json:"fetched"`
	Cached  int `json:"cached"`
}

// fetchers is how many bulks' operations are fetched at once.
const fetchers = 4

// UpdateRecord lists the identity's bulks and fetches the operations of
// those that count and that the cache does not hold yet, then updates the
// cache: a second check fetches only the bulks made since. With kind set,
// bulks whose operation names another kind are neither fetched nor
// returned (the cache keeps those it has). onFetch, when set, is called
// after each bulk fetched, for a progress bar.
//
// The cache forgets a bulk the listing shows no longer counting, and one
// it does not show that has not counted for a RepeatWindow: a cache shared
// by several identities keeps the others' bulks.
func UpdateRecord(ctx context.Context, api RecordAPI, cache RecordCache, scope string, now time.Time, kind *schema.Kind, onFetch func(done, total int)) (*Record, error) {
	list, err := api.ListAll(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("listing the bulks: %w", err)
	}
	cached, err := cache.Load(ctx, scope)
	if err != nil {
		return nil, err
	}
	r := &Record{Listed: make(map[string]bulkapi.BulkProcess, len(list))}
	keep := make(map[string]RecordedBulk)
	var put, missing []RecordedBulk
	var drop []string
	for _, b := range list {
		r.Listed[b.BulkID] = b
		rb, ok := cached[b.BulkID]
		if !Counts(&b, now) {
			if ok {
				drop = append(drop, b.BulkID)
			}
			continue
		}
		k, _ := KindOfOperation(b.Operation)
		if ok && rb.Kind == kindID(k) {
			if rb.Status != b.Status || rb.ExecutionStart != b.ExecutionStart {
				rb.Status, rb.ExecutionStart = b.Status, b.ExecutionStart
				put = append(put, rb)
			}
			keep[b.BulkID] = rb
			r.Cached++
			continue
		}
		if kind != nil && k != nil && k != kind {
			continue // another kind's bulk: fetched when a check needs it
		}
		missing = append(missing, RecordedBulk{BulkID: b.BulkID, Kind: kindID(k), Status: b.Status, ExecutionStart: b.ExecutionStart, Seen: now})
	}
	for id, rb := range cached {
		if _, listed := r.Listed[id]; !listed && now.Sub(rb.When()) > RepeatWindow {
			drop = append(drop, id)
		}
	}
	if len(missing) > 0 {
		fetched, err := fetchAll(ctx, api, missing, onFetch)
		for _, rb := range fetched {
			keep[rb.BulkID] = rb
		}
		put = append(put, fetched...)
		r.Fetched = len(fetched)
		if err != nil {
			// Keep what was fetched: the next check goes on from there.
			_ = cache.Update(context.WithoutCancel(ctx), scope, put, drop)
			return nil, err
		}
	}
	if len(put) > 0 || len(drop) > 0 {
		if err := cache.Update(ctx, scope, put, drop); err != nil {
			return nil, fmt.Errorf("keeping the record of bulks: %w", err)
		}
	}
	r.Bulks = make([]RecordedBulk, 0, len(keep))
	for _, b := range list {
		if rb, ok := keep[b.BulkID]; ok && (kind == nil || rb.Kind == "" || rb.Kind == kind.ID) {
			r.Bulks = append(r.Bulks, rb)
		}
	}
	return r, nil
}

// Remember keeps bulk b, whose operations were just read whole (a review
// reads them), in the cache with their fingerprints in sequence order: the
// next UpdateRecord need not read them again. A bulk kept already is left
// as it is.
func Remember(ctx context.Context, cache RecordCache, scope string, b *bulkapi.BulkProcess, fps []Fingerprint, now time.Time) error {
	kept, err := cache.Load(ctx, scope)
	if err != nil {
		return err
	}
	if _, ok := kept[b.BulkID]; ok {
		return nil
	}
	k, _ := KindOfOperation(b.Operation)
	rb := RecordedBulk{BulkID: b.BulkID, Kind: kindID(k), Status: b.Status, ExecutionStart: b.ExecutionStart, Seen: now,
		Fingerprints: make([]byte, 0, len(fps)*FingerprintSize)}
	for _, fp := range fps {
		rb.Fingerprints = append(rb.Fingerprints, fp[:]...)
	}
	if err := cache.Update(ctx, scope, []RecordedBulk{rb}, nil); err != nil {
		return fmt.Errorf("keeping the record of bulks: %w", err)
	}
	return nil
}

func kindID(k *schema.Kind) string {
	if k == nil {
		return ""
	}
	return k.ID
}

// fetchAll fetches the operations of bulks, a few at a time, and returns
// those fetched.
func fetchAll(ctx context.Context, api RecordAPI, bulks []RecordedBulk, onFetch func(done, total int)) ([]RecordedBulk, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		out   []RecordedBulk
		first error
		wg    sync.WaitGroup
		next  = make(chan RecordedBulk)
	)
	for range min(fetchers, len(bulks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newFingerprinter()
			for rb := range next {
				err := fetchOne(ctx, api, f, &rb)
				mu.Lock()
				if err != nil {
					if first == nil {
						first = fmt.Errorf("reading the operations of bulk %s: %w", rb.BulkID, err)
						cancel()
					}
				} else {
					out = append(out, rb)
					if onFetch != nil {
						onFetch(len(out), len(bulks))
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, rb := range bulks {
		select {
		case next <- rb:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil && ctx.Err() != nil && len(out) < len(bulks) {
		first = ctx.Err()
	}
	return out, first
}

// fetchOne fetches a bulk's operations and fingerprints their payloads.
func fetchOne(ctx context.Context, api RecordAPI, f *fingerprinter, rb *RecordedBulk) error {
	ops, err := api.AllOperations(ctx, rb.BulkID, "")
	if err != nil {
		return err
	}
	k, _ := schema.Lookup(rb.Kind)
	n := 0
	for _, op := range ops {
		n = max(n, op.Sequence+1)
	}
	fps := make([]byte, FingerprintSize*n)
	for i := range ops {
		op := &ops[i]
		if op.Sequence < 0 {
			continue
		}
		kk := k
		if kk == nil { // the list did not say: the operation's path may
			kk, _ = KindOfOperation(op.Method + " " + op.Path)
		}
		if kk == nil {
			continue
		}
		if fp, ok := f.operation(kk, op); ok {
			copy(fps[op.Sequence*FingerprintSize:], fp[:])
		}
	}
	rb.Fingerprints = fps
	return nil
}
