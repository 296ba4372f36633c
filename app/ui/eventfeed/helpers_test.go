package eventfeed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// wait bounds every wait of the tests.
const wait = 5 * time.Second

// fakeTransport answers the Service's calls as the test tells it to.
type fakeTransport struct {
	lists chan *listCall
	opens chan *stream
}

func newFakeTransport() *fakeTransport {
	return &fakeTransport{lists: make(chan *listCall, 8), opens: make(chan *stream, 8)}
}

// listCall is one List the test answers.
type listCall struct {
	q     eventfeed.Query
	reply chan listReply
}

type listReply struct {
	l   eventfeed.Listing
	err error
}

func (c *listCall) answer(l eventfeed.Listing, err error) { c.reply <- listReply{l, err} }

// stream is one opened stream; the test speaks for the receiver.
type stream struct {
	after  uint64
	h      eventfeed.Handler
	mu     sync.Mutex
	closed bool
}

func (s *stream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// closedSoon reports whether the stream is closed within a short while:
// a stream that fails while the Service is still opening it is closed
// once the opening returns.
func (s *stream) closedSoon() bool { return eventually.Until(wait, s.isClosed) }

func (f *fakeTransport) List(ctx context.Context, q eventfeed.Query) (eventfeed.Listing, error) {
	c := &listCall{q: q, reply: make(chan listReply, 1)}
	f.lists <- c
	select {
	case r := <-c.reply:
		return r.l, r.err
	case <-ctx.Done():
		return eventfeed.Listing{}, ctx.Err()
	}
}

func (f *fakeTransport) Open(after uint64, h eventfeed.Handler) func() {
	s := &stream{after: after, h: h}
	f.opens <- s
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.closed = true
	}
}

// nextList waits for the Service's next List.
func (f *fakeTransport) nextList(t *testing.T) *listCall {
	t.Helper()
	select {
	case c := <-f.lists:
		return c
	case <-time.After(wait):
		t.Fatal("the service listed no events")
		return nil
	}
}

// nextOpen waits for the Service to open a stream.
func (f *fakeTransport) nextOpen(t *testing.T) *stream {
	t.Helper()
	select {
	case s := <-f.opens:
		return s
	case <-time.After(wait):
		t.Fatal("the service opened no stream")
		return nil
	}
}

// noCalls checks that the Service neither lists nor opens for a while.
func (f *fakeTransport) noCalls(t *testing.T) {
	t.Helper()
	select {
	case c := <-f.lists:
		t.Fatalf("unexpected List %+v", c.q)
	case s := <-f.opens:
		t.Fatalf("unexpected Open after %d", s.after)
	case <-time.After(50 * time.Millisecond):
	}
}

// timers holds the Service's timers until the test fires them.
type timers struct {
	mu      sync.Mutex
	pending []*timer
}

type timer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (tm *timers) AfterFunc(d time.Duration, f func()) func() {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	t := &timer{d: d, f: f}
	tm.pending = append(tm.pending, t)
	return func() {
		tm.mu.Lock()
		defer tm.mu.Unlock()
		t.stopped = true
	}
}

// fire runs the pending timers set for d and reports how many ran.
func (tm *timers) fire(d time.Duration) int {
	tm.mu.Lock()
	var due []*timer
	kept := tm.pending[:0]
	for _, t := range tm.pending {
		switch {
		case t.d == d && !t.stopped:
			due = append(due, t)
		case t.d != d && !t.stopped:
			kept = append(kept, t)
		}
	}
	tm.pending = kept
	tm.mu.Unlock()
	for _, t := range due {
		t.f()
	}
	return len(due)
}

// delays returns the delays of the pending timers other than flushes.
func (tm *timers) delays() []time.Duration {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	var out []time.Duration
	for _, t := range tm.pending {
		if !t.stopped && t.d != flush {
			out = append(out, t.d)
		}
	}
	return out
}

// flush is the tests' flush delay, told apart from retries by its length.
const flush = 7 * time.Millisecond

// rig is a Service on a fake transport with held timers and one
// subscriber whose updates the test reads.
type rig struct {
	*eventfeed.Service
	net     *fakeTransport
	timers  *timers
	updates chan eventfeed.Update
	now     time.Time
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{net: newFakeTransport(), timers: &timers{}, updates: make(chan eventfeed.Update, 64), now: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
	r.Service = eventfeed.New(eventfeed.Options{
		Transport:  r.net,
		Size:       100,
		ListLimit:  50,
		FlushDelay: flush,
		Now:        func() time.Time { return r.now },
		AfterFunc:  r.timers.AfterFunc,
	})
	unsubscribe := r.Subscribe(func(u eventfeed.Update) { r.updates <- u })
	t.Cleanup(unsubscribe)
	return r
}

// update fires the pending flush and returns the update it made.
func (r *rig) update(t *testing.T) eventfeed.Update {
	t.Helper()
	eventually.True(t, wait, "an update to be scheduled", func() bool { return r.timers.fire(flush) > 0 })
	select {
	case u := <-r.updates:
		return u
	case <-time.After(wait):
		t.Fatal("the subscriber was not told")
		return eventfeed.Update{}
	}
}

// until gathers updates until the gathered one satisfies ok: for what
// the Service does on its own goroutine, after a listing is answered.
func (r *rig) until(t *testing.T, ok func(eventfeed.Update) bool) eventfeed.Update {
	t.Helper()
	var all eventfeed.Update
	eventually.NoError(t, wait, "an update as awaited", func() error {
		if r.timers.fire(flush) > 0 {
			u := <-r.updates
			all.Added = append(all.Added, u.Added...)
			all.Reset = all.Reset || u.Reset
			all.Status = u.Status
			if ok(all) {
				return nil
			}
		}
		return fmt.Errorf("the last: %+v", all.Status)
	})
	return all
}

// inState waits for an update in the state st.
func (r *rig) inState(t *testing.T, st eventfeed.State) eventfeed.Update {
	t.Helper()
	return r.until(t, func(u eventfeed.Update) bool { return u.Status.State == st })
}

// connect answers the first listing with evs from receiver id and
// returns the stream the Service then opens, told it is open.
func (r *rig) connect(t *testing.T, id string, evs ...webhook.Event) *stream {
	t.Helper()
	r.net.nextList(t).answer(eventfeed.Listing{Receiver: id, Events: evs}, nil)
	s := r.net.nextOpen(t)
	s.h.Opened()
	return s
}

// event returns an event of the given type and sequence number.
func event(seq uint64, typ string) webhook.Event {
	body := fmt.Sprintf(`{"n":%d}`, seq)
	if typ == "/bulk_process_end/watch" {
		body = fmt.Sprintf(`{"bulkId":"b%d","status":"COMPLETED"}`, seq)
	}
	at := time.Date(2025, 3, 1, 8, 0, int(seq), 0, time.UTC)
	return webhook.Event{Seq: seq, Type: typ, Body: body, PublishedAt: at, ReceivedAt: at, Summary: webhook.Summarize(typ, []byte(body), at)}
}

// send streams evs as the receiver writes them.
func send(t *testing.T, s *stream, evs ...webhook.Event) {
	t.Helper()
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		s.h.Message("", string(b))
	}
}

// seqs lists the sequence numbers of events.
func seqs(evs []webhook.Event) []uint64 {
	out := make([]uint64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}
