package receiver

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// Page sizes of GET /events.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// nextHeader carries the cursor of the next (older) page of GET /events:
// the value to pass as before=, absent on the last page. Link carries the
// same as a URL.
const nextHeader = "Bulkdesk-Next-Before"

// serveList handles GET /events?limit=N&before=SEQ&type=PATH.
func (r *Receiver) serveList(w http.ResponseWriter, req *http.Request) {
	if r.notReady(w) {
		return
	}
	q := req.URL.Query()
	bad := func(msg string) {
		writeJSON(w, http.StatusBadRequest, refusal{Status: http.StatusBadRequest, Error: msg})
	}
	keep, types, err := typeFilter(q)
	if err != nil {
		bad(err.Error())
		return
	}
	limit := DefaultListLimit
	if s := q.Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit <= 0 {
			bad(fmt.Sprintf("limit %q is not a positive whole number", s))
			return
		}
		if limit > MaxListLimit {
			bad(fmt.Sprintf("limit %d is more than the %d events a page may hold; follow the next page's cursor (before=) for more", limit, MaxListLimit))
			return
		}
	}
	var before uint64
	if s := q.Get("before"); s != "" {
		if before, err = strconv.ParseUint(s, 10, 64); err != nil || before == 0 {
			bad(fmt.Sprintf("before %q is not a sequence number", s))
			return
		}
	}
	// Only the page's entries are taken under the lock, as pointers: the
	// entries never change, so their JSON is written out from the ring's
	// own bytes without copying it.
	r.mu.Lock()
	entries, more := r.ring.page(before, limit, keep)
	id := r.id
	full, oldest := r.ring.n == len(r.ring.buf), uint64(0)
	if r.ring.n > 0 {
		oldest = r.ring.at(0).seq
	}
	r.mu.Unlock()
	if full && !more && (r.cfg.Shared != nil || r.journal != nil) {
		// The store keeps what the ring has let go, for as long as the
		// retention: the page goes on there. A page the ring fills to its
		// last entry still asks the store for one event, the one that
		// says whether a next page exists.
		cursor := oldest
		if before > 0 && before < oldest {
			cursor = before
		}
		room := limit - len(entries)
		older, err := r.olderThan(req.Context(), cursor, keep, types, room+1)
		if err != nil {
			r.log.Warn("webhook receiver: reading older events", "err", err)
			unavailable(w, "the older events could not be read; try again shortly")
			return
		}
		if more = len(older) > room; more {
			older = older[:room]
		}
		entries = append(entries, older...)
	}

	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set(idHeader, id)
	if more && len(entries) > 0 {
		next := entries[len(entries)-1].seq
		h.Set(nextHeader, strconv.FormatUint(next, 10))
		nq := url.Values{"limit": {strconv.Itoa(limit)}, "before": {strconv.FormatUint(next, 10)}, "type": q["type"]}
		h.Set("Link", fmt.Sprintf("<%s?%s>; rel=\"next\"", req.URL.Path, nq.Encode()))
	}
	w.Write([]byte{'['})
	for i, e := range entries {
		if i > 0 {
			w.Write([]byte{','})
		}
		if _, err := w.Write(e.json); err != nil {
			return // the client went
		}
	}
	w.Write([]byte("]\n"))
}

// olderThan returns up to n stored events numbered below before, of the
// given types (keep says the same), newest first: from the shared store,
// or from the events files.
func (r *Receiver) olderThan(ctx context.Context, before uint64, keep func(*entry) bool, types []string, n int) ([]*entry, error) {
	if r.cfg.Shared == nil {
		return r.journal.older(before, keep, n)
	}
	stored, err := r.cfg.Shared.Older(ctx, before, types, n)
	if err != nil {
		return nil, err
	}
	out := make([]*entry, 0, len(stored))
	for _, se := range stored {
		if e, ok := r.sharedEntry(se); ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// typeFilter reads the repeatable type parameter: the events to keep, or
// all when there is none, and the event paths it names.
func typeFilter(q url.Values) (func(*entry) bool, []string, error) {
	want := map[string]bool{}
	var paths []string
	for _, p := range q["type"] {
		t, ok := webhook.LookupType(p)
		if !ok {
			return nil, nil, fmt.Errorf("type %q is not an event path of the webhook reference", p)
		}
		if !want[t.Path] {
			want[t.Path] = true
			paths = append(paths, t.Path)
		}
	}
	if len(want) == 0 {
		return func(*entry) bool { return true }, nil, nil
	}
	return func(e *entry) bool { return want[e.typ] }, paths, nil
}
