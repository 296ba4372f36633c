package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// pasted signs body as the API would and writes its headers as a person
// pastes them.
func pasted(key, callRef, body string, at time.Time) string {
	h := webhook.Sign(webhook.NewKey(key), callRef, []byte(body), at)
	var b strings.Builder
	b.WriteString("POST /webhooks/transfers/watch HTTP/1.1\n")
	for _, name := range []string{"call-ref", "published-timestamp", "signature", "signature-v2"} {
		if v := h.Get(name); v != "" {
			b.WriteString(name + ": " + v + "\n")
		}
	}
	return b.String()
}

func TestVerifyPastedSaysWhatIsMissing(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		headers, body, key string
		missing            []string
	}{
		{"", "", "", []string{"headers", "body", "key"}},
		{"signature-v2: x", "", "", []string{"body", "key"}},
		{"signature-v2: x", "{}", "", []string{"key"}},
		{"", "{}", "k", []string{"headers"}},
	} {
		v := verifyPasted(tc.headers, []byte(tc.body), webhook.NewKey(tc.key), false, now)
		if !slices.Equal(v.missing, tc.missing) || v.result != nil {
			t.Errorf("%+v: missing %v, result %v", tc, v.missing, v.result)
		}
	}
	v := verifyPasted("this is not a header", []byte("{}"), webhook.Key{}, false, now)
	if !strings.Contains(v.headersErr, `line 1: "this is not a header" is not a header`) || v.result != nil {
		t.Errorf("bad headers: %+v", v)
	}
}

func TestVerifyPastedWithTheRightAndAWrongKey(t *testing.T) {
	at := time.Date(2024, 6, 10, 9, 30, 0, 0, time.UTC)
	body := "{\"transfer\":{\"id\":{\"id\":\"42\"}},\"note\":\"café\"}\n"
	headers := pasted("right-key", "ref-7", body, at)

	// An event captured earlier: the clock is not compared unless asked.
	ok := verifyPasted(headers, []byte(body), webhook.NewKey("right-key"), false, at.Add(48*time.Hour))
	if ok.result == nil || !ok.result.OK() || ok.result.Timestamp.Status != webhook.StatusUnchecked {
		t.Fatalf("right key: %+v", ok.result)
	}
	late := verifyPasted(headers, []byte(body), webhook.NewKey("right-key"), true, at.Add(48*time.Hour))
	if late.result.OK() || late.result.Timestamp.Status != webhook.StatusOutside {
		t.Errorf("with the clock, two days late: %+v", late.result.Timestamp)
	}

	bad := verifyPasted(headers, []byte(body), webhook.NewKey("wrong-key"), false, at)
	r := bad.result
	if r == nil || r.OK() || r.SignatureV2.Status != webhook.StatusMismatch || r.Signature.Status != webhook.StatusMismatch {
		t.Fatalf("wrong key: %+v", r)
	}
	sum := sha256.Sum256([]byte(body))
	if r.Signed.BodyLength != len(body) || r.Signed.BodySHA256 != hex.EncodeToString(sum[:]) || string(r.Signed.Message) != "ref-7"+body+webhook.FormatTimestamp(at) {
		t.Errorf("signed %+v", r.Signed)
	}
	if r.SignatureV2.Expected != webhook.SignatureV2(webhook.NewKey("wrong-key"), "ref-7", []byte(body), webhook.FormatTimestamp(at)) {
		t.Error("the expected signature-v2 is not the one of the key typed")
	}

	// A body trimmed on the way: the hint names it.
	trimmed := verifyPasted(headers, []byte(strings.TrimSpace(body)), webhook.NewKey("right-key"), false, at)
	if hints := trimmed.result.SignatureV2.Hints; len(hints) != 1 || !strings.Contains(hints[0], "newline added at the end") {
		t.Errorf("hints for a trimmed body: %q", hints)
	}
}

func TestSignedPartsAndQuotedMessage(t *testing.T) {
	body := "{\"a\":\"b\"}\r\n\u00a0"
	s := webhook.Signed{CallRef: "ref", Timestamp: "1718011800000", Message: webhook.Message("ref", []byte(body), "1718011800000")}
	parts := signedParts(s)
	if len(parts) != 3 || parts[0].text != "ref" || parts[1].text != body || parts[1].bytes != len(body) || parts[2].text != "1718011800000" || parts[1].cut {
		t.Errorf("parts %+v", parts)
	}
	q, cut := quotedMessage(s)
	if q != `"ref{\"a\":\"b\"}\r\n\u00a01718011800000"` || cut {
		t.Errorf("quoted %s", q)
	}
	if want := sha256.Sum256([]byte("ref" + body + "1718011800000")); messageSHA256(s) != hex.EncodeToString(want[:]) {
		t.Errorf("message hash %s", messageSHA256(s))
	}

	// A large body is shown up to a bound, without splitting a character.
	big := strings.Repeat("é", signedShownMax) // two bytes each
	s = webhook.Signed{Message: webhook.Message("", []byte(big+"x"), "1")}
	s.Timestamp = "1"
	parts = signedParts(s)
	if !parts[1].cut || len(parts[1].text) != signedShownMax || parts[1].bytes != len(big)+1 {
		t.Errorf("big body part: cut %v, %d bytes shown of %d", parts[1].cut, len(parts[1].text), parts[1].bytes)
	}
	s = webhook.Signed{Message: []byte("a" + big), Timestamp: ""}
	if p := signedParts(s)[1]; len(p.text) != signedShownMax-1 || strings.ContainsRune(p.text, '\uFFFD') {
		t.Errorf("a cut inside a character keeps %d bytes", len(p.text))
	}
	if q, cut := quotedMessage(s); !cut || strings.Contains(q, `\x`) {
		t.Errorf("quoted big message: cut %v, ends %q", cut, q[len(q)-8:])
	}
}

func TestStatusWordsAndTones(t *testing.T) {
	for _, tc := range []struct {
		v          webhook.Verdict
		word, tone string
	}{
		{webhook.Verdict{Status: webhook.StatusValid}, "valid", "ok"},
		{webhook.Verdict{Status: webhook.StatusMismatch, Fails: true}, "a mismatch", "bad"},
		{webhook.Verdict{Status: webhook.StatusMismatch}, "a mismatch", "warn"},
		{webhook.Verdict{Status: webhook.StatusAbsent}, "absent", "plain"},
		{webhook.Verdict{Status: webhook.StatusOutside, Fails: true}, "outside the time window", "bad"},
		{webhook.Verdict{Status: webhook.StatusUnchecked}, "not compared with the clock", "plain"},
		{webhook.Verdict{Status: webhook.StatusMalformed, Fails: true}, "malformed", "bad"},
	} {
		if w, tone := verdictWord(tc.v.Status), verdictTone(tc.v); w != tc.word || tone != tc.tone {
			t.Errorf("%+v: %q %q, want %q %q", tc.v, w, tone, tc.word, tc.tone)
		}
	}
}
