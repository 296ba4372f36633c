//go:build !js

package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// TestEventsAreNumberedOnceAndFollowedInOrder: events stored at once by
// two servers are numbered without a gap, each key once, and a follower
// of each server sees every one, in order.
func TestEventsAreNumberedOnceAndFollowedInOrder(t *testing.T) {
	dsn := pgtest.NewDatabase(t, pgtest.Start(t), "events")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	one, two := open(t, dsn).Events(), open(t, dsn).Events()
	id1, err1 := one.ID(ctx)
	id2, err2 := two.ID(ctx)
	if err1 != nil || err2 != nil || id1 == "" || id1 != id2 {
		t.Errorf("the numbering is named %q (%v) and %q (%v)", id1, err1, id2, err2)
	}

	const n = 200
	followed := make([]chan receiver.SharedEvent, 2)
	for i, e := range []*postgres.Events{one, two} {
		followed[i] = make(chan receiver.SharedEvent, n)
		go e.Follow(ctx, 0, func(ev receiver.SharedEvent) { followed[i] <- ev }, func(error) {})
	}
	var wg sync.WaitGroup
	dups := make(chan uint64, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := []*postgres.Events{one, two}[i%2]
			key := fmt.Sprint("key-", i/2) // each key stored by both
			seq, dup, err := storeOne(ctx, e, key)
			if err != nil {
				t.Error(err)
			}
			if dup {
				dups <- seq
			}
		}()
	}
	wg.Wait()
	close(dups)
	if len(dups) != n/2 {
		t.Errorf("%d copies recognised, want %d", len(dups), n/2)
	}
	for i, c := range followed {
		for want := uint64(1); want <= n/2; want++ {
			select {
			case ev := <-c:
				if ev.Seq != want {
					t.Fatalf("follower %d: event %d after %d", i, ev.Seq, want-1)
				}
			case <-ctx.Done():
				t.Fatalf("follower %d saw %d of %d events", i, want-1, n/2)
			}
		}
	}
	recent, err := two.Recent(ctx, 10)
	if err != nil || len(recent) != 10 || recent[0].Seq != n/2-9 || recent[9].Seq != n/2 {
		t.Errorf("the 10 newest: %v, %v", recent, err)
	}
}

// TestOldEventsArePruned: events stored before the retention's start go;
// the numbering goes on after the newest, even once none is left, so that
// a console holding them never takes a new event for one it has.
func TestOldEventsArePruned(t *testing.T) {
	dsn := pgtest.NewDatabase(t, pgtest.Start(t), "pruned")
	ctx := context.Background()
	e := open(t, dsn).Events()
	for i := range 3 {
		if _, _, err := storeOne(ctx, e, fmt.Sprint("old-", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := e.Prune(ctx, time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Errorf("pruning before an hour ago: %d, %v", n, err)
	}
	if n, err := e.Prune(ctx, time.Now().Add(time.Minute)); err != nil || n != 3 {
		t.Errorf("pruning everything: %d, %v", n, err)
	}
	if seq, _, err := storeOne(ctx, e, "new"); err != nil || seq != 4 {
		t.Errorf("after pruning everything the next event is %d, %v; want 4", seq, err)
	}
}

// TestABatchIsStoredTogether: the events of one call are numbered in
// their order, a copy inside the batch or of an earlier event points to
// the original, and a batch that fails stores nothing.
func TestABatchIsStoredTogether(t *testing.T) {
	dsn := pgtest.NewDatabase(t, pgtest.Start(t), "batch")
	ctx := context.Background()
	e := open(t, dsn).Events()
	if _, _, err := storeOne(ctx, e, "earlier"); err != nil {
		t.Fatal(err)
	}
	ev := func(key string) receiver.PendingEvent {
		return receiver.PendingEvent{Key: key, Type: "/transfers/watch", Event: []byte(`{"key":"` + key + `"}`)}
	}
	got, err := e.Store(ctx, []receiver.PendingEvent{ev("a"), ev("earlier"), ev("b"), ev("a")})
	want := []receiver.StoredEvent{{Seq: 2}, {Seq: 1, Duplicate: true}, {Seq: 3}, {Seq: 2, Duplicate: true}}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the batch: %v, %v; want %v", got, err, want)
	}
	// An event the database refuses (text cannot hold a NUL byte) fails
	// the whole batch.
	bad := receiver.PendingEvent{Key: "bad", Type: "/\x00", Event: []byte(`{}`)}
	if _, err := e.Store(ctx, []receiver.PendingEvent{ev("c"), bad}); err == nil {
		t.Fatal("a batch with an event the database refuses was stored")
	}
	recent, err := e.Recent(ctx, 10)
	if err != nil || len(recent) != 3 {
		t.Errorf("after the failed batch: %d events, %v; want 3", len(recent), err)
	}
}

// storeOne stores one event under key.
func storeOne(ctx context.Context, e *postgres.Events, key string) (uint64, bool, error) {
	got, err := e.Store(ctx, []receiver.PendingEvent{{Key: key, Type: "/transfers/watch", Event: []byte(`{"key":"` + key + `"}`)}})
	if err != nil {
		return 0, false, err
	}
	return got[0].Seq, got[0].Duplicate, nil
}
