package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

func notFound(w http.ResponseWriter, id string) {
	writeJSON(w, http.StatusNotFound, map[string]string{"code": "NOT_FOUND", "message": "no bulk process " + id + " for this identity"})
}

func (s *Sandbox) getBulk(w http.ResponseWriter, r *http.Request, p principal) {
	id := r.PathValue("bulk_id")
	s.mu.Lock()
	b := s.store.find(p.identity, id)
	var v bulkapi.BulkProcess
	if b != nil {
		v = b.view(true)
	}
	s.mu.Unlock()
	if b == nil {
		notFound(w, id)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// paging reads offset and limit; a bad value is answered with a 400.
func paging(w http.ResponseWriter, r *http.Request) (offset, limit int, ok bool) {
	offset, limit = 0, bulkapi.MaxPageSize
	q := r.URL.Query()
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			badRequest(w, "offset must be a whole number, 0 or more", bulkapi.InvalidField{FieldName: "offset", Error: "RANGE", Params: []string{"0"}})
			return 0, 0, false
		}
		offset = n
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > bulkapi.MaxPageSize {
			badRequest(w, "limit must be between 1 and 100", bulkapi.InvalidField{FieldName: "limit", Error: "RANGE", Params: []string{"1", "100"}})
			return 0, 0, false
		}
		limit = n
	}
	return offset, limit, true
}

// page cuts items[offset:offset+limit].
func page[T any](items []T, offset, limit int) []T {
	if offset >= len(items) {
		return []T{}
	}
	return items[offset:min(offset+limit, len(items))]
}

func (s *Sandbox) listBulks(w http.ResponseWriter, r *http.Request, p principal) {
	offset, limit, ok := paging(w, r)
	if !ok {
		return
	}
	status := bulkapi.Status(r.URL.Query().Get("status"))
	if status != "" && !status.Valid() {
		badRequest(w, "unknown status "+strconv.Quote(string(status)), bulkapi.InvalidField{FieldName: "status", Error: "IN"})
		return
	}
	s.mu.Lock()
	var all []bulkapi.BulkProcess
	for _, b := range slices.Backward(s.store.order) { // newest first
		if b.owner == p.identity && (status == "" || b.status == status) {
			all = append(all, b.view(false))
		}
	}
	s.mu.Unlock()
	got := page(all, offset, limit)
	writeJSON(w, http.StatusOK, bulkapi.BulkPage{Count: len(all), ResponseCount: len(got), Bulks: got})
}

func (s *Sandbox) listOperations(w http.ResponseWriter, r *http.Request, p principal) {
	id := r.PathValue("bulk_id")
	offset, limit, ok := paging(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	status := bulkapi.OperationStatus(q.Get("status"))
	if status != "" && !status.Valid() {
		badRequest(w, "unknown operation status "+strconv.Quote(string(status)), bulkapi.InvalidField{FieldName: "status", Error: "IN"})
		return
	}
	seq := -1
	if v := q.Get("sequence"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			badRequest(w, "sequence must be a whole number, 0 or more", bulkapi.InvalidField{FieldName: "sequence", Error: "RANGE", Params: []string{"0"}})
			return
		}
		seq = n
	}
	s.mu.Lock()
	b := s.store.find(p.identity, id)
	var all []bulkapi.Operation
	if b != nil {
		for i := range b.ops {
			if (status == "" || b.ops[i].status == status) && (seq < 0 || seq == i) {
				all = append(all, b.opView(i))
			}
		}
	}
	s.mu.Unlock()
	if b == nil {
		notFound(w, id)
		return
	}
	got := page(all, offset, limit)
	writeJSON(w, http.StatusOK, bulkapi.OperationPage{Count: len(all), ResponseCount: len(got), Operations: got})
}

// act serves execute, pause, resume and cancel.
func (s *Sandbox) act(w http.ResponseWriter, r *http.Request, p principal) {
	id := r.PathValue("bulk_id")
	a := bulkapi.Action(r.PathValue("action"))
	if !slices.Contains(bulkapi.Actions(), a) {
		writeJSON(w, http.StatusNotFound, message("no such action: "+string(a)))
		return
	}
	var opts bulkapi.ExecuteOptions
	if a == bulkapi.Execute {
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<16))
		if err != nil {
			badRequest(w, "reading the request body: "+err.Error())
			return
		}
		if len(data) > 0 {
			if err := json.Unmarshal(data, &opts); err != nil {
				badRequest(w, "the body must be {\"mode\": …, \"webhookInterval\": …}: "+err.Error())
				return
			}
		}
		if opts.Mode == "" {
			opts.Mode = bulkapi.OnFailureContinue
		}
		if !opts.Mode.Valid() {
			badRequest(w, "unknown mode "+strconv.Quote(string(opts.Mode)), bulkapi.InvalidField{FieldName: "mode", Error: "IN", Params: []string{string(bulkapi.OnFailureStop), string(bulkapi.OnFailureContinue)}})
			return
		}
		if opts.WebhookInterval < 0 {
			badRequest(w, "webhookInterval must be 0 or more", bulkapi.InvalidField{FieldName: "webhookInterval", Error: "RANGE", Params: []string{"0"}})
			return
		}
	}
	s.mu.Lock()
	b := s.store.find(p.identity, id)
	if b == nil {
		s.mu.Unlock()
		notFound(w, id)
		return
	}
	if !b.status.Allows(a) {
		status := b.status
		s.mu.Unlock()
		conflict(w, "INVALID_STATE", "bulk process "+id+" is "+string(status)+": it cannot "+string(a))
		return
	}
	switch a {
	case bulkapi.Execute:
		b.mode, b.webhookInterval = opts.Mode, opts.WebhookInterval
		b.started = s.cfg.Now().UnixMilli()
		s.start(b)
	case bulkapi.Resume:
		s.start(b)
	case bulkapi.Pause:
		b.stopRunner()
		b.status = bulkapi.Paused
	case bulkapi.Cancel:
		b.stopRunner()
		for i := b.next; i < len(b.ops); i++ {
			b.ops[i].status = bulkapi.OpCancelled
		}
		b.next = len(b.ops)
		b.status = bulkapi.Cancelled
		b.finished = s.cfg.Now().UnixMilli()
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
