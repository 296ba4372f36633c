package receiver_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

// gatedShared is a shared store in memory whose Store waits, once entered,
// until release is closed: a test holds a transaction open.
type gatedShared struct {
	entered   chan struct{} // told when a Store begins
	release   chan struct{} // closed to let every Store finish
	following chan struct{} // closed when the receiver follows: it has joined

	mu      sync.Mutex
	events  []receiver.SharedEvent
	keys    map[string]uint64
	batches []int
	changed chan struct{} // closed and replaced at each Store
	once    sync.Once
}

func newGatedShared() *gatedShared {
	return &gatedShared{entered: make(chan struct{}, 16), release: make(chan struct{}), following: make(chan struct{}),
		keys: map[string]uint64{}, changed: make(chan struct{})}
}

func (g *gatedShared) ID(context.Context) (string, error) { return "gated", nil }

func (g *gatedShared) Store(ctx context.Context, events []receiver.PendingEvent) ([]receiver.StoredEvent, error) {
	g.entered <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.batches = append(g.batches, len(events))
	out := make([]receiver.StoredEvent, len(events))
	for i, ev := range events {
		if seq, ok := g.keys[ev.Key]; ok {
			out[i] = receiver.StoredEvent{Seq: seq, Duplicate: true}
			continue
		}
		seq := uint64(len(g.events) + 1)
		g.keys[ev.Key] = seq
		g.events = append(g.events, receiver.SharedEvent{Seq: seq, Type: ev.Type, Event: ev.Event})
		out[i] = receiver.StoredEvent{Seq: seq}
	}
	close(g.changed)
	g.changed = make(chan struct{})
	return out, nil
}

func (g *gatedShared) Recent(context.Context, int) ([]receiver.SharedEvent, error) { return nil, nil }

func (g *gatedShared) Older(context.Context, uint64, []string, int) ([]receiver.SharedEvent, error) {
	return nil, nil
}

func (g *gatedShared) Follow(ctx context.Context, after uint64, publish func(receiver.SharedEvent), status func(error)) error {
	g.once.Do(func() { close(g.following) })
	for {
		g.mu.Lock()
		news := g.events[min(after, uint64(len(g.events))):]
		changed := g.changed
		g.mu.Unlock()
		for _, ev := range news {
			publish(ev)
			after = ev.Seq
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		}
	}
}

func (g *gatedShared) Prune(context.Context, time.Time) (int64, error) { return 0, nil }

// TestSharedStoreTakesWaitingEventsTogether: while one transaction of the
// shared store runs, the events that arrive meanwhile wait and are stored
// together in the next, each answered once it is stored, a copy among
// them as a duplicate.
func TestSharedStoreTakesWaitingEventsTogether(t *testing.T) {
	const waiting = 8
	g := newGatedShared()
	queued := make(chan struct{}, waiting+2)
	cfg := receiver.Config{Shared: g}
	receiver.SetQueuedHook(&cfg, func() { queued <- struct{}{} })
	ts := startServer(t, cfg)
	<-g.following

	answers := []<-chan answer{postAsync(t, ts.URL, "ref-0", `{"n":0}`)}
	<-queued
	<-g.entered
	for i := 1; i <= waiting; i++ {
		answers = append(answers, postAsync(t, ts.URL, fmt.Sprintf("ref-%d", i%waiting), fmt.Sprintf(`{"n":%d}`, i%waiting)))
	}
	for range waiting {
		<-queued
	}
	select {
	case a := <-answers[0]:
		t.Fatalf("answered %d before the event was stored", a.status)
	default:
	}
	close(g.release)
	for i, ch := range answers {
		want := http.StatusNoContent
		if i == waiting { // ref-0 again: a copy of the first
			want = http.StatusOK
		}
		if a := <-ch; a.status != want {
			t.Errorf("event %d: %d, want %d", i, a.status, want)
		}
	}
	g.mu.Lock()
	batches, stored := fmt.Sprint(g.batches), len(g.events)
	g.mu.Unlock()
	if batches != fmt.Sprint([]int{1, waiting}) || stored != waiting {
		t.Errorf("events per transaction %s, %d stored; want [1 %d], %d", batches, stored, waiting, waiting)
	}
}
