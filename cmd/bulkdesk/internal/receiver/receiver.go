package receiver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// Receiver accepts signed webhook events and serves them to the console.
// Build one with New, mount it with Mount, and Close it on shutdown.
type Receiver struct {
	cfg      Config
	verifier webhook.Verifier
	log      *slog.Logger
	// id names this numbering of events (see receiverID).
	id string

	// qmu orders admission: the duplicate check, the sequence number and
	// the queue to the events file happen under it, so that events reach
	// the file in the order of their numbers.
	qmu      sync.Mutex
	replay   *replayGuard
	assigned uint64 // the next sequence number to give
	queue    []*commit
	// sharedQueue holds the events waiting for the shared store.
	sharedQueue []*sharedCommit
	closing     bool
	// wake tells the writer (commitLoop, or storeLoop with a shared
	// store) that its queue has work or that the receiver is closing.
	wake       chan struct{}
	writerDone chan struct{}
	journal    *journal // written by the commit goroutine only, after New

	// mu orders publication: the ring, the newest published sequence
	// number and the stream fan-out change together under it. With an
	// events directory, an event is published only once it is on disk.
	mu      sync.Mutex
	ring    *ring
	nextSeq uint64
	subs    map[*subscriber]struct{}

	streams atomic.Int64 // open event streams, for MaxStreams

	done      chan struct{} // closed by CloseStreams
	closeOnce sync.Once

	// stopFollow ends the follower of shared events, whose end closes
	// followDone (shared.go).
	stopFollow func()
	followDone chan struct{}
	// inStep says whether the ring holds what the shared store does (but
	// for the events of the last moment): set once joined and at each
	// read of the follower, cleared when the follower loses the store.
	inStep atomic.Bool
}

// New returns a receiver for cfg. With cfg.Dir set, it reloads the events
// stored there: the ring, the numbering and the duplicate guard carry on.
func New(cfg Config) (*Receiver, error) {
	if cfg.Key.IsZero() {
		return nil, errors.New("webhook receiver: no key to verify events with")
	}
	cfg = cfg.withDefaults()
	r := &Receiver{
		cfg:      cfg,
		verifier: webhook.Verifier{Key: cfg.Key, Tolerance: cfg.Tolerance, Now: cfg.Now},
		log:      cfg.Logger,
		ring:     newRing(cfg.RingSize),
		nextSeq:  1,
		replay:   newReplayGuard(),
		subs:     map[*subscriber]struct{}{},
		done:     make(chan struct{}),
	}
	if cfg.Shared != nil {
		if cfg.Dir != "" {
			return nil, errors.New("webhook receiver: events are kept either in a folder or in the shared store, not both")
		}
		r.startShared()
		return r, nil
	}
	if cfg.Dir != "" {
		j, err := openJournal(cfg.Dir, cfg)
		if err != nil {
			return nil, fmt.Errorf("webhook receiver: %w", err)
		}
		now := cfg.Now()
		// Older segments are read only while the ring is not full or their
		// events may still be in the duplicate guard's window (received
		// or published within a tolerance of now, and published up to a
		// tolerance after being received).
		enough := func(lines int, olderThan time.Time) bool {
			return lines >= cfg.RingSize && olderThan.Before(now.Add(-2*cfg.Tolerance))
		}
		if err := j.load(enough, r.reload); err != nil {
			j.f.Close()
			return nil, fmt.Errorf("webhook receiver: %w", err)
		}
		r.journal = j
	}
	r.assigned = r.nextSeq
	id, err := receiverID(cfg.Dir, r.nextSeq == 1)
	if err != nil {
		if r.journal != nil {
			r.journal.close()
		}
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	r.id = id
	if r.journal != nil {
		r.wake = make(chan struct{}, 1)
		r.writerDone = make(chan struct{})
		go r.commitLoop()
	}
	return r, nil
}

// reload takes back one stored event at start-up: into the ring, the
// sequence, and the duplicate guard while it is in the window. Its
// summary is made anew, so that stored events read like new ones.
func (r *Receiver) reload(file string, n int, line []byte) {
	e, ev, ok := storedEntry(line, 0)
	if !ok {
		r.log.Warn("webhook receiver: skipping an unreadable stored event", "file", file, "line", n)
		return
	}
	r.ring.push(e)
	r.nextSeq = max(r.nextSeq, ev.Seq+1)
	now := r.cfg.Now()
	if until := guardUntil(ev.ReceivedAt, ev.PublishedAt, r.cfg.Tolerance); now.Before(until) {
		r.replay.add(dupKey(ev.Headers[webhook.HeaderCallRef], ev.Headers[webhook.HeaderSignatureV2], ev.Headers[webhook.HeaderPublishedTimestamp], []byte(ev.Body)), &seenEvent{until: until, seq: ev.Seq}, now)
	}
}

// storedEntry makes a stored event ready to serve again: numbered seq
// (when not 0, else as stored), with its summary made anew, so that stored
// events read like new ones. It returns the event too, and false for one
// that cannot be read.
func storedEntry(data []byte, seq uint64) (*entry, *webhook.Event, bool) {
	var ev webhook.Event
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, nil, false
	}
	if seq != 0 {
		ev.Seq = seq
	}
	if ev.Seq == 0 || ev.Type == "" {
		return nil, nil, false
	}
	ev.Summary = webhook.Summarize(ev.Type, []byte(ev.Body), ev.PublishedAt)
	out, err := json.Marshal(ev)
	if err != nil {
		return nil, nil, false
	}
	return &entry{seq: ev.Seq, typ: ev.Type, json: out}, &ev, true
}

// Mount adds the receiver's endpoints to mux: POST /webhooks/…,
// GET /events and GET /events/stream.
func (r *Receiver) Mount(mux *http.ServeMux) {
	mux.HandleFunc("POST /webhooks/", r.serveWebhook)
	mux.HandleFunc("GET /events", r.serveList)
	mux.HandleFunc("GET /events/stream", r.serveStream)
}

// Handler returns the receiver's endpoints on a ServeMux of their own.
func (r *Receiver) Handler() http.Handler {
	mux := http.NewServeMux()
	r.Mount(mux)
	return mux
}

// CloseStreams ends every event stream, now and for streams opened
// later, while events are still accepted. Register it with
// http.Server.RegisterOnShutdown: Shutdown does not end a running stream
// by itself and would wait for it until its context expires.
func (r *Receiver) CloseStreams() {
	r.closeOnce.Do(func() { close(r.done) })
}

// Close ends the streams, refuses further events with 503, writes the
// events already queued and closes the events file, flushing it to disk.
// Call it after http.Server.Shutdown has returned.
func (r *Receiver) Close() error {
	r.CloseStreams()
	r.qmu.Lock()
	already := r.closing
	r.closing = true
	r.qmu.Unlock()
	if already {
		<-r.closedDone()
		return nil
	}
	var err error
	if r.writerDone != nil {
		// The writer stores what is queued and stops.
		r.signal()
		<-r.writerDone
	}
	if r.journal != nil {
		err = r.journal.close()
	}
	if r.stopFollow != nil {
		r.stopFollow()
		<-r.followDone
	}
	return err
}

// closedDone is closed once the commit goroutine, if any, has ended.
func (r *Receiver) closedDone() <-chan struct{} {
	if r.writerDone == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return r.writerDone
}

// outcome is the answer to one event.
type outcome struct {
	status    int
	seq       uint64
	duplicate bool
	err       error
}

var errClosing = errors.New("the receiver is shutting down; send the event again later")

// accept records a verified event: a copy of an event already accepted
// is answered as a duplicate and not stored again; a new one is numbered,
// stored (on disk before accept returns, with a directory), kept in the
// ring and sent to the streams.
func (r *Receiver) accept(ctx context.Context, ev *webhook.Event, key string) outcome {
	r.qmu.Lock()
	now := r.cfg.Now()
	if r.closing {
		r.qmu.Unlock()
		return outcome{status: http.StatusServiceUnavailable, err: errClosing}
	}
	if seen := r.replay.lookup(key, now); seen != nil {
		// A sender that keeps retrying keeps its event remembered.
		seen.until = maxTime(seen.until, guardUntil(now, ev.PublishedAt, r.cfg.Tolerance))
		c := seen.pending
		r.qmu.Unlock()
		if c == nil {
			return outcome{status: http.StatusOK, seq: seen.seq, duplicate: true}
		}
		if r.cfg.copyWaitsHook != nil {
			r.cfg.copyWaitsHook()
		}
		o := r.wait(ctx, c)
		if o.err == nil {
			o.status, o.duplicate = http.StatusOK, true
		}
		return o
	}
	ev.Seq = r.assigned
	data, err := json.Marshal(ev)
	if err != nil {
		r.qmu.Unlock()
		return outcome{status: http.StatusInternalServerError, err: fmt.Errorf("encoding the event: %w", err)}
	}
	r.assigned++
	seen := &seenEvent{until: guardUntil(now, ev.PublishedAt, r.cfg.Tolerance), seq: ev.Seq}
	e := &entry{seq: ev.Seq, typ: ev.Type, json: data}
	if r.journal == nil {
		// Nothing to wait for: publish under the admission lock, which
		// keeps the ring in the order of the numbers.
		r.replay.add(key, seen, now)
		r.publish(e)
		r.qmu.Unlock()
		return outcome{status: http.StatusNoContent, seq: e.seq}
	}
	c := &commit{key: key, entry: e, done: make(chan struct{})}
	seen.pending = c
	r.replay.add(key, seen, now)
	r.queue = append(r.queue, c)
	r.qmu.Unlock()
	r.signal()
	if r.cfg.queuedHook != nil {
		r.cfg.queuedHook()
	}
	return r.wait(ctx, c)
}

// publish makes stored events visible: the ring, the newest sequence
// number and the streams.
func (r *Receiver) publish(es ...*entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range es {
		r.ring.push(e)
		r.nextSeq = max(r.nextSeq, e.seq+1)
		r.broadcast(e)
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// refusal is the body of every non-2xx answer.
type refusal struct {
	Status   int               `json:"status"`
	Error    string            `json:"error"`
	Verdicts []webhook.Verdict `json:"verdicts,omitempty"`
}

func (r *Receiver) refuse(w http.ResponseWriter, req *http.Request, status int, msg string, verdicts []webhook.Verdict) {
	r.log.Info("webhook receiver: event refused", "path", req.URL.Path, "remote", req.RemoteAddr, "status", status, "reason", msg)
	r.observe("refused", refusalReason(status))
	writeJSON(w, status, refusal{Status: status, Error: msg, Verdicts: verdicts})
}

// Streams is the number of event streams open now.
func (r *Receiver) Streams() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.subs)
}
