package receiver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// TestConcurrentEventsKeepTheirOrder posts 1,000 events from 50 senders at
// once and checks that every one is accepted and kept once, and that the
// ring, the stream and the file all hold them in the same order: the
// order of acceptance.
func TestConcurrentEventsKeepTheirOrder(t *testing.T) {
	const events, senders = 1000, 50
	dir := t.TempDir()
	ts := startServer(t, receiver.Config{Dir: dir})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stream := openStream(t, ctx, ts.URL, "", nil)

	jobs := make(chan int)
	statuses := make(chan int, events)
	var wg sync.WaitGroup
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				req := signedRequest(t, ts.URL, "/transfers/watch", fmt.Sprintf("ref-%d", i), fmt.Sprintf(`{"n":%d}`, i), time.Now())
				resp, err := client.Do(req.WithContext(ctx))
				if err != nil {
					t.Error(err)
					statuses <- 0
					continue
				}
				resp.Body.Close()
				statuses <- resp.StatusCode
			}
		}()
	}
	for i := range events {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != http.StatusNoContent {
			t.Fatalf("an event got %d", s)
		}
	}

	// The ring, newest first: sequence numbers 1000 down to 1, each
	// event once.
	ring := listEvents(t, ts.URL, "?limit=1000")
	if len(ring) != events {
		t.Fatalf("%d events in the ring, want %d", len(ring), events)
	}
	seen := map[string]bool{}
	bySeq := map[uint64]string{}
	for i, ev := range ring {
		if want := uint64(events - i); ev.Seq != want {
			t.Fatalf("ring position %d holds seq %d, want %d", i, ev.Seq, want)
		}
		if seen[ev.Body] {
			t.Fatalf("event %s kept twice", ev.Body)
		}
		seen[ev.Body] = true
		bySeq[ev.Seq] = ev.Body
	}

	// The stream saw them in acceptance order, with the same bodies.
	for want := uint64(1); want <= events; want++ {
		_, ev := nextEvent(t, stream)
		if ev.Seq != want || ev.Body != bySeq[want] {
			t.Fatalf("stream event %d (%s), want %d (%s)", ev.Seq, ev.Body, want, bySeq[want])
		}
	}

	// So does the file.
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	want := uint64(1)
	for ; sc.Scan(); want++ {
		var ev webhook.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Seq != want || ev.Body != bySeq[want] {
			t.Fatalf("file line %d holds seq %d", want, ev.Seq)
		}
	}
	if want != events+1 {
		t.Errorf("%d lines in the file", want-1)
	}
}
