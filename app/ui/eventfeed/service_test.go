package eventfeed_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui/eventfeed"
	"github.com/bulkdesk/bulkdesk/app/webhook"
)

const (
	transfer = "/transfers/watch"
	bulkEnd  = "/bulk_process_end/watch"
)

func TestListsThenStreamsAfterTheNewest(t *testing.T) {
	r := newRig(t)
	call := r.net.nextList(t)
	if call.q.Limit != 50 || len(call.q.Types) != 0 {
		t.Errorf("first listing asks for %+v, want the newest 50 of every type", call.q)
	}
	// The receiver lists newest first.
	call.answer(eventfeed.Listing{Receiver: "r1", Events: []webhook.Event{event(3, transfer), event(2, bulkEnd), event(1, transfer)}}, nil)
	s := r.net.nextOpen(t)
	if s.after != 3 {
		t.Errorf("the stream resumes after %d, want 3", s.after)
	}
	if u := r.update(t); u.Status.State != eventfeed.StateConnecting || len(u.Added) != 3 {
		t.Errorf("after the listing: %s, %d events added", u.Status.State, len(u.Added))
	}
	s.h.Opened()
	send(t, s, event(4, bulkEnd))
	u := r.update(t)
	if u.Status.State != eventfeed.StateLive || !slices.Equal(seqs(u.Added), []uint64{4}) || u.Status.Newest != 4 {
		t.Errorf("after the stream opened and sent 4: %s, added %v, newest %d", u.Status.State, seqs(u.Added), u.Status.Newest)
	}
	if got := seqs(r.Events(0)); !slices.Equal(got, []uint64{4, 3, 2, 1}) {
		t.Errorf("events %v, want newest first", got)
	}
	if got := seqs(r.Events(0, bulkEnd)); !slices.Equal(got, []uint64{4, 2}) {
		t.Errorf("bulk ends %v", got)
	}
	if ev, ok := r.BulkEnd("b4"); !ok || ev.Seq != 4 {
		t.Errorf("BulkEnd(b4) = %d, %v", ev.Seq, ok)
	}
	if ev, ok := r.Event(2); !ok || ev.Type != bulkEnd {
		t.Errorf("Event(2) = %+v, %v", ev, ok)
	}
	if c := r.Counts(); c[transfer] != 2 || c[bulkEnd] != 2 {
		t.Errorf("counts %v", c)
	}
}

// A burst of events makes one update, not one per event.
func TestABurstMakesOneUpdate(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "r1")
	r.update(t)
	var burst []webhook.Event
	for seq := uint64(1); seq <= 80; seq++ {
		burst = append(burst, event(seq, transfer))
	}
	send(t, s, burst...)
	u := r.update(t)
	if len(u.Added) != 80 || u.Added[0].Seq != 1 || u.Added[79].Seq != 80 {
		t.Errorf("one update with %d events (%v…)", len(u.Added), seqs(u.Added)[:3])
	}
	select {
	case u := <-r.updates:
		t.Errorf("a second update: %+v", u.Status)
	default:
	}
	// The feed holds its size, the oldest leaving first.
	send(t, s, event(81, transfer), event(82, transfer), event(83, transfer), event(84, transfer), event(85, transfer),
		event(86, transfer), event(87, transfer), event(88, transfer), event(89, transfer), event(90, transfer),
		event(91, transfer), event(92, transfer), event(93, transfer), event(94, transfer), event(95, transfer),
		event(96, transfer), event(97, transfer), event(98, transfer), event(99, transfer), event(100, transfer), event(101, transfer))
	r.update(t)
	if evs := r.Events(0); len(evs) != 100 || evs[99].Seq != 2 {
		t.Errorf("held %d events, oldest %d", len(evs), evs[len(evs)-1].Seq)
	}
}

// When the stream drops, the Service lists again and reopens the stream
// after the newest event it held before: the receiver replays the rest,
// and the feed takes each event once.
func TestADroppedStreamResumesAfterTheNewestHeld(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "r1", event(2, transfer), event(1, transfer))
	r.update(t)
	s.h.Failed(false)
	if !s.closedSoon() {
		t.Error("the dropped stream is still open: the browser would retry it without the id")
	}
	u := r.update(t)
	if u.Status.State != eventfeed.StateReconnecting || u.Status.Newest != 2 || !u.Status.RetryAt.Equal(r.now.Add(time.Second)) || u.Status.Problem != "" {
		t.Errorf("after a drop: %+v", u.Status)
	}
	r.net.noCalls(t)
	r.timers.fire(time.Second)
	// Meanwhile events 3 to 9 were accepted; the listing brings the newest.
	r.net.nextList(t).answer(eventfeed.Listing{Receiver: "r1", Events: []webhook.Event{event(9, transfer), event(8, transfer)}}, nil)
	s = r.net.nextOpen(t)
	if s.after != 2 {
		t.Errorf("the stream resumes after %d, want 2, the newest held before the listing", s.after)
	}
	s.h.Opened()
	s.h.Message("hello", `{"receiver":"r1","newest":9}`)
	send(t, s, event(3, transfer), event(4, transfer), event(5, transfer), event(6, transfer), event(7, transfer), event(8, transfer), event(9, transfer))
	u = r.update(t)
	if u.Status.State != eventfeed.StateLive || !slices.Equal(seqs(u.Added), []uint64{9, 8, 3, 4, 5, 6, 7}) {
		t.Errorf("after resuming: %s, added %v", u.Status.State, seqs(u.Added))
	}
	if got := seqs(r.Events(0)); !slices.Equal(got, []uint64{9, 8, 7, 6, 5, 4, 3, 2, 1}) {
		t.Errorf("events %v", got)
	}
}

func TestGapsAreKept(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "r1", event(4, transfer))
	r.update(t)
	s.h.Message("gap", `{"after":4,"oldest":9}`)
	send(t, s, event(9, transfer))
	u := r.update(t)
	if len(u.Status.Gaps) != 1 || u.Status.Gaps[0].After != 4 || u.Status.Gaps[0].Oldest != 9 || u.Status.Gaps[0].Missing() != 4 || !u.Status.Gaps[0].At.Equal(r.now) {
		t.Errorf("gaps %+v", u.Status.Gaps)
	}
	for i := range 12 {
		s.h.Message("gap", fmt.Sprintf(`{"after":%d,"oldest":%d}`, 10+i, 12+i))
	}
	if g := r.update(t).Status.Gaps; len(g) != 10 || g[9].After != 21 {
		t.Errorf("after 13 gaps, %d kept, last %+v", len(g), g[len(g)-1])
	}
}

// TestAGapTheListingHoldsIsNoGap: events that left the receiver's memory
// but that its listing brought (it lists past its memory what it keeps on
// disk) are not named as missing.
func TestAGapTheListingHoldsIsNoGap(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "r1", event(2, transfer), event(3, transfer), event(5, transfer))
	r.update(t)
	s.h.Message("gap", `{"after":1,"oldest":4}`) // 2 and 3 are held
	s.h.Message("gap", `{"after":1,"oldest":7}`) // 4 and 6 are not
	send(t, s, event(7, transfer))
	u := r.update(t)
	if len(u.Status.Gaps) != 1 || u.Status.Gaps[0].After != 3 || u.Status.Gaps[0].Oldest != 7 {
		t.Errorf("gaps %+v, want the one after 3 and before 7", u.Status.Gaps)
	}
}

// A stream the browser gave up on is opened again by the Service, after a
// delay that grows while the server fails, listing first.
func TestAClosedStreamIsReopenedWithGrowingDelays(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "r1", event(5, transfer))
	r.update(t)
	s.h.Failed(true)
	if !s.closedSoon() {
		t.Error("the failed stream is still open")
	}
	u := r.update(t)
	if u.Status.State != eventfeed.StateReconnecting || !u.Status.RetryAt.Equal(r.now.Add(time.Second)) || !strings.Contains(u.Status.Problem, "refused") {
		t.Errorf("after the stream closed: %s, retry at %v", u.Status.State, u.Status.RetryAt)
	}
	// A second failure of the server doubles the delay.
	r.timers.fire(time.Second)
	r.net.nextList(t).answer(eventfeed.Listing{}, fmt.Errorf("GET events: connection refused"))
	u = r.inState(t, eventfeed.StateOffline)
	if u.Status.State != eventfeed.StateOffline || !strings.Contains(u.Status.Problem, "connection refused") || !slices.Equal(r.timers.delays(), []time.Duration{2 * time.Second}) {
		t.Errorf("server down: %s %q, delays %v", u.Status.State, u.Status.Problem, r.timers.delays())
	}
	r.timers.fire(2 * time.Second)
	r.net.nextList(t).answer(eventfeed.Listing{Receiver: "r1", Events: []webhook.Event{event(6, transfer), event(5, transfer)}}, nil)
	s = r.net.nextOpen(t)
	if s.after != 5 {
		t.Errorf("reopened after %d, want 5", s.after)
	}
	s.h.Opened()
	if u := r.update(t); u.Status.State != eventfeed.StateLive || !slices.Equal(seqs(u.Added), []uint64{6}) {
		t.Errorf("back: %s, added %v", u.Status.State, seqs(u.Added))
	}
	// Once live, the delay starts again from a second.
	s.h.Failed(true)
	r.update(t)
	if d := r.timers.delays(); !slices.Equal(d, []time.Duration{time.Second}) {
		t.Errorf("delays after a live stream failed: %v", d)
	}
}

func TestAServerWithoutReceiver(t *testing.T) {
	r := newRig(t)
	r.net.nextList(t).answer(eventfeed.Listing{}, eventfeed.ErrNoReceiver)
	if u := r.inState(t, eventfeed.StateNoReceiver); u.Status.State != eventfeed.StateNoReceiver || u.Status.Problem != "" {
		t.Errorf("status %+v", u.Status)
	}
	r.net.noCalls(t)
	if d := r.timers.delays(); !slices.Equal(d, []time.Duration{5 * time.Minute}) {
		t.Errorf("retries %v, want one in 5 minutes", d)
	}
	// "Try now" asks again at once.
	r.Retry()
	r.net.nextList(t).answer(eventfeed.Listing{}, eventfeed.ErrNoReceiver)
	r.net.noCalls(t)
}

// A receiver that starts a new numbering while the console is away: the
// listing names another receiver, and the Service drops the old events
// and shows the new receiver's.
func TestARestartedReceiverResetsTheFeed(t *testing.T) {
	r := newRig(t)
	old := r.connect(t, "r1", event(3, transfer), event(2, transfer), event(1, bulkEnd))
	r.update(t)
	old.h.Failed(false)
	r.update(t)
	r.timers.fire(time.Second)
	r.net.nextList(t).answer(eventfeed.Listing{Receiver: "r2", Events: []webhook.Event{event(1, transfer)}}, nil)
	s := r.net.nextOpen(t)
	if s.after != 1 {
		t.Errorf("the new stream resumes after %d, want 1", s.after)
	}
	s.h.Opened()
	u := r.update(t)
	if !u.Reset || !slices.Equal(seqs(u.Added), []uint64{1}) || u.Status.Restarted.IsZero() || u.Status.State != eventfeed.StateLive {
		t.Errorf("update %+v", u)
	}
	if got := r.Events(0); len(got) != 1 || got[0].Type != transfer {
		t.Errorf("events after the reset %+v", got)
	}
}

// The same, found by the stream's hello when the listing did not name
// its receiver (a proxy that drops the header): the Service starts over.
func TestAHelloFromAnotherReceiverResetsTheFeed(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "", event(2, transfer), event(1, bulkEnd))
	s.h.Message("hello", `{"receiver":"r1","newest":2}`)
	r.update(t)
	s.h.Failed(false)
	r.update(t)
	r.timers.fire(time.Second)
	r.net.nextList(t).answer(eventfeed.Listing{Events: []webhook.Event{event(1, transfer)}}, nil)
	old := r.net.nextOpen(t)
	old.h.Opened()
	old.h.Message("hello", `{"receiver":"r2","newest":1}`)
	if !old.closedSoon() {
		t.Error("the stream of the new numbering, opened after an old event, is still open")
	}
	send(t, old, event(5, transfer)) // too late: ignored
	r.net.nextList(t).answer(eventfeed.Listing{Events: []webhook.Event{event(1, bulkEnd)}}, nil)
	s = r.net.nextOpen(t)
	s.h.Opened()
	s.h.Message("hello", `{"receiver":"r2","newest":1}`)
	u := r.until(t, func(u eventfeed.Update) bool { return u.Status.State == eventfeed.StateLive })
	if !u.Reset || r.Len() != 1 || r.Counts()[bulkEnd] != 1 || s.isClosed() {
		t.Errorf("after the new receiver's hello: reset %v, %v", u.Reset, r.Counts())
	}
}

func TestBackOnlineReconnectsAtOnce(t *testing.T) {
	r := newRig(t)
	r.net.nextList(t).answer(eventfeed.Listing{}, fmt.Errorf("connection refused"))
	r.inState(t, eventfeed.StateOffline)
	r.SetOnline(false)
	if u := r.update(t); u.Status.Online || u.Status.State != eventfeed.StateOffline {
		t.Errorf("offline: %+v", u.Status)
	}
	r.SetOnline(true)
	r.net.nextList(t).answer(eventfeed.Listing{Receiver: "r1"}, nil)
	r.net.nextOpen(t).h.Opened()
	if u := r.update(t); !u.Status.Online || u.Status.State != eventfeed.StateLive {
		t.Errorf("online: %+v", u.Status)
	}
	// The retry scheduled while offline no longer runs.
	if n := r.timers.fire(time.Second); n != 0 {
		t.Errorf("%d stale retries ran", n)
	}
	r.net.noCalls(t)
	// Live, a probe's hiccup does not reconnect.
	r.SetOnline(false)
	r.SetOnline(true)
	r.net.noCalls(t)
}

func TestBackfillListsOneType(t *testing.T) {
	r := newRig(t)
	r.connect(t, "r1", event(40, transfer))
	r.update(t)
	r.Backfill(bulkEnd)
	call := r.net.nextList(t)
	if !slices.Equal(call.q.Types, []string{bulkEnd}) || call.q.Limit != 50 {
		t.Errorf("backfill asks %+v", call.q)
	}
	call.answer(eventfeed.Listing{Receiver: "r1", Events: []webhook.Event{event(12, bulkEnd), event(3, bulkEnd)}}, nil)
	if u := r.update(t); !slices.Equal(seqs(u.Added), []uint64{12, 3}) {
		t.Errorf("added %v", seqs(u.Added))
	}
	if got := seqs(r.Events(0)); !slices.Equal(got, []uint64{40, 12, 3}) {
		t.Errorf("events %v", got)
	}
}

func TestAnUnreadableEventIsReported(t *testing.T) {
	r := newRig(t)
	s := r.connect(t, "r1")
	r.update(t)
	s.h.Message("", `{"seq":`)
	s.h.Message("", `{"type":"/transfers/watch"}`)
	s.h.Message("ping", `whatever`) // unknown messages are ignored
	u := r.update(t)
	if !strings.Contains(u.Status.Problem, "could not be read: it has no sequence number") || len(u.Added) != 0 {
		t.Errorf("status %+v", u.Status)
	}
}

func TestUnsubscribe(t *testing.T) {
	r := newRig(t)
	got := make(chan eventfeed.Update, 4)
	stop := r.Subscribe(func(u eventfeed.Update) { got <- u })
	r.connect(t, "r1", event(1, transfer))
	r.update(t)
	if len(got) != 1 {
		t.Fatalf("the second subscriber got %d updates", len(got))
	}
	stop()
	r.Retry() // live: nothing to do
	r.net.noCalls(t)
	r.SetOnline(false)
	r.update(t)
	if len(got) != 1 {
		t.Errorf("told after unsubscribing")
	}
}

// A page opened filtered asks for its type before the first listing is
// in: both are taken.
func TestBackfillBeforeTheFirstListing(t *testing.T) {
	r := newRig(t)
	first := r.net.nextList(t)
	r.Backfill(bulkEnd)
	backfill := r.net.nextList(t)
	if len(backfill.q.Types) != 1 {
		backfill, first = first, backfill
	}
	backfill.answer(eventfeed.Listing{Receiver: "r1", Events: []webhook.Event{event(3, bulkEnd)}}, nil)
	r.until(t, func(u eventfeed.Update) bool { return len(u.Added) == 1 })
	first.answer(eventfeed.Listing{Receiver: "r1", Events: []webhook.Event{event(9, transfer)}}, nil)
	if s := r.net.nextOpen(t); s.after != 9 {
		t.Errorf("the stream opens after %d, want 9", s.after)
	}
	if got := seqs(r.Events(0)); !slices.Equal(got, []uint64{9, 3}) {
		t.Errorf("events %v", got)
	}
	// A backfill from another numbering is left out.
	r.Backfill(bulkEnd)
	r.net.nextList(t).answer(eventfeed.Listing{Receiver: "r2", Events: []webhook.Event{event(1, bulkEnd)}}, nil)
	r.net.noCalls(t)
	if r.Len() != 2 {
		t.Errorf("%d events held after a backfill of another receiver", r.Len())
	}
}
