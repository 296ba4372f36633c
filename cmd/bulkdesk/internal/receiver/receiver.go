package receiver

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

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

	// mu orders acceptance: the replay check, the sequence number, the
	// file, the ring and the stream fan-out all happen under it.
	mu      sync.Mutex
	ring    *ring
	nextSeq uint64
	replay  *replayGuard
	journal *journal
	subs    map[*subscriber]struct{}
	closed  bool

	done      chan struct{} // closed by CloseStreams
	closeOnce sync.Once
}

// New returns a receiver for cfg. With cfg.Dir set, it reloads the events
// stored there.
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
	if cfg.Dir != "" {
		j, err := openJournal(cfg.Dir, r.reload)
		if err != nil {
			return nil, fmt.Errorf("webhook receiver: %w", err)
		}
		r.journal = j
	}
	id, err := receiverID(cfg.Dir, r.nextSeq == 1)
	if err != nil {
		if r.journal != nil {
			r.journal.close()
		}
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	r.id = id
	return r, nil
}

// reload takes back one stored event at start-up: into the ring, the
// sequence, and the replay guard while its timestamp is in the window.
// Its summary is made anew, so that stored events read like new ones.
func (r *Receiver) reload(n int, line []byte) {
	var ev webhook.Event
	if err := json.Unmarshal(line, &ev); err != nil || ev.Seq == 0 || ev.Type == "" {
		r.log.Warn("webhook receiver: skipping an unreadable stored event", "file", journalName, "line", n)
		return
	}
	ev.Summary = webhook.Summarize(ev.Type, []byte(ev.Body), ev.PublishedAt)
	data, err := json.Marshal(ev)
	if err != nil {
		r.log.Warn("webhook receiver: skipping an unreadable stored event", "file", journalName, "line", n)
		return
	}
	r.ring.push(&entry{seq: ev.Seq, typ: ev.Type, json: data})
	r.nextSeq = max(r.nextSeq, ev.Seq+1)
	now := r.cfg.Now()
	until := ev.PublishedAt.Add(r.cfg.Tolerance)
	if sig, err := base64.StdEncoding.DecodeString(ev.Headers[webhook.HeaderSignatureV2]); err == nil && now.Before(until) {
		r.replay.add(replayKey(sig, ev.Headers[webhook.HeaderPublishedTimestamp]), until, now)
	}
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

// Close ends the streams, refuses further events with 503 and closes the
// events file, flushing it to disk. Call it after http.Server.Shutdown
// has returned.
func (r *Receiver) Close() error {
	r.CloseStreams()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if r.journal != nil {
		return r.journal.close()
	}
	return nil
}

// accept records a verified event: it refuses a replay, numbers the
// event, stores it, keeps it in the ring and sends it to the streams.
func (r *Receiver) accept(ev *webhook.Event, replay string) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.cfg.Now()
	switch {
	case r.closed:
		return http.StatusServiceUnavailable, errors.New("the receiver is shutting down; send the event again later")
	case r.replay.seen(replay, now):
		return http.StatusConflict, errors.New("replay: an event with this signature-v2 and published-timestamp was already accepted")
	}
	ev.Seq = r.nextSeq
	data, err := json.Marshal(ev)
	if err != nil {
		return http.StatusInternalServerError, fmt.Errorf("encoding the event: %w", err)
	}
	if r.journal != nil {
		if err := r.journal.append(data); err != nil {
			r.log.Error("webhook receiver: storing an event failed", "err", err)
			return http.StatusServiceUnavailable, errors.New("the event could not be stored; send it again later")
		}
	}
	r.nextSeq++
	r.replay.add(replay, ev.PublishedAt.Add(r.cfg.Tolerance), now)
	e := &entry{seq: ev.Seq, typ: ev.Type, json: data}
	r.ring.push(e)
	r.broadcast(e)
	return http.StatusNoContent, nil
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
	writeJSON(w, status, refusal{Status: status, Error: msg, Verdicts: verdicts})
}
