package eventfeed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// Defaults of Options.
const (
	// DefaultSize is how many events a Service holds.
	DefaultSize = 2000
	// DefaultListLimit is how many events it lists on arrival.
	DefaultListLimit = 500
	// DefaultFlushDelay is how long it gathers events before telling
	// subscribers.
	DefaultFlushDelay = 250 * time.Millisecond
)

// Delays before trying again.
const (
	firstRetry   = time.Second
	longestRetry = 30 * time.Second
	// A server without a receiver rarely gains one without a restart,
	// which the console notices as offline then online.
	noReceiverRetry = 5 * time.Minute
	listTimeout     = 30 * time.Second
)

// Options configure a Service.
type Options struct {
	Transport Transport
	// Size is how many events are held, the oldest leaving first;
	// 0 means DefaultSize.
	Size int
	// ListLimit is how many of the receiver's newest events are listed on
	// arrival and for a backfill; 0 means DefaultListLimit.
	ListLimit int
	// FlushDelay is how long events are gathered before subscribers are
	// told; 0 means DefaultFlushDelay.
	FlushDelay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// AfterFunc runs f after d unless stopped; nil means time.AfterFunc.
	// Tests pass their own to run timers when they choose.
	AfterFunc func(d time.Duration, f func()) (stop func())
}

// A Service is the console's connection to the receiver; see the package
// documentation. Its methods are safe for concurrent use.
type Service struct {
	opts Options

	mu       sync.Mutex
	feed     *webhook.Feed
	status   Status
	receiver string // the receiver's id, once known
	// resumeAfter is the newest event the connections' listings and
	// streams brought: a new stream starts after it. A backfill, which
	// brings older events of one type, leaves it be.
	resumeAfter uint64
	// conn numbers connections: callbacks and timers of an older one are
	// ignored.
	conn        int
	closeStream func()
	stopRetry   func()
	backoff     time.Duration

	pending   []webhook.Event
	reset     bool
	flushing  bool
	subs      map[int]func(Update)
	nextSubID int
}

// New returns a Service, not started.
func New(o Options) *Service {
	if o.Size <= 0 {
		o.Size = DefaultSize
	}
	if o.ListLimit <= 0 {
		o.ListLimit = DefaultListLimit
	}
	if o.FlushDelay <= 0 {
		o.FlushDelay = DefaultFlushDelay
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AfterFunc == nil {
		o.AfterFunc = func(d time.Duration, f func()) func() {
			t := time.AfterFunc(d, f)
			return func() { t.Stop() }
		}
	}
	return &Service{
		opts:    o,
		feed:    webhook.NewFeed(o.Size),
		status:  Status{State: StateIdle, Online: true},
		subs:    map[int]func(Update){},
		backoff: firstRetry,
	}
}

// Subscribe calls f with every update until the returned function is
// called, and starts the Service if it has not started. f is called from
// a goroutine of its own, never from inside another method of the
// Service; a page wraps what f changes in its UI's dispatch.
func (s *Service) Subscribe(f func(Update)) (unsubscribe func()) {
	s.mu.Lock()
	s.nextSubID++
	id := s.nextSubID
	s.subs[id] = f
	idle := s.status.State == StateIdle
	s.mu.Unlock()
	if idle {
		s.Start()
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.subs, id)
	}
}

// Start connects to the receiver, once; later calls do nothing.
func (s *Service) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status.State == StateIdle {
		s.connectLocked()
	}
}

// Retry connects again now, unless the stream is live.
func (s *Service) Retry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.status.State; st != StateIdle && st != StateLive {
		s.backoff = firstRetry
		s.connectLocked()
	}
}

// SetOnline tells the Service whether the console's server answers. Coming
// back online reconnects at once, rather than at the next retry.
func (s *Service) SetOnline(online bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status.Online == online {
		return
	}
	s.status.Online = online
	s.changedLocked()
	if st := s.status.State; online && st != StateIdle && st != StateLive {
		s.backoff = firstRetry
		s.connectLocked()
	}
}

// Status returns the connection's status.
func (s *Service) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statusLocked()
}

// Events returns up to limit events held (all when limit <= 0), newest
// first, of the given types (all when none is given).
func (s *Service) Events(limit int, types ...string) []webhook.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.feed.Events(limit, types...)
}

// Counts returns how many events of each type are held.
func (s *Service) Counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.feed.Counts()
}

// Len returns how many events are held.
func (s *Service) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.feed.Len()
}

// Event returns the event held with sequence number seq.
func (s *Service) Event(seq uint64) (webhook.Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ev := range s.feed.Events(0) {
		if ev.Seq == seq {
			return ev, true
		}
	}
	return webhook.Event{}, false
}

// BulkEnd returns the newest end-of-bulk event held for the bulk.
func (s *Service) BulkEnd(bulkID string) (webhook.Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.feed.BulkEnd(bulkID)
}

// Backfill lists the receiver's newest events of the given types, for a
// page filtered to types the arrival's listing held few of. The events
// reach subscribers as any others.
func (s *Service) Backfill(types ...string) {
	s.mu.Lock()
	conn := s.conn
	started := s.status.State != StateIdle
	s.mu.Unlock()
	if !started {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		defer cancel()
		l, err := s.opts.Transport.List(ctx, Query{Limit: s.opts.ListLimit, Types: types})
		if err != nil {
			return // the connection's own listing reports the server's state
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		// Events of another numbering than the feed's are left out; the
		// connection's own listing or hello deals with the change.
		if conn == s.conn && (l.Receiver == "" || s.receiver == "" || l.Receiver == s.receiver) {
			s.mergeLocked(l.Events)
		}
	}()
}

// connectLocked starts a new connection: it lists the newest events, then
// opens the stream after the newest held.
func (s *Service) connectLocked() {
	s.dropConnectionLocked()
	s.setStateLocked(StateConnecting, "")
	conn := s.conn
	go s.list(conn)
}

// dropConnectionLocked ends the connection: what its stream, its listing
// and its retry bring later is ignored.
func (s *Service) dropConnectionLocked() {
	s.conn++
	if s.closeStream != nil {
		s.closeStream()
		s.closeStream = nil
	}
	if s.stopRetry != nil {
		s.stopRetry()
		s.stopRetry = nil
	}
	s.status.RetryAt = time.Time{}
}

func (s *Service) list(conn int) {
	ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
	defer cancel()
	l, err := s.opts.Transport.List(ctx, Query{Limit: s.opts.ListLimit})

	s.mu.Lock()
	if conn != s.conn {
		s.mu.Unlock()
		return
	}
	switch {
	case errors.Is(err, ErrNoReceiver):
		s.setStateLocked(StateNoReceiver, "")
		s.retryLocked(noReceiverRetry)
		s.mu.Unlock()
		return
	case err != nil:
		s.setStateLocked(StateOffline, err.Error())
		s.retryLocked(s.nextBackoffLocked())
		s.mu.Unlock()
		return
	}
	if l.Receiver != "" {
		if s.receiver != "" && l.Receiver != s.receiver {
			s.resetLocked()
		}
		s.receiver = l.Receiver
	}
	// A stream resumed after a drop starts after the newest event the
	// last one brought, so that what this listing skipped (it holds
	// only the newest) comes from the receiver's memory, or is named as
	// a gap. A first stream starts after what the listing brought.
	s.mergeLocked(l.Events)
	if s.resumeAfter == 0 {
		for _, ev := range l.Events {
			s.resumeAfter = max(s.resumeAfter, ev.Seq)
		}
	}
	after := s.resumeAfter
	s.mu.Unlock()

	closeStream := s.opts.Transport.Open(after, &handler{s: s, conn: conn})
	s.mu.Lock()
	defer s.mu.Unlock()
	if conn != s.conn {
		closeStream()
		return
	}
	s.closeStream = closeStream
}

// retryLocked schedules a new connection after d.
func (s *Service) retryLocked(d time.Duration) {
	conn := s.conn
	s.status.RetryAt = s.opts.Now().Add(d)
	s.stopRetry = s.opts.AfterFunc(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if conn == s.conn {
			s.connectLocked()
		}
	})
	s.changedLocked()
}

// nextBackoffLocked returns the delay before the next attempt and doubles
// the one after, up to longestRetry.
func (s *Service) nextBackoffLocked() time.Duration {
	d := s.backoff
	s.backoff = min(2*s.backoff, longestRetry)
	return d
}

func (s *Service) setStateLocked(st State, problem string) {
	if s.status.State != st {
		s.status.State = st
		s.status.Since = s.opts.Now()
	}
	s.status.Problem = problem
	s.changedLocked()
}

// resetLocked empties the feed: the receiver numbers events anew.
func (s *Service) resetLocked() {
	s.feed = webhook.NewFeed(s.opts.Size)
	s.resumeAfter = 0
	s.pending = nil
	s.reset = true
	s.status.Gaps = nil
	s.status.Restarted = s.opts.Now()
	s.changedLocked()
}

// mergeLocked adds events to the feed and queues those it did not hold
// for the subscribers.
func (s *Service) mergeLocked(evs []webhook.Event) {
	for _, ev := range evs {
		if s.feed.Merge(ev) > 0 {
			s.pending = append(s.pending, ev)
		}
	}
	s.changedLocked()
}

func (s *Service) statusLocked() Status {
	st := s.status
	st.Newest = s.resumeAfter
	st.Gaps = append([]Gap(nil), s.status.Gaps...)
	return st
}

// changedLocked schedules telling the subscribers, unless it is already
// scheduled: whatever else changes meanwhile goes in the same update.
func (s *Service) changedLocked() {
	if s.flushing {
		return
	}
	s.flushing = true
	s.opts.AfterFunc(s.opts.FlushDelay, s.flush)
}

// flush tells every subscriber what changed.
func (s *Service) flush() {
	s.mu.Lock()
	u := Update{Added: s.pending, Reset: s.reset, Status: s.statusLocked()}
	s.pending, s.reset, s.flushing = nil, false, false
	subs := make([]func(Update), 0, len(s.subs))
	for _, f := range s.subs {
		subs = append(subs, f)
	}
	s.mu.Unlock()
	for _, f := range subs {
		f(u)
	}
}

// handler receives one connection's stream.
type handler struct {
	s    *Service
	conn int
}

func (h *handler) Opened() {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.conn != s.conn {
		return
	}
	s.backoff = firstRetry
	s.setStateLocked(StateLive, "")
}

func (h *handler) Message(event, data string) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.conn != s.conn {
		return
	}
	switch event {
	case "":
		var ev webhook.Event
		if err := json.Unmarshal([]byte(data), &ev); err != nil || ev.Seq == 0 {
			s.status.Problem = fmt.Sprintf("an event from the receiver could not be read: %v", orNoSeq(err))
			s.changedLocked()
			return
		}
		s.mergeLocked([]webhook.Event{ev})
		s.resumeAfter = max(s.resumeAfter, ev.Seq)
	case "hello":
		var hello struct {
			Receiver string `json:"receiver"`
		}
		if json.Unmarshal([]byte(data), &hello) != nil || hello.Receiver == "" {
			return
		}
		if s.receiver != "" && hello.Receiver != s.receiver {
			// The stream resumed after an event of the old numbering; the
			// new receiver's events before it would be missed. Start over.
			s.receiver = hello.Receiver
			s.resetLocked()
			s.connectLocked()
			return
		}
		s.receiver = hello.Receiver
	case "gap":
		var g Gap
		if json.Unmarshal([]byte(data), &g) != nil {
			return
		}
		// The listing before the stream may hold some of them: the
		// receiver lists past its memory what it keeps on disk or in a
		// shared database.
		for g.After+1 < g.Oldest && s.feed.Holds(g.After+1) {
			g.After++
		}
		for g.Oldest-1 > g.After && s.feed.Holds(g.Oldest-1) {
			g.Oldest--
		}
		if g.Missing() == 0 {
			return
		}
		g.At = s.opts.Now()
		s.status.Gaps = append(s.status.Gaps, g)
		if n := len(s.status.Gaps); n > maxGaps {
			s.status.Gaps = s.status.Gaps[n-maxGaps:]
		}
		s.changedLocked()
	}
}

func orNoSeq(err error) error {
	if err == nil {
		return errors.New("it has no sequence number")
	}
	return err
}

// Failed closes the stream and reconnects after a delay, even when the
// browser would retry by itself: its retry sends Last-Event-ID, which a
// service worker between the page and the server drops (Chrome does),
// and the receiver would replay its whole memory. The Service resumes
// with after= instead, which the receiver reads the same way.
func (h *handler) Failed(closed bool) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.conn != s.conn {
		return
	}
	s.dropConnectionLocked()
	problem := ""
	if closed {
		problem = "the server refused the stream of events"
	}
	s.setStateLocked(StateReconnecting, problem)
	s.retryLocked(s.nextBackoffLocked())
}
