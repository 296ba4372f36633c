package receiver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

func TestStreamDeliversNewEvents(t *testing.T) {
	ts := startServer(t, receiver.Config{KeepAlive: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	all := openStream(t, ctx, ts.URL, "", nil)
	bulks := openStream(t, ctx, ts.URL, "?type=bulk_process_end/watch", nil)

	post(t, ts.URL, "/transfers/watch", `{"eventType":"COMPLETED"}`)
	post(t, ts.URL, "/bulk_process_end/watch", bulkEnd)

	if _, ev := nextEvent(t, all); ev.Seq != 1 || ev.Type != "/transfers/watch" {
		t.Errorf("first event %+v", ev)
	}
	if _, ev := nextEvent(t, all); ev.Seq != 2 || ev.Summary.BulkID != "118231498219765760" {
		t.Errorf("second event %+v", ev)
	}
	if _, ev := nextEvent(t, bulks); ev.Seq != 2 || ev.Type != "/bulk_process_end/watch" {
		t.Errorf("filtered stream gave %+v", ev)
	}
	// Keep-alives flow while nothing happens.
	deadline := time.After(5 * time.Second)
	for keepAlive := false; !keepAlive; {
		select {
		case m := <-all:
			keepAlive = m.comment
		case <-deadline:
			t.Fatal("no keep-alive within 5 s")
		}
	}
}

func TestStreamResumesFromTheRing(t *testing.T) {
	ts := startServer(t, receiver.Config{RingSize: 3})
	for i := 0; i < 5; i++ {
		post(t, ts.URL, "/transfers/watch", `{"n":`+string(rune('0'+i))+`}`)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// A reconnecting EventSource sends the last id it saw.
	resumed := openStream(t, ctx, ts.URL, "", http.Header{"Last-Event-Id": {"3"}})
	for _, want := range []uint64{4, 5} {
		if _, ev := nextEvent(t, resumed); ev.Seq != want {
			t.Errorf("resumed stream gave %d, want %d", ev.Seq, want)
		}
	}
	// Events 2 and 3 have left a ring of 3 holding 3..5: the stream says
	// so before replaying what it has.
	gapped := openStream(t, ctx, ts.URL, "?after=1", nil)
	if m, _ := nextEvent(t, gapped); m.event != "gap" || m.data != `{"after":1,"oldest":3}` {
		t.Errorf("first message %+v, want a gap", m)
	}
	for _, want := range []uint64{3, 4, 5} {
		if _, ev := nextEvent(t, gapped); ev.Seq != want {
			t.Errorf("gapped stream gave %d, want %d", ev.Seq, want)
		}
	}
	post(t, ts.URL, "/transfers/watch", `{"n":"live"}`)
	if _, ev := nextEvent(t, gapped); ev.Seq != 6 {
		t.Errorf("live event after the backlog: %d", ev.Seq)
	}
}

func TestStreamEnds(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// The client goes: the receiver lets the stream go.
	clientCtx, leave := context.WithCancel(ctx)
	openStream(t, clientCtx, ts.URL, "", nil)
	eventually.True(t, 5*time.Second, "the stream to open", func() bool { return ts.Streams() == 1 })
	leave()
	eventually.True(t, 5*time.Second, "the stream to be let go", func() bool { return ts.Streams() == 0 })

	// The server shuts down: open streams end and Shutdown does not wait
	// for them (stop fails when Shutdown's context runs out first).
	stream := openStream(t, ctx, ts.URL, "", nil)
	eventually.True(t, 5*time.Second, "the stream to open", func() bool { return ts.Streams() == 1 })
	ts.stop(t)
	for range stream {
	}
	if ts.Streams() != 0 {
		t.Errorf("%d streams left", ts.Streams())
	}
}

func TestStreamRejectsBadParameters(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	for _, q := range []string{"?type=/nope/watch", "?after=x", "?after=-1"} {
		resp, err := client.Get(ts.URL + "/events/stream" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: %d", q, resp.StatusCode)
		}
	}
}
