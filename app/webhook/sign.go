package webhook

import (
	"net/http"
	"strconv"
	"time"
)

// The request headers of a webhook event, lower-case as the reference
// spells them. [net/http] looks them up case-insensitively.
const (
	HeaderCallRef            = "call-ref"
	HeaderPublishedTimestamp = "published-timestamp"
	HeaderSignature          = "signature" // deprecated: signs the timestamp alone
	HeaderSignatureV2        = "signature-v2"
	HeaderRequestRef         = "request-ref"
)

// MaxCallRef is the longest call-ref the API allows, in characters.
const MaxCallRef = 255

// Message returns the exact bytes that signature-v2 signs: callRef, then
// body, then timestamp, with nothing between them. An absent call-ref is
// passed as "".
func Message(callRef string, body []byte, timestamp string) []byte {
	m := make([]byte, 0, len(callRef)+len(body)+len(timestamp))
	m = append(m, callRef...)
	m = append(m, body...)
	return append(m, timestamp...)
}

// SignatureV2 returns the signature-v2 header value for an event.
func SignatureV2(key Key, callRef string, body []byte, timestamp string) string {
	return key.Sum(Message(callRef, body, timestamp))
}

// Signature returns the deprecated signature header value: the HMAC of the
// timestamp alone.
func Signature(key Key, timestamp string) string {
	return key.Sum([]byte(timestamp))
}

// FormatTimestamp returns t as the published-timestamp header writes it:
// milliseconds since the Unix epoch, in decimal.
func FormatTimestamp(t time.Time) string {
	return strconv.FormatInt(t.UnixMilli(), 10)
}

// Sign returns the headers that sign body as an event published at
// publishedAt: published-timestamp, signature-v2, the deprecated signature
// and, when callRef is not empty, call-ref. The caller adds Content-Type
// and anything else it sends.
func Sign(key Key, callRef string, body []byte, publishedAt time.Time) http.Header {
	ts := FormatTimestamp(publishedAt)
	h := make(http.Header, 4)
	if callRef != "" {
		h.Set(HeaderCallRef, callRef)
	}
	h.Set(HeaderPublishedTimestamp, ts)
	h.Set(HeaderSignature, Signature(key, ts))
	h.Set(HeaderSignatureV2, SignatureV2(key, callRef, body, ts))
	return h
}
