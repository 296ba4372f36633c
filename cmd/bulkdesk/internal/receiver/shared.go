package receiver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/backoff"
)

// Shared keeps accepted events for several servers behind one address
// (postgres.Events): an event posted to any of them is numbered and
// stored once, and each server's receiver streams it.
type Shared interface {
	// ID names the shared numbering of events, the receiver's id.
	ID(ctx context.Context) (string, error)
	// Store stores events, durably and all or none, each under its
	// duplicate key, in the order given, except those whose key was
	// stored before (or earlier in events): it returns, in the same order,
	// the number each event has and whether it is a copy.
	Store(ctx context.Context, events []PendingEvent) ([]StoredEvent, error)
	// Recent returns the newest n events, oldest first.
	Recent(ctx context.Context, n int) ([]SharedEvent, error)
	// Older returns up to n events numbered below before, newest first,
	// of the given types (all when none): the pages of GET /events past
	// what the ring holds.
	Older(ctx context.Context, before uint64, types []string, n int) ([]SharedEvent, error)
	// Follow calls publish with every event stored after seq, in order,
	// as soon as it is stored, until ctx ends. After each read it tells
	// status whether it is in step: nil once it has every event stored
	// so far, the error when it has lost the store, which it goes on
	// trying to reach, within seconds either way.
	Follow(ctx context.Context, after uint64, publish func(SharedEvent), status func(error)) error
	// Prune removes the events stored before a time, and says how many.
	Prune(ctx context.Context, before time.Time) (int64, error)
}

// pruneEvery is how often a receiver removes the shared events older than
// the retention; every server does, which costs one statement each.
const pruneEvery = time.Hour

// A PendingEvent is an event to store: its duplicate key, its type and
// the event as the receiver encoded it.
type PendingEvent struct {
	Key, Type string
	Event     []byte
}

// A StoredEvent is where Store put an event: its number, and whether it
// is a copy of an event stored before under its key.
type StoredEvent struct {
	Seq       uint64
	Duplicate bool
}

// A SharedEvent is a stored event: its number, its type and the event as
// the receiver encoded it.
type SharedEvent struct {
	Seq   uint64
	Type  string
	Event []byte
}

// startShared joins the shared events: at once when the store answers,
// else in the background, trying again with a growing pause; until then,
// and whenever its follower loses the store, the receiver answers 503
// (notReady), which senders and consoles retry.
func (r *Receiver) startShared() {
	ctx, cancel := context.WithCancel(context.Background())
	r.stopFollow = cancel
	r.followDone = make(chan struct{})
	r.wake = make(chan struct{}, 1)
	r.writerDone = make(chan struct{})
	go r.storeLoop()
	go func() {
		defer close(r.followDone)
		after, ok := r.joinShared(ctx)
		if !ok {
			return
		}
		go r.pruneShared(ctx)
		err := r.cfg.Shared.Follow(ctx, after, func(ev SharedEvent) {
			if e, ok := r.sharedEntry(ev); ok {
				r.publish(e)
			}
		}, r.followed)
		if ctx.Err() == nil {
			r.log.Error("webhook receiver: following the shared events stopped", "err", err)
			r.followed(errFollowEnded)
		}
	}()
}

var errFollowEnded = errors.New("the follower of the shared events ended")

// followed records what the follower says of the shared store after each
// read: in step (nil) or lost. Without the store the ring misses what
// other servers store meanwhile, so the receiver stops serving it: the
// open streams end, and their consoles are answered 503 until it is back.
func (r *Receiver) followed(err error) {
	if err == nil {
		if !r.inStep.Swap(true) {
			r.log.Info("webhook receiver: following the shared events again")
		}
		return
	}
	if r.inStep.Swap(false) {
		r.log.Warn("webhook receiver: lost the shared events; answering 503 until they answer again", "err", err)
		r.endStreams()
	}
}

// joinShared fills the ring with the newest shared events and takes the
// numbering's id, once the store answers; it returns the newest number,
// and false if ctx ended first.
func (r *Receiver) joinShared(ctx context.Context) (uint64, bool) {
	var pause backoff.Pause
	for {
		load, stop := context.WithTimeout(ctx, 30*time.Second)
		id, err := r.cfg.Shared.ID(load)
		var recent []SharedEvent
		if err == nil {
			recent, err = r.cfg.Shared.Recent(load, r.cfg.RingSize)
		}
		stop()
		if err == nil {
			var after uint64
			r.mu.Lock()
			for _, ev := range recent {
				if e, ok := r.sharedEntry(ev); ok {
					r.ring.push(e)
				}
				after = ev.Seq
			}
			r.nextSeq, r.id = after+1, id
			r.mu.Unlock()
			r.inStep.Store(true)
			return after, true
		}
		if ctx.Err() != nil {
			return 0, false
		}
		r.log.Warn("webhook receiver: the shared events are not reachable yet", "err", err)
		if !pause.Wait(ctx) {
			return 0, false
		}
	}
}

// Ready says whether the receiver takes and serves events: always, but
// with a shared store only once it has joined it and while it follows it.
func (r *Receiver) Ready() bool { return r.cfg.Shared == nil || r.inStep.Load() }

// notReady says, in shared mode, whether the receiver is waiting for its
// store; it then answers w with 503 and Retry-After.
func (r *Receiver) notReady(w http.ResponseWriter) bool {
	if r.Ready() {
		return false
	}
	unavailable(w, storeUnreachable)
	return true
}

// storeUnreachable is the reason of a 503 while the shared store does
// not answer.
const storeUnreachable = "the events' shared store does not answer; try again shortly"

// unavailable answers 503 with msg and asks the client to try again in a
// few seconds.
func unavailable(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "5")
	writeJSON(w, http.StatusServiceUnavailable, refusal{Status: http.StatusServiceUnavailable, Error: msg})
}

// pruneShared removes the shared events older than the retention, at
// start and then every pruneEvery, until ctx ends.
func (r *Receiver) pruneShared(ctx context.Context) {
	for {
		n, err := r.cfg.Shared.Prune(ctx, r.cfg.Now().Add(-r.cfg.Retention))
		switch {
		case err != nil && ctx.Err() == nil:
			r.log.Warn("webhook receiver: old shared events could not be removed", "err", err)
		case n > 0:
			r.log.Info("webhook receiver: removed shared events past the retention", "events", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pruneEvery):
		}
	}
}

// sharedEntry makes a shared event ready to serve, under the number the
// store gave it.
func (r *Receiver) sharedEntry(se SharedEvent) (*entry, bool) {
	e, _, ok := storedEntry(se.Event, se.Seq)
	if !ok {
		r.log.Warn("webhook receiver: skipping an unreadable stored event", "seq", se.Seq)
	}
	return e, ok
}

// sharedCommit is one event on its way to the shared store.
type sharedCommit struct {
	event  PendingEvent
	done   chan struct{} // closed when stored and err are final
	stored StoredEvent
	err    error
}

// maxSharedBatch bounds the events stored in one transaction.
const maxSharedBatch = 512

// acceptShared stores a verified event in the shared store: answered once
// the database has it; published by the follower, in the store's order.
// Events that arrive while a batch is being stored wait for the next one,
// which stores them together: one commit, one flush of the database's log.
func (r *Receiver) acceptShared(ctx context.Context, ev *webhook.Event, key string) outcome {
	ev.Seq = 0
	data, err := json.Marshal(ev)
	if err != nil {
		return outcome{status: http.StatusInternalServerError, err: fmt.Errorf("encoding the event: %w", err)}
	}
	c := &sharedCommit{event: PendingEvent{Key: key, Type: ev.Type, Event: data}, done: make(chan struct{})}
	r.qmu.Lock()
	if r.closing {
		r.qmu.Unlock()
		return outcome{status: http.StatusServiceUnavailable, err: errClosing}
	}
	r.sharedQueue = append(r.sharedQueue, c)
	r.qmu.Unlock()
	r.signal()
	if r.cfg.queuedHook != nil {
		r.cfg.queuedHook()
	}
	if err := r.await(ctx, c.done, "stored"); err != nil {
		return outcome{status: http.StatusServiceUnavailable, err: err}
	}
	switch {
	case c.err != nil:
		return outcome{status: http.StatusServiceUnavailable, err: errNotStored}
	case c.stored.Duplicate:
		return outcome{status: http.StatusOK, seq: c.stored.Seq, duplicate: true}
	}
	return outcome{status: http.StatusNoContent, seq: c.stored.Seq}
}

var errNotStored = fmt.Errorf("the event could not be stored; send it again")

// storeLoop is the one writer of the shared store for this receiver: it
// stores every event queued since its last transaction in the next one.
// An event whose request gave up meanwhile may still be stored: its sender
// retries and the copy is answered as a duplicate.
func (r *Receiver) storeLoop() {
	defer close(r.writerDone)
	for range r.wake {
		if drain(r, &r.sharedQueue, maxSharedBatch, r.storeBatch) {
			return
		}
	}
}

// storeBatch stores a batch in one transaction and tells each waiting
// request its outcome.
func (r *Receiver) storeBatch(batch []*sharedCommit) {
	events := make([]PendingEvent, len(batch))
	for i, c := range batch {
		events[i] = c.event
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.SyncTimeout)
	stored, err := r.cfg.Shared.Store(ctx, events)
	cancel()
	if err == nil && len(stored) != len(batch) {
		err = fmt.Errorf("the store answered %d events of %d", len(stored), len(batch))
	}
	if err != nil {
		r.log.Error("webhook receiver: events could not be stored", "events", len(batch), "err", err)
	}
	for i, c := range batch {
		if err != nil {
			c.err = err
		} else {
			c.stored = stored[i]
		}
		close(c.done)
	}
}
