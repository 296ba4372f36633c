package webhook_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// FuzzParseTimestamp holds ParseTimestamp to a plain restatement of the
// rule: digits only, and a value that fits.
func FuzzParseTimestamp(f *testing.F) {
	for _, s := range []string{"1761909600000", "0", "", "-1", "1e3", " 1", "00017", "9223372036854775807", "9223372036854", "١٢٣", "1761909600000\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := webhook.ParseTimestamp(s)
		digits := s != "" && strings.Trim(s, "0123456789") == ""
		n, convErr := strconv.ParseInt(s, 10, 64)
		fits := digits && convErr == nil && n <= (1<<63-1)/int64(time.Millisecond)
		if fits != (err == nil) {
			t.Fatalf("ParseTimestamp(%q) error %v; digits %v, fits %v", s, err, digits, fits)
		}
		if err != nil {
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error message is not UTF-8: %q", err)
			}
			return
		}
		if got.UnixMilli() != n || webhook.FormatTimestamp(got) != strconv.FormatInt(n, 10) {
			t.Fatalf("ParseTimestamp(%q) = %d", s, got.UnixMilli())
		}
	})
}

// FuzzParseHeaders feeds arbitrary text to the header reader and verifies
// whatever it reads: neither may panic, and every error names a line or
// says what is wrong.
func FuzzParseHeaders(f *testing.F) {
	f.Add("call-ref: ref-1\npublished-timestamp: 1761909600000\nsignature: a\nsignature-v2: b\n")
	f.Add("> POST /webhooks/x HTTP/1.1\r\n> signature-v2: AAAA\r\n>\r\n")
	f.Add(`{"signature-v2": ["a", "b"], "published-timestamp": 1}`)
	f.Add("a:b\n\nbody: no\n")
	f.Add(":\n")
	f.Add("published-timestamp: 99999999999999999999\nsignature-v2: " + strings.Repeat("A", 44) + "\n")
	v := &webhook.Verifier{Key: webhook.NewKey("k"), Now: func() time.Time { return time.UnixMilli(1761909600000) }}
	f.Fuzz(func(t *testing.T, text string) {
		h, err := webhook.ParseHeaders([]byte(text))
		if err != nil {
			if h != nil || err.Error() == "" {
				t.Fatalf("error %v with headers %v", err, h)
			}
			return
		}
		for name, vals := range h {
			if name != http.CanonicalHeaderKey(name) {
				t.Fatalf("name %q not canonical", name)
			}
			for _, val := range vals {
				if val != strings.Trim(val, " \t") {
					t.Fatalf("value %q not trimmed", val)
				}
			}
		}
		r := v.Verify(h, []byte(text))
		if r.OK() != (r.Reason() == "") {
			t.Fatalf("OK %v but reason %q", r.OK(), r.Reason())
		}
	})
}

// FuzzSignVerify signs arbitrary events and checks that the verifier
// accepts exactly those the policy allows, and rejects any change to the
// body.
func FuzzSignVerify(f *testing.F) {
	f.Add("sandbox-api-key-1", "ref-1", []byte(`{"bulkId":"1"}`), "1761909600000")
	f.Add("k", "", []byte(""), "0")
	f.Add("clé", strings.Repeat("r", 256), []byte("{} \n"), "1761909600000")
	f.Add("k", "r", []byte("x"), "1761909600")
	f.Add("k", "r", []byte("x"), "17619096000x0")
	f.Fuzz(func(t *testing.T, key, callRef string, body []byte, ts string) {
		if key == "" || !validValue(callRef) || !validValue(ts) {
			t.Skip("not a value HTTP can carry")
		}
		k := webhook.NewKey(key)
		h := http.Header{}
		h.Set(webhook.HeaderCallRef, callRef)
		h.Set(webhook.HeaderPublishedTimestamp, ts)
		h.Set(webhook.HeaderSignature, webhook.Signature(k, ts))
		h.Set(webhook.HeaderSignatureV2, webhook.SignatureV2(k, callRef, body, ts))
		at, tsErr := webhook.ParseTimestamp(ts)
		v := &webhook.Verifier{Key: k, Now: func() time.Time { return at }}
		r := v.Verify(h, body)
		want := tsErr == nil && utf8.RuneCountInString(callRef) <= webhook.MaxCallRef
		if r.OK() != want {
			t.Fatalf("OK = %v, want %v: %s", r.OK(), want, r.Reason())
		}
		if r.SignatureV2.Status != webhook.StatusValid || r.Signature.Status != webhook.StatusValid {
			t.Fatalf("signatures %+v %+v", r.SignatureV2, r.Signature)
		}
		tampered := append([]byte{}, body...)
		if len(tampered) == 0 {
			tampered = []byte{0}
		} else {
			tampered[len(tampered)/2] ^= 1
		}
		if r := v.Verify(h, tampered); r.OK() || r.SignatureV2.Status != webhook.StatusMismatch {
			t.Fatalf("tampered body: %+v", r.SignatureV2)
		}
	})
}

// validValue reports whether s survives as an HTTP header value: no
// control characters, no surrounding spaces.
func validValue(s string) bool {
	if s != strings.Trim(s, " \t") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
