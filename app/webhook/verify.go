package webhook

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultTolerance is how far published-timestamp may be from the
// receiver's clock, each way, unless a [Verifier] says otherwise.
const DefaultTolerance = 5 * time.Minute

// Status is the outcome of checking one header.
type Status string

// The statuses a [Verdict] can have.
const (
	StatusValid     Status = "valid"          // present and right
	StatusAbsent    Status = "absent"         // not sent
	StatusMalformed Status = "malformed"      // sent, but not in the form the header takes
	StatusMismatch  Status = "mismatch"       // a well-formed signature that does not match
	StatusOutside   Status = "outside-window" // a timestamp too far from the clock
	StatusUnchecked Status = "unchecked"      // a timestamp not compared with the clock, on request
)

// Verdict is what checking one header found.
type Verdict struct {
	Header string `json:"header"`
	Status Status `json:"status"`
	// Value is the header's value as received ("" when absent).
	Value string `json:"value,omitempty"`
	// Reason says what was found, in a sentence an integrator can act on.
	Reason string `json:"reason"`
	// Hints name the likely cause of a mismatch, when it is one of the
	// common mistakes the verifier tries (a trimmed body, a missing
	// call-ref, the headers swapped, …).
	Hints []string `json:"hints,omitempty"`
	// Fails reports whether this verdict alone makes the event rejected.
	Fails bool `json:"fails"`
	// Expected is the value a signature header should have had. It is a
	// valid signature: show it to the holder of the key, never send it back
	// to whoever presented the request. It is left out of JSON for that
	// reason.
	Expected string `json:"-"`
}

// Fault is why an event is rejected, in the classes a receiver answers
// with different HTTP statuses.
type Fault int

// The faults, from none to the first that applies.
const (
	// FaultNone: the event is authentic and fresh.
	FaultNone Fault = iota
	// FaultMalformed: a required header is missing or not in its form
	// (published-timestamp absent or not a number, call-ref too long,
	// signature-v2 not base64 of 32 bytes, a header sent twice). HTTP 400.
	FaultMalformed
	// FaultUnauthentic: signature-v2 is absent or does not match, or the
	// timestamp is outside the window. HTTP 401.
	FaultUnauthentic
)

// Signed describes the message signature-v2 covers, as the verifier
// rebuilt it from the request: what an integrator compares with what
// their code signed.
type Signed struct {
	CallRef    string `json:"callRef"`
	Timestamp  string `json:"timestamp"`
	BodyLength int    `json:"bodyLength"`
	BodySHA256 string `json:"bodySHA256"` // hex
	// Message is the exact concatenation call-ref + body + timestamp.
	Message []byte `json:"-"`
}

// Result is the outcome of verifying one event: a verdict per header and
// what signature-v2 was expected to sign.
type Result struct {
	SignatureV2 Verdict `json:"signatureV2"`
	Signature   Verdict `json:"signature"`
	CallRef     Verdict `json:"callRef"`
	Timestamp   Verdict `json:"publishedTimestamp"`
	// PublishedAt is the time published-timestamp names; zero when the
	// header is absent or malformed.
	PublishedAt time.Time `json:"publishedAt,omitzero"`
	Signed      Signed    `json:"signed"`
	fault       Fault
}

// Fault returns why the event is rejected, or FaultNone.
func (r *Result) Fault() Fault { return r.fault }

// OK reports whether the event passes the policy: signature-v2 matches,
// call-ref and published-timestamp are well formed, and the timestamp is
// inside the window (or not checked against the clock).
func (r *Result) OK() bool { return r.fault == FaultNone }

// Verdicts returns the four verdicts in the order a page shows them:
// signature-v2, the deprecated signature, call-ref, published-timestamp.
func (r *Result) Verdicts() []Verdict {
	return []Verdict{r.SignatureV2, r.Signature, r.CallRef, r.Timestamp}
}

// Reason returns the reasons of the failing verdicts on one line, or ""
// when the event is accepted.
func (r *Result) Reason() string {
	var parts []string
	for _, v := range r.Verdicts() {
		if v.Fails {
			parts = append(parts, v.Header+": "+v.Reason)
		}
	}
	return strings.Join(parts, "; ")
}

// Verifier checks received events against one key.
type Verifier struct {
	Key Key
	// Tolerance is how far published-timestamp may be from Now, each way.
	// Zero means DefaultTolerance.
	Tolerance time.Duration
	// SkipClock leaves published-timestamp uncompared with the clock, for
	// checking an event captured earlier. It is still parsed.
	SkipClock bool
	// Now is the receiver's clock; nil means time.Now.
	Now func() time.Time
}

func (v *Verifier) tolerance() time.Duration {
	if v.Tolerance > 0 {
		return v.Tolerance
	}
	return DefaultTolerance
}

// Verify checks the signature headers of an event against body, the
// request body exactly as received.
func (v *Verifier) Verify(h http.Header, body []byte) *Result {
	r := &Result{}
	callRef := v.checkCallRef(r, h)
	ts := v.checkTimestamp(r, h)

	sum := sha256.Sum256(body)
	r.Signed = Signed{
		CallRef:    callRef,
		Timestamp:  ts,
		BodyLength: len(body),
		BodySHA256: hex.EncodeToString(sum[:]),
		Message:    Message(callRef, body, ts),
	}
	v.checkSignatureV2(r, h, body)
	v.checkSignature(r, h)

	// A malformed request is reported as such even when its signature is
	// also wrong: the sender has a bug to fix before keys matter.
	for _, vd := range []*Verdict{&r.SignatureV2, &r.CallRef, &r.Timestamp} {
		switch {
		case !vd.Fails:
		case vd.Status == StatusMalformed || (vd.Header == HeaderPublishedTimestamp && vd.Status == StatusAbsent):
			r.fault = FaultMalformed
		case r.fault == FaultNone:
			r.fault = FaultUnauthentic
		}
	}
	return r
}

// single returns a header's only value. A header sent more than once is
// reported, since a signature or timestamp cannot be two things.
func single(h http.Header, name string) (value string, present bool, reason string) {
	vals := h.Values(name)
	switch len(vals) {
	case 0:
		return "", false, ""
	case 1:
		return vals[0], true, ""
	default:
		return vals[0], true, fmt.Sprintf("the header is sent %d times; it must be sent once", len(vals))
	}
}

func (v *Verifier) checkCallRef(r *Result, h http.Header) string {
	val, present, dup := single(h, HeaderCallRef)
	vd := Verdict{Header: HeaderCallRef, Value: val}
	n := utf8.RuneCountInString(val)
	switch {
	case !present:
		vd.Status, vd.Reason = StatusAbsent, "not sent, so the signed message starts with the body (an absent call-ref counts as empty)"
	case dup != "":
		vd.Status, vd.Reason, vd.Fails = StatusMalformed, dup, true
	case n > MaxCallRef:
		vd.Status, vd.Fails = StatusMalformed, true
		vd.Reason = fmt.Sprintf("%d characters, more than the %d allowed", n, MaxCallRef)
	case n == 0:
		vd.Status, vd.Reason = StatusValid, "sent empty, so the signed message starts with the body"
	default:
		vd.Status, vd.Reason = StatusValid, fmt.Sprintf("%d characters", n)
	}
	r.CallRef = vd
	return val
}

func (v *Verifier) checkTimestamp(r *Result, h http.Header) string {
	val, present, dup := single(h, HeaderPublishedTimestamp)
	vd := Verdict{Header: HeaderPublishedTimestamp, Value: val}
	defer func() { r.Timestamp = vd }()
	if !present {
		vd.Status, vd.Fails = StatusAbsent, true
		vd.Reason = "not sent; the header is required and every signature covers it"
		return ""
	}
	if dup != "" {
		vd.Status, vd.Reason, vd.Fails = StatusMalformed, dup, true
		return val
	}
	t, err := ParseTimestamp(val)
	if err != nil {
		vd.Status, vd.Reason, vd.Fails = StatusMalformed, err.Error(), true
		return val
	}
	r.PublishedAt = t
	stamp := t.Format("2006-01-02T15:04:05.000Z07:00")
	if v.SkipClock {
		vd.Status, vd.Reason = StatusUnchecked, "published at "+stamp+"; not compared with the clock"
		return val
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	tol := v.tolerance()
	skew := now().Sub(t)
	switch {
	case skew > tol:
		vd.Status, vd.Fails = StatusOutside, true
		vd.Reason = fmt.Sprintf("published at %s, %s before this receiver's clock; at most %s is allowed", stamp, formatSkew(skew), tol)
	case -skew > tol:
		vd.Status, vd.Fails = StatusOutside, true
		vd.Reason = fmt.Sprintf("published at %s, %s ahead of this receiver's clock; at most %s is allowed", stamp, formatSkew(-skew), tol)
	default:
		vd.Status, vd.Reason = StatusValid, fmt.Sprintf("published at %s, within %s of this receiver's clock", stamp, tol)
	}
	if vd.Fails {
		// A ten-digit value is the classic mistake of sending seconds.
		if s := t.UnixMilli() * 1000; len(val) <= 11 && absDuration(now().Sub(time.UnixMilli(s))) <= tol {
			vd.Hints = append(vd.Hints, "the value reads as a time now if taken as seconds: published-timestamp is in milliseconds")
		}
	}
	return val
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// formatSkew writes a clock difference in the unit a person reads it in.
func formatSkew(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int64(d/(24*time.Hour)))
	case d >= time.Hour:
		return d.Round(time.Minute).String()
	case d >= time.Second:
		return d.Round(time.Second).String()
	default:
		return d.Round(time.Millisecond).String()
	}
}

// decodeSignature reads a signature header value: base64 (standard
// alphabet, padded) of the 32 bytes of an HMAC-SHA256. On failure it says
// what the value looks like instead.
func decodeSignature(val string) ([]byte, string) {
	if val == "" {
		return nil, "the value is empty"
	}
	b, err := base64.StdEncoding.Strict().DecodeString(val)
	if err != nil {
		switch {
		case decodes(base64.RawStdEncoding, val):
			return nil, "not valid base64: the '=' padding at the end is missing"
		case decodes(base64.URLEncoding, val) || decodes(base64.RawURLEncoding, val):
			return nil, "not valid base64: it uses the URL-safe alphabet ('-' and '_'); the header takes standard base64 ('+' and '/')"
		default:
			return nil, "not valid base64: " + err.Error()
		}
	}
	if len(b) != sha256.Size {
		if len(val) == 2*sha256.Size && isHex(val) {
			return nil, "a hex digest; the header takes the base64 of the 32 HMAC bytes"
		}
		return nil, fmt.Sprintf("decodes to %d bytes; an HMAC-SHA256 is %d bytes", len(b), sha256.Size)
	}
	return b, ""
}

func decodes(enc *base64.Encoding, s string) bool {
	_, err := enc.Strict().DecodeString(s)
	return err == nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

func (v *Verifier) checkSignatureV2(r *Result, h http.Header, body []byte) {
	val, present, dup := single(h, HeaderSignatureV2)
	want := v.Key.mac(r.Signed.Message)
	vd := Verdict{Header: HeaderSignatureV2, Value: val, Expected: base64.StdEncoding.EncodeToString(want)}
	defer func() { r.SignatureV2 = vd }()
	if !present {
		vd.Status, vd.Fails = StatusAbsent, true
		vd.Reason = "not sent; it is required, and the only signature that covers the body"
		return
	}
	if dup != "" {
		vd.Status, vd.Reason, vd.Fails = StatusMalformed, dup, true
		return
	}
	got, bad := decodeSignature(val)
	if bad != "" {
		vd.Status, vd.Reason, vd.Fails = StatusMalformed, bad, true
		return
	}
	if hmac.Equal(got, want) {
		vd.Status, vd.Reason = StatusValid, "matches the HMAC of call-ref + body + published-timestamp"
		return
	}
	vd.Status, vd.Fails = StatusMismatch, true
	vd.Reason = fmt.Sprintf("does not match the HMAC of call-ref + body + published-timestamp (%d bytes signed): the key, the body bytes, call-ref or published-timestamp differ from what the sender signed", len(r.Signed.Message))
	vd.Hints = v.mismatchHints(got, r.Signed, body)
}

// mismatchHints tries the common ways a signer goes wrong and names those
// that reproduce the received signature.
func (v *Verifier) mismatchHints(got []byte, s Signed, body []byte) []string {
	type attempt struct {
		message []byte
		hint    string
	}
	ref, ts := s.CallRef, s.Timestamp
	attempts := []attempt{
		{[]byte(ts), "it is the deprecated signature's value (the HMAC of published-timestamp alone); signature-v2 signs call-ref + body + published-timestamp"},
		{Message("", append(append([]byte{}, body...), ref...), ts), "it matches the body signed before call-ref: the parts must be in the order call-ref, body, published-timestamp"},
		{Message(ref, body, ""), "it matches a message without published-timestamp at the end"},
	}
	if ref != "" {
		attempts = append(attempts, attempt{Message("", body, ts), "it matches a message without call-ref: the sender left call-ref out of what it signed"})
	}
	if trimmed := bytes.TrimRight(body, " \t\r\n"); len(trimmed) != len(body) {
		attempts = append(attempts, attempt{Message(ref, trimmed, ts), fmt.Sprintf("it matches the body without its last %d whitespace bytes: the body was trimmed on one side (an editor, a copy and paste, a logging layer)", len(body)-len(trimmed))})
	}
	attempts = append(attempts, attempt{Message(ref, append(append([]byte{}, body...), '\n'), ts), "it matches the body with a newline added at the end: the body received lost its final newline, or the signer added one"})
	if bytes.Contains(body, []byte("\r\n")) {
		attempts = append(attempts, attempt{Message(ref, bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), ts), "it matches the body with CRLF line endings turned into LF: line endings changed between signing and receiving"})
	} else if bytes.Contains(body, []byte("\n")) {
		attempts = append(attempts, attempt{Message(ref, bytes.ReplaceAll(body, []byte("\n"), []byte("\r\n")), ts), "it matches the body with LF line endings turned into CRLF: line endings changed between signing and receiving"})
	}
	var hints []string
	for _, a := range attempts {
		if hmac.Equal(got, v.Key.mac(a.message)) {
			hints = append(hints, a.hint)
		}
	}
	return hints
}

func (v *Verifier) checkSignature(r *Result, h http.Header) {
	val, present, dup := single(h, HeaderSignature)
	want := v.Key.mac([]byte(r.Signed.Timestamp))
	vd := Verdict{Header: HeaderSignature, Value: val, Expected: base64.StdEncoding.EncodeToString(want)}
	defer func() { r.Signature = vd }()
	switch {
	case !present:
		vd.Status, vd.Reason = StatusAbsent, "not sent; the header is deprecated and not required when signature-v2 matches"
		return
	case dup != "":
		vd.Status, vd.Reason = StatusMalformed, dup
		return
	}
	got, bad := decodeSignature(val)
	if bad != "" {
		vd.Status, vd.Reason = StatusMalformed, bad
		return
	}
	if hmac.Equal(got, want) {
		vd.Status, vd.Reason = StatusValid, "matches the HMAC of published-timestamp (deprecated: it does not cover the body)"
		return
	}
	vd.Status = StatusMismatch
	vd.Reason = "does not match the HMAC of published-timestamp; the header is deprecated, so only signature-v2 decides"
	if v2, err := base64.StdEncoding.DecodeString(r.SignatureV2.Expected); err == nil && hmac.Equal(got, v2) {
		vd.Hints = []string{"it is signature-v2's value: the sender put the same signature in both headers"}
	}
}
