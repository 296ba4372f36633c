package receiver

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// serveList handles GET /events?limit=N&type=PATH.
func (r *Receiver) serveList(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	keep, err := typeFilter(q)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, refusal{Status: http.StatusBadRequest, Error: err.Error()})
		return
	}
	limit := 0
	if s := q.Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit <= 0 {
			writeJSON(w, http.StatusBadRequest, refusal{Status: http.StatusBadRequest, Error: fmt.Sprintf("limit %q is not a positive whole number", s)})
			return
		}
	}
	r.mu.Lock()
	entries := r.ring.newest(limit, keep)
	r.mu.Unlock()

	size := 2
	for _, e := range entries {
		size += len(e.json) + 1
	}
	out := make([]byte, 0, size)
	out = append(out, '[')
	for i, e := range entries {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e.json...)
	}
	out = append(out, ']', '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set(idHeader, r.id)
	w.Write(out)
}

// typeFilter reads the repeatable type parameter: the events to keep, or
// all when there is none.
func typeFilter(q url.Values) (func(*entry) bool, error) {
	want := map[string]bool{}
	for _, p := range q["type"] {
		t, ok := webhook.LookupType(p)
		if !ok {
			return nil, fmt.Errorf("type %q is not an event path of the webhook reference", p)
		}
		want[t.Path] = true
	}
	if len(want) == 0 {
		return func(*entry) bool { return true }, nil
	}
	return func(e *entry) bool { return want[e.typ] }, nil
}
