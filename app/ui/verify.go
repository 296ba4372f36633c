package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// verification is what the verifier page shows for what was pasted: what
// is still missing, why the headers could not be read, or the verifier's
// result.
type verification struct {
	// missing names what is still to be given: "headers", "body", "key".
	missing []string
	// headersErr says why the pasted headers could not be read.
	headersErr string
	result     *webhook.Result
}

// verifyPasted checks pasted headers and body against a key. checkClock
// compares published-timestamp with now (an event captured earlier is
// outside the window, so the page leaves it off unless asked).
func verifyPasted(headers string, body []byte, key webhook.Key, checkClock bool, now time.Time) verification {
	var v verification
	if headers == "" {
		v.missing = append(v.missing, "headers")
	}
	if len(body) == 0 {
		v.missing = append(v.missing, "body")
	}
	if key.IsZero() {
		v.missing = append(v.missing, "key")
	}
	if headers == "" {
		return v
	}
	h, err := webhook.ParseHeaders([]byte(headers))
	if err != nil {
		v.headersErr = errorText(err)
		return v
	}
	if len(v.missing) > 0 {
		return v
	}
	vr := webhook.Verifier{Key: key, SkipClock: !checkClock, Now: func() time.Time { return now }}
	v.result = vr.Verify(h, body)
	return v
}

// verdictWord names a verdict's status for people.
func verdictWord(s webhook.Status) string {
	switch s {
	case webhook.StatusValid:
		return t("valid")
	case webhook.StatusAbsent:
		return t("absent")
	case webhook.StatusMalformed:
		return t("malformed")
	case webhook.StatusMismatch:
		return t("a mismatch")
	case webhook.StatusOutside:
		return t("outside the time window")
	case webhook.StatusUnchecked:
		return t("not compared with the clock")
	}
	return string(s)
}

// verdictTone is how a verdict is shown: "ok" when valid, "bad" when it
// fails the event, "warn" for anything else worth a look.
func verdictTone(v webhook.Verdict) string {
	switch {
	case v.Status == webhook.StatusValid:
		return "ok"
	case v.Fails:
		return "bad"
	case v.Status == webhook.StatusAbsent || v.Status == webhook.StatusUnchecked:
		return "plain"
	default:
		return "warn"
	}
}

// signedShownMax is how much of the signed message the page writes out;
// a body of a megabyte is better compared by its hash.
const signedShownMax = 64 << 10

// signedPart is one of the three parts of the message signature-v2 signs.
type signedPart struct {
	name, text string
	// bytes is the part's length in bytes.
	bytes int
	// cut says text is only the start of the part.
	cut bool
}

// signedParts splits the signed message into call-ref, body and
// published-timestamp, for a page to mark where each begins.
func signedParts(s webhook.Signed) []signedPart {
	body := s.Message[len(s.CallRef) : len(s.Message)-len(s.Timestamp)]
	shown, cut := body, false
	if len(shown) > signedShownMax {
		shown, cut = trimToRune(shown[:signedShownMax]), true
	}
	return []signedPart{
		{name: "call-ref", text: s.CallRef, bytes: len(s.CallRef)},
		{name: "body", text: string(shown), bytes: len(body), cut: cut},
		{name: "published-timestamp", text: s.Timestamp, bytes: len(s.Timestamp)},
	}
}

// quotedMessage writes the signed message as a quoted string, its
// invisible bytes escaped (\r, \n, \t, \u00a0, invalid UTF-8 as \x..),
// since they are where a signer and a receiver most often differ.
func quotedMessage(s webhook.Signed) (text string, cut bool) {
	m := s.Message
	if len(m) > signedShownMax {
		m, cut = trimToRune(m[:signedShownMax]), true
	}
	return strconv.Quote(string(m)), cut
}

// messageSHA256 is the hex SHA-256 of the signed message, for comparing
// with what a signer hashed.
func messageSHA256(s webhook.Signed) string {
	sum := sha256.Sum256(s.Message)
	return hex.EncodeToString(sum[:])
}

// trimToRune drops the bytes of a character that b, a cut, ends inside.
func trimToRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}
