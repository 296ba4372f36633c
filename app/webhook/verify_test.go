package webhook_test

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func mustTime(t testing.TB, ts string) time.Time {
	t.Helper()
	at, err := webhook.ParseTimestamp(ts)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func TestVerifyAcceptsEveryVector(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.name, func(t *testing.T) {
			h, err := webhook.ParseHeaders(v.headers)
			if err != nil {
				t.Fatal(err)
			}
			r := verifierAt(v.key, v.publishedAt(t)).Verify(h, v.body)
			if !r.OK() {
				t.Fatalf("rejected: %s", r.Reason())
			}
			for _, vd := range r.Verdicts() {
				if vd.Fails {
					t.Errorf("%s fails: %s", vd.Header, vd.Reason)
				}
			}
			if r.SignatureV2.Status != webhook.StatusValid || r.Signature.Status != webhook.StatusValid || r.Timestamp.Status != webhook.StatusValid {
				t.Errorf("verdicts %+v", r.Verdicts())
			}
			if string(r.Signed.Message) != string(v.message) || r.Signed.BodyLength != len(v.body) || r.Signed.BodySHA256 != v.bodySHA256 {
				t.Errorf("signed %q (%d bytes, %s), want %q (%d bytes, %s)",
					r.Signed.Message, r.Signed.BodyLength, r.Signed.BodySHA256, v.message, len(v.body), v.bodySHA256)
			}
			if r.SignatureV2.Expected != v.signatureV2 || r.Signature.Expected != v.signature {
				t.Errorf("expected signatures %s / %s", r.SignatureV2.Expected, r.Signature.Expected)
			}
			wantRef := webhook.StatusValid
			if !v.hasCallRef {
				wantRef = webhook.StatusAbsent
			}
			if r.CallRef.Status != wantRef || r.CallRef.Fails {
				t.Errorf("call-ref verdict %+v", r.CallRef)
			}
			if !r.PublishedAt.Equal(v.publishedAt(t)) {
				t.Errorf("PublishedAt %v", r.PublishedAt)
			}
		})
	}
}

// signed returns headers and a body signed with key at ts.
func signed(key, callRef, body, ts string) http.Header {
	k := webhook.NewKey(key)
	h := http.Header{}
	if callRef != "" {
		h.Set(webhook.HeaderCallRef, callRef)
	}
	h.Set(webhook.HeaderPublishedTimestamp, ts)
	h.Set(webhook.HeaderSignature, webhook.Signature(k, ts))
	h.Set(webhook.HeaderSignatureV2, webhook.SignatureV2(k, callRef, []byte(body), ts))
	return h
}

func TestVerifyRejections(t *testing.T) {
	const (
		key  = "sandbox-api-key-1"
		ts   = "1761909600000"
		body = `{"bulkId":"1","status":"COMPLETED"}`
	)
	now := mustTime(t, ts)
	hex64 := hex.EncodeToString(make([]byte, 32))
	tests := []struct {
		name   string
		key    string
		edit   func(h http.Header)
		body   string
		now    time.Time
		fault  webhook.Fault
		header string // the verdict that fails
		status webhook.Status
		reason string
	}{
		{name: "wrong key", key: "another-key", fault: webhook.FaultUnauthentic,
			header: "signature-v2", status: webhook.StatusMismatch, reason: "does not match"},
		{name: "body tampered by one byte", body: strings.Replace(body, "1", "2", 1), fault: webhook.FaultUnauthentic,
			header: "signature-v2", status: webhook.StatusMismatch, reason: "does not match"},
		{name: "signature-v2 absent", edit: func(h http.Header) { h.Del("signature-v2") }, fault: webhook.FaultUnauthentic,
			header: "signature-v2", status: webhook.StatusAbsent, reason: "required"},
		{name: "signature-v2 empty", edit: func(h http.Header) { h.Set("signature-v2", "") }, fault: webhook.FaultMalformed,
			header: "signature-v2", status: webhook.StatusMalformed, reason: "empty"},
		{name: "signature-v2 not base64", edit: func(h http.Header) { h.Set("signature-v2", "not*base64!") }, fault: webhook.FaultMalformed,
			header: "signature-v2", status: webhook.StatusMalformed, reason: "not valid base64"},
		{name: "signature-v2 without padding", edit: func(h http.Header) {
			h.Set("signature-v2", strings.TrimRight(h.Get("signature-v2"), "="))
		}, fault: webhook.FaultMalformed, header: "signature-v2", status: webhook.StatusMalformed, reason: "padding"},
		{name: "signature-v2 URL-safe", edit: func(h http.Header) {
			h.Set("signature-v2", base64.URLEncoding.EncodeToString([]byte{0xfb, 0xff, 0xbf, 31: 0}))
		}, fault: webhook.FaultMalformed, header: "signature-v2", status: webhook.StatusMalformed, reason: "URL-safe"},
		{name: "signature-v2 hex", edit: func(h http.Header) { h.Set("signature-v2", hex64) }, fault: webhook.FaultMalformed,
			header: "signature-v2", status: webhook.StatusMalformed, reason: "hex digest"},
		{name: "signature-v2 too short", edit: func(h http.Header) { h.Set("signature-v2", "AAAA") }, fault: webhook.FaultMalformed,
			header: "signature-v2", status: webhook.StatusMalformed, reason: "decodes to 3 bytes"},
		{name: "signature-v2 twice", edit: func(h http.Header) { h.Add("signature-v2", h.Get("signature-v2")) }, fault: webhook.FaultMalformed,
			header: "signature-v2", status: webhook.StatusMalformed, reason: "sent 2 times"},
		{name: "timestamp absent", edit: func(h http.Header) { h.Del("published-timestamp") }, fault: webhook.FaultMalformed,
			header: "published-timestamp", status: webhook.StatusAbsent, reason: "required"},
		{name: "timestamp not a number", edit: func(h http.Header) { h.Set("published-timestamp", "2025-10-31T11:20:00Z") }, fault: webhook.FaultMalformed,
			header: "published-timestamp", status: webhook.StatusMalformed, reason: "not a whole number"},
		{name: "timestamp with decimals", edit: func(h http.Header) { h.Set("published-timestamp", "1761909600000.0") }, fault: webhook.FaultMalformed,
			header: "published-timestamp", status: webhook.StatusMalformed, reason: "character 14 is '.'"},
		{name: "stale timestamp", now: now.Add(5*time.Minute + time.Millisecond), fault: webhook.FaultUnauthentic,
			header: "published-timestamp", status: webhook.StatusOutside, reason: "before this receiver's clock"},
		{name: "timestamp from the future", now: now.Add(-6 * time.Minute), fault: webhook.FaultUnauthentic,
			header: "published-timestamp", status: webhook.StatusOutside, reason: "6m0s ahead"},
		{name: "call-ref of 256 characters", edit: func(h http.Header) {
			ref := strings.Repeat("é", 256)
			h.Set("call-ref", ref)
			h.Set("signature-v2", webhook.SignatureV2(webhook.NewKey(key), ref, []byte(body), ts))
		}, fault: webhook.FaultMalformed, header: "call-ref", status: webhook.StatusMalformed, reason: "256 characters, more than the 255"},
		{name: "malformed header wins over a bad signature", key: "another-key", edit: func(h http.Header) { h.Set("published-timestamp", "soon") },
			fault: webhook.FaultMalformed, header: "published-timestamp", status: webhook.StatusMalformed, reason: "not a whole number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := signed(key, "ref-1", body, ts)
			if tc.edit != nil {
				tc.edit(h)
			}
			b := body
			if tc.body != "" {
				b = tc.body
			}
			k := key
			if tc.key != "" {
				k = tc.key
			}
			at := now
			if !tc.now.IsZero() {
				at = tc.now
			}
			r := verifierAt(k, at).Verify(h, []byte(b))
			if r.OK() || r.Fault() != tc.fault {
				t.Fatalf("fault %v, want %v (%s)", r.Fault(), tc.fault, r.Reason())
			}
			i := slices.IndexFunc(r.Verdicts(), func(v webhook.Verdict) bool { return v.Header == tc.header })
			vd := r.Verdicts()[i]
			if !vd.Fails || vd.Status != tc.status || !strings.Contains(vd.Reason, tc.reason) {
				t.Errorf("%s verdict %+v, want status %s and a reason containing %q", tc.header, vd, tc.status, tc.reason)
			}
			if !strings.Contains(r.Reason(), tc.header+": ") {
				t.Errorf("Reason() = %q does not name %s", r.Reason(), tc.header)
			}
		})
	}
}

func TestVerifyWindowEdges(t *testing.T) {
	const ts = "1761909600000"
	at := mustTime(t, ts)
	h := signed("k", "", "{}", ts)
	for _, now := range []time.Time{at.Add(5 * time.Minute), at.Add(-5 * time.Minute), at} {
		if r := verifierAt("k", now).Verify(h, []byte("{}")); !r.OK() {
			t.Errorf("at %v: %s", now.Sub(at), r.Reason())
		}
	}
	v := verifierAt("k", at.Add(90*time.Second))
	v.Tolerance = time.Minute
	if r := v.Verify(h, []byte("{}")); r.Timestamp.Status != webhook.StatusOutside {
		t.Errorf("a one-minute tolerance accepted a 90 s skew: %+v", r.Timestamp)
	}
	v = verifierAt("k", at.Add(72*time.Hour))
	v.SkipClock = true
	if r := v.Verify(h, []byte("{}")); !r.OK() || r.Timestamp.Status != webhook.StatusUnchecked {
		t.Errorf("SkipClock: %+v", r.Timestamp)
	}
}

func TestVerifySecondsHint(t *testing.T) {
	now := mustTime(t, "1761909600000")
	h := signed("k", "", "{}", "1761909600")
	r := verifierAt("k", now).Verify(h, []byte("{}"))
	if r.Timestamp.Status != webhook.StatusOutside || len(r.Timestamp.Hints) != 1 || !strings.Contains(r.Timestamp.Hints[0], "seconds") {
		t.Errorf("timestamp verdict %+v", r.Timestamp)
	}
}

func TestDeprecatedSignatureIsReportedNotRequired(t *testing.T) {
	const ts = "1761909600000"
	now := mustTime(t, ts)
	for _, tc := range []struct {
		name   string
		edit   func(h http.Header)
		status webhook.Status
	}{
		{"absent", func(h http.Header) { h.Del("signature") }, webhook.StatusAbsent},
		{"wrong", func(h http.Header) { h.Set("signature", webhook.Signature(webhook.NewKey("other"), ts)) }, webhook.StatusMismatch},
		{"malformed", func(h http.Header) { h.Set("signature", "%%%") }, webhook.StatusMalformed},
		{"sent twice", func(h http.Header) { h.Add("signature", h.Get("signature")) }, webhook.StatusMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := signed("k", "r", "{}", ts)
			tc.edit(h)
			r := verifierAt("k", now).Verify(h, []byte("{}"))
			if !r.OK() || r.Signature.Status != tc.status || r.Signature.Fails {
				t.Errorf("OK %v, signature verdict %+v", r.OK(), r.Signature)
			}
		})
	}
	// The deprecated header matching does not rescue a bad signature-v2.
	h := signed("k", "r", "{}", ts)
	h.Set("signature-v2", webhook.SignatureV2(webhook.NewKey("k"), "r", []byte("{ }"), ts))
	if r := verifierAt("k", now).Verify(h, []byte("{}")); r.OK() || r.Signature.Status != webhook.StatusValid {
		t.Errorf("accepted with a wrong signature-v2: %+v", r.Verdicts())
	}
}

func TestMismatchHints(t *testing.T) {
	const ts = "1761909600000"
	now := mustTime(t, ts)
	k := webhook.NewKey("k")
	body := "{\"a\":1}\n"
	tests := []struct {
		name string
		sig  string
		body string
		hint string
	}{
		{"deprecated value in signature-v2", webhook.Signature(k, ts), body, "deprecated signature's value"},
		{"call-ref left out", webhook.SignatureV2(k, "", []byte(body), ts), body, "without call-ref"},
		{"parts out of order", k.Sum([]byte(body + "ref" + ts)), body, "order call-ref, body, published-timestamp"},
		{"timestamp left out", webhook.SignatureV2(k, "ref", []byte(body), ""), body, "without published-timestamp"},
		{"body trimmed by the signer", webhook.SignatureV2(k, "ref", []byte(`{"a":1}`), ts), body, "without its last 1 whitespace bytes"},
		{"final newline lost on the way", webhook.SignatureV2(k, "ref", []byte(body), ts), `{"a":1}`, "newline added at the end"},
		{"CRLF turned into LF", webhook.SignatureV2(k, "ref", []byte("{\n}"), ts), "{\r\n}", "CRLF line endings turned into LF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			h.Set("call-ref", "ref")
			h.Set("published-timestamp", ts)
			h.Set("signature-v2", tc.sig)
			r := verifierAt("k", now).Verify(h, []byte(tc.body))
			if r.SignatureV2.Status != webhook.StatusMismatch {
				t.Fatalf("signature-v2 %+v", r.SignatureV2)
			}
			if len(r.SignatureV2.Hints) != 1 || !strings.Contains(r.SignatureV2.Hints[0], tc.hint) {
				t.Errorf("hints %q, want one containing %q", r.SignatureV2.Hints, tc.hint)
			}
		})
	}
	// A signature made with another key matches no attempt.
	h := signed("other", "ref", body, ts)
	if r := verifierAt("k", now).Verify(h, []byte(body)); len(r.SignatureV2.Hints) != 0 {
		t.Errorf("hints for a wrong key: %q", r.SignatureV2.Hints)
	}
}

func TestSwappedSignatureHeadersAreNamed(t *testing.T) {
	const ts = "1761909600000"
	h := signed("k", "r", "{}", ts)
	v1, v2 := h.Get("signature"), h.Get("signature-v2")
	h.Set("signature", v2)
	h.Set("signature-v2", v1)
	r := verifierAt("k", mustTime(t, ts)).Verify(h, []byte("{}"))
	if r.OK() || len(r.Signature.Hints) != 1 || len(r.SignatureV2.Hints) != 1 {
		t.Errorf("verdicts %+v", r.Verdicts())
	}
}

func TestTimestampParsing(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"1761909600000", 1761909600000, ""},
		{"0001761909600000", 1761909600000, ""},
		{"0", 0, ""},
		{"", 0, "empty"},
		{" 1761909600000", 0, "character 1 is ' '"},
		{"-1", 0, "character 1 is '-'"},
		{"+1", 0, "character 1 is '+'"},
		{"1.7e12", 0, "character 2 is '.'"},
		{"１２３", 0, "character 1 is '１'"},
		{"99999999999999999999", 0, "too large"},
		{"9223372036854775807", 0, "too large"},
		{"9223372036854", 9223372036854, ""},
	} {
		got, err := webhook.ParseTimestamp(tc.in)
		switch {
		case tc.err == "" && (err != nil || got.UnixMilli() != tc.want):
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %d", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseTimestamp(%q) error %v, want one containing %q", tc.in, err, tc.err)
		}
	}
	if s := webhook.FormatTimestamp(time.UnixMilli(1761909600123)); s != "1761909600123" {
		t.Errorf("FormatTimestamp = %s", s)
	}
}
