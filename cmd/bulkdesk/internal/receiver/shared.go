package receiver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// Shared keeps accepted events for several servers behind one address
// (postgres.Events): an event posted to any of them is numbered and
// stored once, and each server's receiver streams it.
type Shared interface {
	// ID names the shared numbering of events, the receiver's id.
	ID() string
	// Store stores an event under its duplicate key, durably, unless an
	// event was stored under that key: it returns the number the event
	// has, and whether it is a copy of one stored before.
	Store(ctx context.Context, key, typ string, event []byte) (seq uint64, duplicate bool, err error)
	// Recent returns the newest n events, oldest first.
	Recent(ctx context.Context, n int) ([]SharedEvent, error)
	// Follow calls publish with every event stored after seq, in order,
	// as soon as it is stored, until ctx ends.
	Follow(ctx context.Context, after uint64, publish func(SharedEvent)) error
	// Prune removes the events stored before a time, and says how many.
	Prune(ctx context.Context, before time.Time) (int64, error)
}

// pruneEvery is how often a receiver removes the shared events older than
// the retention; every server does, which costs one statement each.
const pruneEvery = time.Hour

// A SharedEvent is a stored event: its number, its type and the event as
// the receiver encoded it.
type SharedEvent struct {
	Seq   uint64
	Type  string
	Event []byte
}

// startShared fills the ring with the newest shared events and follows
// the ones stored from then on, by this server or another.
func (r *Receiver) startShared() error {
	ctx, cancel := context.WithCancel(context.Background())
	load, stop := context.WithTimeout(ctx, 30*time.Second)
	recent, err := r.cfg.Shared.Recent(load, r.cfg.RingSize)
	stop()
	if err != nil {
		cancel()
		return fmt.Errorf("reading the stored events: %w", err)
	}
	var after uint64
	for _, ev := range recent {
		if e, ok := r.sharedEntry(ev); ok {
			r.ring.push(e)
		}
		after = ev.Seq
	}
	r.nextSeq = after + 1
	r.stopFollow = cancel
	r.followDone = make(chan struct{})
	go r.pruneShared(ctx)
	go func() {
		defer close(r.followDone)
		err := r.cfg.Shared.Follow(ctx, after, func(ev SharedEvent) {
			if e, ok := r.sharedEntry(ev); ok {
				r.publish(e)
			}
		})
		if err != nil && ctx.Err() == nil {
			r.log.Error("webhook receiver: following the shared events stopped", "err", err)
		}
	}()
	return nil
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

// sharedEntry makes a stored event ready to serve: numbered, with its
// summary made anew.
func (r *Receiver) sharedEntry(se SharedEvent) (*entry, bool) {
	var ev webhook.Event
	if err := json.Unmarshal(se.Event, &ev); err != nil {
		r.log.Warn("webhook receiver: skipping an unreadable stored event", "seq", se.Seq)
		return nil, false
	}
	ev.Seq = se.Seq
	ev.Summary = webhook.Summarize(ev.Type, []byte(ev.Body), ev.PublishedAt)
	data, err := json.Marshal(ev)
	if err != nil {
		return nil, false
	}
	return &entry{seq: se.Seq, typ: se.Type, json: data}, true
}

// acceptShared stores a verified event in the shared store: answered once
// the database has it; published by the follower, in the store's order.
func (r *Receiver) acceptShared(ctx context.Context, ev *webhook.Event, key string) outcome {
	r.qmu.Lock()
	closing := r.closing
	r.qmu.Unlock()
	if closing {
		return outcome{status: http.StatusServiceUnavailable, err: errClosing}
	}
	ev.Seq = 0
	data, err := json.Marshal(ev)
	if err != nil {
		return outcome{status: http.StatusInternalServerError, err: fmt.Errorf("encoding the event: %w", err)}
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.SyncTimeout)
	defer cancel()
	seq, dup, err := r.cfg.Shared.Store(ctx, key, ev.Type, data)
	switch {
	case err != nil:
		r.log.Error("webhook receiver: the event could not be stored", "err", err)
		return outcome{status: http.StatusServiceUnavailable, err: errNotStored}
	case dup:
		return outcome{status: http.StatusOK, seq: seq, duplicate: true}
	}
	return outcome{status: http.StatusNoContent, seq: seq}
}

var errNotStored = fmt.Errorf("the event could not be stored; send it again")
