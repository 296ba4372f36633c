package receiver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// serveWebhook handles POST /webhooks/<event path>.
func (r *Receiver) serveWebhook(w http.ResponseWriter, req *http.Request) {
	path := strings.TrimPrefix(req.URL.Path, "/webhooks")
	typ, ok := webhook.LookupType(path)
	if !ok || typ.Path != path {
		r.refuse(w, req, http.StatusNotFound, fmt.Sprintf("%q is not an event path of the webhook reference", path), nil)
		return
	}
	body, status, err := r.readBody(w, req)
	if err != nil {
		r.refuse(w, req, status, err.Error(), nil)
		return
	}
	res := r.verifier.Verify(req.Header, body)
	switch res.Fault() {
	case webhook.FaultMalformed:
		r.refuse(w, req, http.StatusBadRequest, res.Reason(), res.Verdicts())
		return
	case webhook.FaultUnauthentic:
		r.refuse(w, req, http.StatusUnauthorized, res.Reason(), res.Verdicts())
		return
	}
	// Only an authentic body is parsed.
	if err := checkJSONObject(body); err != nil {
		r.refuse(w, req, http.StatusBadRequest, err.Error(), nil)
		return
	}
	ev := webhook.NewEvent(typ.Path, req.Header, body, res, r.cfg.Now())
	key := dupKey(ev.Headers[webhook.HeaderCallRef], ev.Headers[webhook.HeaderSignatureV2], ev.Headers[webhook.HeaderPublishedTimestamp], body)
	var o outcome
	if r.cfg.Shared != nil {
		o = r.acceptShared(req.Context(), &ev, key)
	} else {
		o = r.accept(req.Context(), &ev, key)
	}
	switch {
	case o.err != nil:
		r.refuse(w, req, o.status, o.err.Error(), nil)
	case o.duplicate:
		// 2xx, since a sender retries anything else; the body tells a
		// sender that cares that nothing new was stored.
		r.observe("duplicate", "")
		writeJSON(w, http.StatusOK, duplicateAnswer{Status: http.StatusOK, Duplicate: true, Seq: o.seq})
	default:
		r.observe("accepted", "")
		w.WriteHeader(o.status)
	}
}

// observe tells Config.OnEvent of an event's outcome.
func (r *Receiver) observe(outcome, reason string) {
	if r.cfg.OnEvent != nil {
		r.cfg.OnEvent(outcome, reason)
	}
}

// refusalReason names why an event was refused, by its status, in one word.
func refusalReason(status int) string {
	switch status {
	case http.StatusNotFound:
		return "unknown-path"
	case http.StatusBadRequest:
		return "malformed"
	case http.StatusUnauthorized:
		return "unauthentic"
	case http.StatusRequestEntityTooLarge:
		return "too-large"
	case http.StatusServiceUnavailable:
		return "unavailable"
	}
	return fmt.Sprintf("status-%d", status)
}

// duplicateAnswer is the body of the 200 answer to a copy of an event
// already accepted: Seq is the number it was stored under.
type duplicateAnswer struct {
	Status    int    `json:"status"`
	Duplicate bool   `json:"duplicate"`
	Seq       uint64 `json:"seq"`
}

// readBody reads the request body up to the size limit.
func (r *Receiver) readBody(w http.ResponseWriter, req *http.Request) ([]byte, int, error) {
	limit := r.cfg.MaxBodyBytes
	tooLarge := fmt.Errorf("the body is larger than the %s this receiver accepts", formatBytes(limit))
	if req.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, http.StatusRequestEntityTooLarge, tooLarge
	case err != nil:
		return nil, http.StatusBadRequest, fmt.Errorf("reading the body: %w", err)
	}
	return body, 0, nil
}

// checkJSONObject accepts a body that is one JSON object in UTF-8, as
// every event payload of the reference is.
func checkJSONObject(body []byte) error {
	if !utf8.Valid(body) {
		return errors.New("the body is not JSON: it is not valid UTF-8")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) || strings.TrimSpace(string(body)) == "null" {
			return errors.New("the body is JSON but not an object; every event payload is an object")
		}
		return fmt.Errorf("the body is not JSON: %w", err)
	}
	if obj == nil {
		return errors.New("the body is JSON but not an object; every event payload is an object")
	}
	return nil
}
