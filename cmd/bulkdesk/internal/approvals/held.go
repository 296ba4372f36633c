package approvals

import (
	"context"
	"sync"
	"time"
)

// held is what a rule keeps in memory: the records it could not write
// yet, and the context its writers stop with. The zero value is ready.
type held struct {
	mu      sync.Mutex
	records map[string]Record
	ctx     context.Context
	cancel  context.CancelFunc
}

func (h *held) put(rec Record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.records == nil {
		h.records = make(map[string]Record)
	}
	h.records[rec.BulkID] = rec
}

func (h *held) get(key string) (Record, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, ok := h.records[key]
	return rec, ok
}

// take removes and returns the record of key.
func (h *held) take(key string) (Record, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, ok := h.records[key]
	delete(h.records, key)
	return rec, ok
}

// executed notes the first execution of a held record.
func (h *held) executed(key, user string, at time.Time) {
	h.change(key, func(rec *Record) {
		if rec.ExecutedBy == "" {
			at := at.UTC()
			rec.ExecutedBy, rec.ExecutedAt = user, &at
		}
	})
}

// cancelled notes the first cancellation of a held record.
func (h *held) cancelled(key, user string, at time.Time) {
	h.change(key, func(rec *Record) {
		if rec.CancelledBy == "" {
			at := at.UTC()
			rec.CancelledBy, rec.CancelledAt = user, &at
		}
	})
}

func (h *held) change(key string, f func(*Record)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if rec, ok := h.records[key]; ok {
		f(&rec)
		h.records[key] = rec
	}
}

// context is done once stop is called.
func (h *held) context() context.Context {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ctx == nil {
		h.ctx, h.cancel = context.WithCancel(context.Background())
	}
	return h.ctx
}

func (h *held) stop() {
	h.context()
	h.cancel()
}
