package webhook

import (
	"encoding/json"
	"net/http"
	"time"
)

// Event is one accepted webhook event, as the receiver keeps, stores and
// serves it. It holds everything needed to check its signature again with
// the key: the signing headers as received and the exact body.
type Event struct {
	// Seq numbers events in the order the receiver accepted them, from 1,
	// and keeps counting across restarts when events are stored on disk.
	Seq uint64 `json:"seq"`
	// Type is the event path, such as "/bulk_process_end/watch".
	Type        string    `json:"type"`
	ReceivedAt  time.Time `json:"receivedAt"`
	PublishedAt time.Time `json:"publishedAt"`
	// Headers are the event's signing and correlation headers as received
	// (call-ref, published-timestamp, signature, signature-v2,
	// request-ref), by their lower-case names; absent ones are left out.
	Headers map[string]string `json:"headers"`
	// DeprecatedSignature is the verdict on the deprecated signature
	// header, which an accepted event may lack or get wrong.
	DeprecatedSignature Status `json:"deprecatedSignature"`
	// Body is the request body exactly as received (valid UTF-8 JSON).
	Body       string `json:"body"`
	BodySHA256 string `json:"bodySHA256"`
	// Summary holds the fields an operator scans a list of events for.
	Summary Summary `json:"summary"`
}

// signingHeaders are the headers an Event keeps.
var signingHeaders = []string{HeaderCallRef, HeaderPublishedTimestamp, HeaderSignature, HeaderSignatureV2, HeaderRequestRef}

// NewEvent builds the record of an event the verifier accepted. It keeps
// only the signing and correlation headers of h.
func NewEvent(eventType string, h http.Header, body []byte, r *Result, receivedAt time.Time) Event {
	kept := make(map[string]string, len(signingHeaders))
	for _, name := range signingHeaders {
		if vals := h.Values(name); len(vals) > 0 {
			kept[name] = vals[0]
		}
	}
	return Event{
		Type:                CanonicalPath(eventType),
		ReceivedAt:          receivedAt.UTC(),
		PublishedAt:         r.PublishedAt,
		Headers:             kept,
		DeprecatedSignature: r.Signature.Status,
		Body:                string(body),
		BodySHA256:          r.Signed.BodySHA256,
		Summary:             Summarize(eventType, body, r.PublishedAt),
	}
}

// Header returns the event's kept headers as an http.Header, ready for
// [Verifier.Verify] together with []byte(e.Body).
func (e *Event) Header() http.Header {
	h := make(http.Header, len(e.Headers))
	for name, v := range e.Headers {
		h.Set(name, v)
	}
	return h
}

// Payload returns the body as JSON, for decoding.
func (e *Event) Payload() json.RawMessage { return json.RawMessage(e.Body) }
