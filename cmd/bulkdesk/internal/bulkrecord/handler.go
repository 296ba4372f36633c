package bulkrecord

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/recordhttp"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Limits of one request: the API gets callTimeout per call and the whole
// check checkTimeout; a line must be taken by the browser within
// lineTimeout. At most concurrent checks run at once, each fetching a few
// bulks at a time, so that many consoles do not flood the API.
const (
	callTimeout  = 2 * time.Minute
	checkTimeout = 15 * time.Minute
	lineTimeout  = time.Minute
	concurrent   = 4
)

// Config says where the APIs are and where the record is kept.
type Config struct {
	// APIURL and BackOfficeURL are the APIs' base URLs, as the proxy's;
	// an empty BackOfficeURL leaves record/backoffice unserved.
	APIURL, BackOfficeURL string
	// APIKey and BackOfficeAPIKey, when set, are the server's api-keys of
	// each API, used in place of the caller's (as the proxy does); empty
	// reads the caller's api-key header.
	APIKey, BackOfficeAPIKey string
	// Transport calls the API; nil means http.DefaultTransport.
	Transport http.RoundTripper
	// Cache keeps the record between requests.
	Cache submission.RecordCache
	// Scope, when set, names the APIs in the cache, as Scope/api and
	// Scope/backoffice, instead of their base URLs: the sandbox inside the
	// server has another URL at each start (its bulk ids never repeat).
	Scope string
}

// scope is the name of api's bulks in the cache.
func (h *handler) scope(cl *bulkapi.Client, api string) string {
	if h.cfg.Scope != "" {
		return h.cfg.Scope + "/" + api
	}
	return cl.BaseURL()
}

// Handler answers POST record/{api} (api being wire.RecordStandard or
// wire.RecordBackOffice) with JSON lines (recordhttp.Line).
func Handler(cfg Config) http.Handler {
	return &handler{cfg: cfg, slots: make(chan struct{}, concurrent)}
}

type handler struct {
	cfg   Config
	slots chan struct{}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	out := &lines{w: w, rc: http.NewResponseController(w)}
	cl, status, why := h.client(r)
	if cl == nil {
		out.fail(status, why)
		return
	}
	var req recordhttp.Request
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, recordhttp.MaxRequest)).Decode(&req); err != nil {
		out.fail(http.StatusBadRequest, "reading the request: "+err.Error())
		return
	}
	var kind *schema.Kind
	if req.Kind != "" {
		k, err := schema.Lookup(req.Kind)
		if err != nil {
			out.fail(http.StatusBadRequest, err.Error())
			return
		}
		kind = k
	}
	ctx, cancel := context.WithTimeout(r.Context(), checkTimeout)
	defer cancel()
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-ctx.Done():
		return
	}
	rec, err := submission.UpdateRecord(ctx, cl, h.cfg.Cache, h.scope(cl, r.PathValue("api")), time.Now(), kind, func(done, total int) {
		out.write(recordhttp.Line{Progress: &recordhttp.Progress{Done: done, Total: total}})
	})
	if err != nil {
		status := http.StatusBadGateway
		var apiErr *bulkapi.Error
		if errors.As(err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500 {
			status = apiErr.Status // the caller's credentials or rate, as the API said
		}
		out.fail(status, err.Error())
		return
	}
	held := recordhttp.LeaveOutHeld(rec, req.Held)
	out.write(recordhttp.Line{Record: rec, Held: held})
}

// client is the API client of the caller: the server's api-key of the
// API the path names (else the caller's) and the caller's bearer token;
// nil with a status and a reason when the request cannot be served.
func (h *handler) client(r *http.Request) (*bulkapi.Client, int, string) {
	api := r.PathValue("api")
	switch {
	case api == wire.RecordBackOffice && h.cfg.BackOfficeURL != "":
	case api == wire.RecordStandard:
	default:
		return nil, http.StatusNotFound, "this server keeps no record of bulks for " + api
	}
	key := h.cfg.APIKey
	if api == wire.RecordBackOffice {
		key = h.cfg.BackOfficeAPIKey
	}
	if key == "" {
		key = strings.TrimSpace(r.Header.Get(bulkapi.HeaderAPIKey))
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	token = strings.TrimSpace(token)
	if key == "" || token == "" {
		return nil, http.StatusUnauthorized, "the record of bulks is read with the API's api-key and the caller's bearer token, and they are missing"
	}
	cl, err := bulkapi.New(bulkapi.Config{BaseURL: h.cfg.APIURL, BackOfficeURL: h.cfg.BackOfficeURL, APIKey: key, Token: token, Transport: h.cfg.Transport, Timeout: callTimeout})
	if err == nil && api == wire.RecordBackOffice {
		cl, err = cl.BackOffice()
	}
	if err != nil {
		return nil, http.StatusInternalServerError, err.Error()
	}
	return cl, 0, ""
}

// lines writes the answer's JSON lines, each flushed at once; progress
// comes from several fetching goroutines.
type lines struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	mu      sync.Mutex
	started bool
}

func (l *lines) write(line recordhttp.Line) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		l.w.Header().Set("Content-Type", "application/x-ndjson")
		l.w.Header().Set("Cache-Control", "no-store")
		l.w.WriteHeader(http.StatusOK)
	}
	// A long check outlives the server's write timeout: each line gets
	// its own.
	_ = l.rc.SetWriteDeadline(time.Now().Add(lineTimeout))
	if err := json.NewEncoder(l.w).Encode(line); err != nil {
		return // the browser went away; the check's context ends too
	}
	_ = l.rc.Flush()
}

// fail answers with status when nothing was written yet, else ends the
// answer with an error line.
func (l *lines) fail(status int, why string) {
	l.mu.Lock()
	if !l.started {
		l.started = true
		l.w.Header().Set("Content-Type", "application/json")
		l.w.Header().Set("Cache-Control", "no-store")
		l.w.WriteHeader(status)
		_ = json.NewEncoder(l.w).Encode(recordhttp.Line{Error: why})
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	l.write(recordhttp.Line{Error: why})
}
