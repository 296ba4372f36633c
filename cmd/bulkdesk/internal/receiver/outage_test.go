//go:build !js

package receiver_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
)

// TestSharedEventsAreRefusedWhileTheDatabaseIsDown: a receiver whose
// shared database stops answering ends its streams and answers
// GET /events and the stream with 503 and Retry-After, rather than from
// its memory, which lacks what other servers store meanwhile; once the
// database answers again it serves them again, caught up.
func TestSharedEventsAreRefusedWhileTheDatabaseIsDown(t *testing.T) {
	cluster := pgtest.New(t, false)
	cluster.Start()
	s := sharedStore(pgtest.NewDatabase(t, cluster.DSN(), "outage"))
	one, two := started(t, s), started(t, s)
	sendUntilStored(t, two.URL, "ref-1", `{"n":1}`)
	listed(t, one.URL, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stream := openStream(t, ctx, one.URL, "", nil)
	readHello(t, stream)

	cluster.Stop()
	waitForStatus(t, one.URL+"/events", http.StatusServiceUnavailable)
	streamEnds(t, stream)
	waitForStatus(t, one.URL+"/events/stream", http.StatusServiceUnavailable)

	cluster.Start()
	sendUntilStored(t, two.URL, "ref-2", `{"n":2}`)
	waitForStatus(t, one.URL+"/events", http.StatusOK)
	if evs := listed(t, one.URL, 2); evs[0].Body != `{"n":2}` || evs[1].Body != `{"n":1}` {
		t.Errorf("after the outage: %s, %s", evs[0].Body, evs[1].Body)
	}
	stream = openStream(t, ctx, one.URL, "?after=0", nil)
	readHello(t, stream)
	for i, want := range []string{`{"n":1}`, `{"n":2}`} {
		if _, ev := nextEvent(t, stream); ev.Body != want {
			t.Errorf("streamed event %d: %s, want %s", i, ev.Body, want)
		}
	}
}

// sendUntilStored posts an event until it is answered 204: a receiver
// whose database has just come back may answer 503 a while.
func sendUntilStored(t *testing.T, url, callRef, body string) {
	t.Helper()
	eventually.NoError(t, 15*time.Second, "event "+callRef+" to be stored", func() error {
		a := do(t, signedRequest(t, url, "/transfers/watch", callRef, body, time.Now()))
		switch a.status {
		case http.StatusNoContent:
			return nil
		case http.StatusServiceUnavailable:
			return fmt.Errorf("%d %s", a.status, a.raw)
		}
		t.Fatalf("event %s: %d %s", callRef, a.status, a.raw)
		return nil
	})
}

// waitForStatus asks GET url until it answers want; a 503 must say when
// to try again.
func waitForStatus(t *testing.T, url string, want int) {
	t.Helper()
	eventually.NoError(t, 15*time.Second, fmt.Sprintf("GET %s to answer %d", url, want), func() error {
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
			t.Fatalf("GET %s: 503 without Retry-After", url)
		}
		if resp.StatusCode != want {
			return fmt.Errorf("it answers %d", resp.StatusCode)
		}
		return nil
	})
}

// streamEnds waits, at most 15 s, for the server to end a stream.
func streamEnds(t *testing.T, stream <-chan sseMessage) {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case m, ok := <-stream:
			if !ok {
				return
			}
			if m.data != "" {
				t.Errorf("the stream sent %+v while its database was down", m)
			}
		case <-timeout:
			t.Fatal("the stream was still open 15 s into the database's outage")
		}
	}
}
