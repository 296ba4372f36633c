//go:build !js

package receiver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// A store is where a receiver keeps its events. config returns the
// configuration of a receiver on it; called again, a receiver on the same
// events (a restart; with the database, another server too).
type store struct {
	config  func(t *testing.T) receiver.Config
	durable bool
}

// eachStore runs test against a receiver in memory, one with an events
// folder, and one on the database several servers share, each subtest on
// storage of its own.
func eachStore(t *testing.T, test func(t *testing.T, s store)) {
	t.Run("memory", func(t *testing.T) {
		test(t, store{config: func(*testing.T) receiver.Config { return receiver.Config{} }})
	})
	t.Run("folder", func(t *testing.T) {
		dir := t.TempDir()
		test(t, store{config: func(*testing.T) receiver.Config { return receiver.Config{Dir: dir} }, durable: true})
	})
	t.Run("database", func(t *testing.T) { test(t, databaseStore(t)) })
}

// databaseStore is a database of its own on a cluster of the test's.
func databaseStore(t *testing.T) store {
	return sharedStore(pgtest.NewDatabase(t, pgtest.Start(t), "events"))
}

// sharedStore is the database dsn names, each receiver on it a server of
// its own.
func sharedStore(dsn string) store {
	return store{config: func(t *testing.T) receiver.Config {
		db, err := postgres.Open(context.Background(), dsn, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return receiver.Config{Shared: db.Events()}
	}, durable: true}
}

// started starts a receiver on s and waits until it serves its events
// (with the database, once it has joined them).
func started(t *testing.T, s store) *testServer {
	t.Helper()
	ts := startServer(t, s.config(t))
	eventually.True(t, 10*time.Second, "the receiver to join its events", ts.Ready)
	return ts
}

// listed waits until GET /events holds n events (a shared store publishes
// what it stored as it follows the database) and returns them, newest
// first.
func listed(t *testing.T, url string, n int) []webhook.Event {
	t.Helper()
	var evs []webhook.Event
	eventually.Until(10*time.Second, func() bool { evs = listEvents(t, url, "?limit=1000"); return len(evs) >= n })
	if len(evs) != n {
		t.Fatalf("%d events listed, want %d", len(evs), n)
	}
	return evs
}

// TestEveryStoreKeepsEventsOnceInOrder: accepted events are listed and
// streamed in the order of their numbers, a copy is answered with the
// original's number and kept once; a durable store gives them all back
// after a restart, the duplicate guard included, and numbers on.
func TestEveryStoreKeepsEventsOnceInOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, s store) {
		ts := started(t, s)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		stream := openStream(t, ctx, ts.URL, "", nil)
		at := time.Now()
		for i := 1; i <= 3; i++ {
			if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", fmt.Sprint("ref-", i), fmt.Sprintf(`{"n":%d}`, i), at)); a.status != http.StatusNoContent {
				t.Fatalf("event %d: %d %s", i, a.status, a.raw)
			}
		}
		for i := 1; i <= 3; i++ {
			if _, ev := nextEvent(t, stream); ev.Body != fmt.Sprintf(`{"n":%d}`, i) {
				t.Fatalf("streamed %d: %s", i, ev.Body)
			}
		}
		before := listed(t, ts.URL, 3)
		if before[0].Seq <= before[1].Seq || before[1].Seq <= before[2].Seq || before[2].Body != `{"n":1}` {
			t.Fatalf("listed out of order: %d %d %d", before[0].Seq, before[1].Seq, before[2].Seq)
		}
		copyOf := func(ts *testServer, name string, i int, seq uint64) {
			t.Helper()
			a := do(t, signedRequest(t, ts.URL, "/transfers/watch", fmt.Sprint("ref-", i), fmt.Sprintf(`{"n":%d}`, i), at))
			if a.status != http.StatusOK || !containsSeq(a.raw, seq) {
				t.Errorf("%s: %d %s, want 200 with seq %d", name, a.status, a.raw, seq)
			}
		}
		copyOf(ts, "a copy", 2, before[1].Seq)
		listed(t, ts.URL, 3)
		if !s.durable {
			return
		}
		ts.stop(t)
		again := started(t, s)
		after := listed(t, again.URL, 3)
		for i := range after {
			if after[i].Seq != before[i].Seq || after[i].Body != before[i].Body {
				t.Errorf("after the restart, event %d is %d %s; was %d %s", i, after[i].Seq, after[i].Body, before[i].Seq, before[i].Body)
			}
		}
		copyOf(again, "a copy after the restart", 3, before[0].Seq)
		if a := do(t, signedRequest(t, again.URL, "/transfers/watch", "ref-4", `{"n":4}`, time.Now())); a.status != http.StatusNoContent {
			t.Fatalf("a new event after the restart: %d %s", a.status, a.raw)
		}
		if newest := listed(t, again.URL, 4)[0]; newest.Seq <= before[0].Seq {
			t.Errorf("the next event is numbered %d, after %d", newest.Seq, before[0].Seq)
		}
	})
}

// TestEveryStoreTakesConcurrentSenders: eight senders at once, each event
// answered 2xx and kept once, numbers all different.
func TestEveryStoreTakesConcurrentSenders(t *testing.T) {
	eachStore(t, func(t *testing.T, s store) {
		ts := started(t, s)
		const senders, each = 8, 10
		var wg sync.WaitGroup
		statuses := make(chan int, senders*each)
		for i := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range each {
					body := fmt.Sprintf(`{"sender":%d,"n":%d}`, i, j)
					statuses <- do(t, signedRequest(t, ts.URL, "/transfers/watch", fmt.Sprintf("ref-%d-%d", i, j), body, time.Now())).status
				}
			}()
		}
		wg.Wait()
		close(statuses)
		for st := range statuses {
			if st != http.StatusNoContent {
				t.Fatalf("an event was answered %d", st)
			}
		}
		evs := listed(t, ts.URL, senders*each)
		for i := 1; i < len(evs); i++ {
			if evs[i].Seq >= evs[i-1].Seq {
				t.Fatalf("events %d and %d listed out of order: %d, %d", i-1, i, evs[i-1].Seq, evs[i].Seq)
			}
		}
	})
}

// TestEveryStorePagesPastTheRing: GET /events goes on past the events the
// ring holds, page after page and by type, with a durable store (the
// folder's events spread over several files); in memory the ring is all.
func TestEveryStorePagesPastTheRing(t *testing.T) {
	eachStore(t, func(t *testing.T, s store) {
		config := s.config
		s.config = func(t *testing.T) receiver.Config {
			cfg := config(t)
			cfg.RingSize, cfg.SegmentBytes = 3, 600 // a file every few events
			return cfg
		}
		ts := started(t, s)
		for i := 1; i <= 7; i++ {
			path := "/transfers/watch"
			if i%2 == 0 {
				path = "/send/watch"
			}
			if a := do(t, signedRequest(t, ts.URL, path, fmt.Sprint("ref-", i), fmt.Sprintf(`{"n":%d}`, i), time.Now())); a.status != http.StatusNoContent {
				t.Fatal(a.raw)
			}
		}
		all, sends := `{"n":7} {"n":6} {"n":5} {"n":4} {"n":3} {"n":2} {"n":1}`, `{"n":6} {"n":4} {"n":2}`
		if !s.durable {
			all, sends = `{"n":7} {"n":6} {"n":5}`, `{"n":6}`
		}
		listed(t, ts.URL, len(strings.Fields(all)))
		if got := bodies(pages(t, ts.URL, 2, "")); got != all {
			t.Errorf("every page: %s", got)
		}
		if got := bodies(pages(t, ts.URL, 2, "&type=/send/watch")); got != sends {
			t.Errorf("the sends' pages: %s", got)
		}
	})
}

// TestEveryStorePagesEveryEventOnce: following the next-page cursor of
// GET /events reaches every stored event exactly once, newest first, for
// every page size, those that divide the ring (a page then ends exactly
// where the ring does) included, and by type as well; in memory the ring
// is all there is.
func TestEveryStorePagesEveryEventOnce(t *testing.T) {
	const ringSize, events = 6, 20
	eachStore(t, func(t *testing.T, s store) {
		config := s.config
		s.config = func(t *testing.T) receiver.Config {
			cfg := config(t)
			cfg.RingSize, cfg.SegmentBytes = ringSize, 1500 // a file every few events
			return cfg
		}
		ts := started(t, s)
		var all, sends []string // the bodies expected, newest first
		for i := events; i >= 1; i-- {
			if !s.durable && i <= events-ringSize {
				break
			}
			all = append(all, fmt.Sprintf(`{"n":%d}`, i))
			if i%2 == 0 {
				sends = append(sends, fmt.Sprintf(`{"n":%d}`, i))
			}
		}
		for i := 1; i <= events; i++ {
			path := "/transfers/watch"
			if i%2 == 0 {
				path = "/send/watch"
			}
			if a := do(t, signedRequest(t, ts.URL, path, fmt.Sprint("ref-", i), fmt.Sprintf(`{"n":%d}`, i), time.Now())); a.status != http.StatusNoContent {
				t.Fatal(a.raw)
			}
		}
		listed(t, ts.URL, len(all))
		for _, limit := range []int{1, 2, 3, 4, 5, 6, 7, 12, events, events + 1} {
			for _, f := range []struct{ filter, want string }{
				{"", strings.Join(all, " ")},
				{"&type=/send/watch", strings.Join(sends, " ")},
			} {
				got := pages(t, ts.URL, limit, f.filter)
				if bodies(got) != f.want {
					t.Errorf("pages of %d%s: %s\nwant %s", limit, f.filter, bodies(got), f.want)
				}
				for i := 1; i < len(got); i++ {
					if got[i].Seq >= got[i-1].Seq {
						t.Errorf("pages of %d%s: %d after %d", limit, f.filter, got[i].Seq, got[i-1].Seq)
					}
				}
			}
		}
	})
}

// pages follows GET /events' next-page cursor, limit events a page, with
// filter added to each query, and returns the events read, newest first.
func pages(t *testing.T, url string, limit int, filter string) []webhook.Event {
	t.Helper()
	var read []webhook.Event
	query := fmt.Sprintf("?limit=%d%s", limit, filter)
	for range 1000 {
		resp, err := client.Get(url + "/events" + query)
		if err != nil {
			t.Fatal(err)
		}
		var evs []webhook.Event
		err = json.NewDecoder(resp.Body).Decode(&evs)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /events%s: %d, %v", query, resp.StatusCode, err)
		}
		if len(evs) > limit {
			t.Fatalf("GET /events%s: %d events", query, len(evs))
		}
		read = append(read, evs...)
		next := resp.Header.Get("Bulkdesk-Next-Before")
		if next == "" {
			return read
		}
		query = fmt.Sprintf("?limit=%d&before=%s%s", limit, next, filter)
	}
	t.Fatal("more than 1,000 pages")
	return nil
}

// bodies are the bodies of events, joined by spaces.
func bodies(evs []webhook.Event) string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Body
	}
	return strings.Join(out, " ")
}

func containsSeq(raw string, seq uint64) bool {
	var d struct {
		Duplicate bool   `json:"duplicate"`
		Seq       uint64 `json:"seq"`
	}
	return json.Unmarshal([]byte(raw), &d) == nil && d.Duplicate && d.Seq == seq
}
