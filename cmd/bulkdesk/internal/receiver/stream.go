package receiver

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// subscriberBuffer is how many events a stream may fall behind before it
// is disconnected; the client then reconnects with Last-Event-ID and
// catches up from the ring.
const subscriberBuffer = 4096

// writeTimeout bounds each write to a stream, so that a client that stops
// reading is let go.
const writeTimeout = 30 * time.Second

// streamRetryAfter is the Retry-After, in seconds, of a stream refused
// because too many are open.
const streamRetryAfter = 5

// subscriber is one open event stream.
type subscriber struct {
	ch   chan *entry
	keep func(*entry) bool
}

// broadcast hands e to every stream that wants it, without ever waiting:
// a stream whose buffer is full is closed. Called with r.mu held.
func (r *Receiver) broadcast(e *entry) {
	for s := range r.subs {
		if !s.keep(e) {
			continue
		}
		select {
		case s.ch <- e:
		default:
			close(s.ch)
			delete(r.subs, s)
		}
	}
}

// endStreams ends every open stream; their clients reconnect.
func (r *Receiver) endStreams() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for s := range r.subs {
		delete(r.subs, s)
		close(s.ch)
	}
}

func (r *Receiver) unsubscribe(s *subscriber) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.subs[s]; ok {
		delete(r.subs, s)
		close(s.ch)
	}
}

// serveStream handles GET /events/stream as Server-Sent Events.
func (r *Receiver) serveStream(w http.ResponseWriter, req *http.Request) {
	if r.notReady(w) {
		return
	}
	q := req.URL.Query()
	keep, _, err := typeFilter(q)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, refusal{Status: http.StatusBadRequest, Error: err.Error()})
		return
	}
	// Last-Event-ID comes from a reconnecting EventSource; after= from a
	// page that has just listed the events it holds.
	from := req.Header.Get("Last-Event-ID")
	if from == "" {
		from = q.Get("after")
	}
	var after uint64
	resume := from != ""
	if resume {
		if after, err = strconv.ParseUint(from, 10, 64); err != nil {
			writeJSON(w, http.StatusBadRequest, refusal{Status: http.StatusBadRequest, Error: fmt.Sprintf("event id %q is not a sequence number", from)})
			return
		}
	}

	// Each stream holds a goroutine, a connection and a buffer of up to
	// subscriberBuffer events: their number is bounded.
	defer r.streams.Add(-1)
	if n := r.streams.Add(1); n > int64(r.cfg.MaxStreams) {
		w.Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		writeJSON(w, http.StatusServiceUnavailable, refusal{Status: http.StatusServiceUnavailable,
			Error: fmt.Sprintf("%d event streams are open, the most this receiver serves; try again later", r.cfg.MaxStreams)})
		return
	}

	s := &subscriber{ch: make(chan *entry, subscriberBuffer), keep: keep}
	r.mu.Lock()
	// Checked again under the lock: a store lost since the first check
	// has ended the streams (endStreams) without this one.
	if !r.Ready() {
		r.mu.Unlock()
		unavailable(w, storeUnreachable)
		return
	}
	var backlog []*entry
	var oldest uint64
	if resume {
		backlog, oldest = r.ring.after(after)
	}
	newest, id := r.nextSeq-1, r.id
	r.subs[s] = struct{}{}
	r.mu.Unlock()
	defer r.unsubscribe(s)

	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	var buf bytes.Buffer
	buf.WriteString("retry: 2000\n\n")
	// The hello names the receiver, so that a console resuming after a
	// restart learns whether the events it holds are still this
	// receiver's (see receiverID).
	fmt.Fprintf(&buf, "event: hello\ndata: {\"receiver\":%q,\"newest\":%d}\n\n", id, newest)
	if resume && oldest > after+1 {
		fmt.Fprintf(&buf, "event: gap\ndata: {\"after\":%d,\"oldest\":%d}\n\n", after, oldest)
	}
	for _, e := range backlog {
		if keep(e) {
			writeEvent(&buf, e)
		}
	}
	send := func() bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		_, err := w.Write(buf.Bytes())
		buf.Reset()
		return err == nil && rc.Flush() == nil
	}
	if !send() {
		return
	}

	tick := time.NewTicker(r.cfg.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-req.Context().Done():
			return
		case <-r.done:
			return
		case <-tick.C:
			buf.WriteString(": keep-alive\n\n")
		case e, ok := <-s.ch:
			if !ok {
				return // fell behind: the client reconnects and catches up
			}
			writeEvent(&buf, e)
			// Send what else is waiting in one write.
			for more := true; more && buf.Len() < 1<<20; {
				select {
				case e, ok := <-s.ch:
					if !ok {
						more = false
						break
					}
					writeEvent(&buf, e)
				default:
					more = false
				}
			}
		}
		if !send() {
			return
		}
	}
}

// writeEvent writes one event in the text/event-stream format. The JSON
// encoding has no newlines, so it fits one data line.
func writeEvent(buf *bytes.Buffer, e *entry) {
	fmt.Fprintf(buf, "id: %d\ndata: ", e.seq)
	buf.Write(e.json)
	buf.WriteString("\n\n")
}
