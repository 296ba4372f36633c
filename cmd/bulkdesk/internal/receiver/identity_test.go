package receiver_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// A stream opens with a hello naming the receiver and its newest event,
// and GET /events names the same receiver.
func TestStreamSaysHello(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	post(t, ts.URL, "/transfers/watch", `{"n":1}`)
	post(t, ts.URL, "/transfers/watch", `{"n":2}`)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	h := readHello(t, openStream(t, ctx, ts.URL, "?after=1", nil))
	if len(h.Receiver) != 16 || h.Newest != 2 {
		t.Errorf("hello %+v, want a 16-digit id and newest 2", h)
	}
	if got := receiverHeader(t, ts.URL); got != h.Receiver {
		t.Errorf("GET /events names receiver %q, the stream %q", got, h.Receiver)
	}
}

// The id lives as long as the numbering: a new one for each start
// without an events directory or with an empty one, the same one across
// restarts that keep numbering.
func TestReceiverIDFollowsTheNumbering(t *testing.T) {
	first := startServer(t, receiver.Config{})
	second := startServer(t, receiver.Config{})
	if a, b := receiverHeader(t, first.URL), receiverHeader(t, second.URL); a == b || a == "" {
		t.Errorf("two receivers without a directory share id %q", a)
	}

	dir := t.TempDir()
	stored := startServer(t, receiver.Config{Dir: dir})
	post(t, stored.URL, "/transfers/watch", `{"n":1}`)
	id := receiverHeader(t, stored.URL)
	stored.stop(t)

	again := startServer(t, receiver.Config{Dir: dir})
	if got := receiverHeader(t, again.URL); got != id {
		t.Errorf("after a restart with its events the id is %q, was %q", got, id)
	}
	again.stop(t)

	// Without its events, numbering starts over, and so does the id.
	if err := os.Remove(filepath.Join(dir, "events.jsonl")); err != nil {
		t.Fatal(err)
	}
	anew := startServer(t, receiver.Config{Dir: dir})
	if got := receiverHeader(t, anew.URL); got == id {
		t.Error("numbering started over with the same id")
	}
}
