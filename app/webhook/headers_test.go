package webhook_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestParseHeaders(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string][]string
	}{
		{"plain lines", "call-ref: ref-1\npublished-timestamp: 1761909600000\nsignature-v2: abc=\n",
			map[string][]string{"call-ref": {"ref-1"}, "published-timestamp": {"1761909600000"}, "signature-v2": {"abc="}}},
		{"curl -v with a request line and CRLF", "> POST /webhooks/transfers/watch HTTP/1.1\r\n> Host: 127.0.0.1:8080\r\n> Signature-V2:  abc= \r\n> Content-Type: application/json\r\n>\r\n",
			map[string][]string{"host": {"127.0.0.1:8080"}, "signature-v2": {"abc="}, "content-type": {"application/json"}}},
		{"stops at the body", "published-timestamp: 1\n\n{\"a\": 1}\nnot: a header\n",
			map[string][]string{"published-timestamp": {"1"}}},
		{"empty value and a colon in a value", "call-ref:\nx-note: a: b\n",
			map[string][]string{"call-ref": {""}, "x-note": {"a: b"}}},
		{"repeated header keeps both", "signature: a\nSIGNATURE: b\n",
			map[string][]string{"signature": {"a", "b"}}},
		{"JSON object", `{"call-ref": "r", "Published-Timestamp": " 17 ", "signature": ["a", "b"]}`,
			map[string][]string{"call-ref": {"r"}, "published-timestamp": {"17"}, "signature": {"a", "b"}}},
		{"nothing", "\n\n", map[string][]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := webhook.ParseHeaders([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(h) != len(tc.want) {
				t.Errorf("got %v, want %v", h, tc.want)
			}
			for name, vals := range tc.want {
				if got := h.Values(name); strings.Join(got, "|") != strings.Join(vals, "|") || len(got) != len(vals) {
					t.Errorf("%s: %q, want %q", name, got, vals)
				}
			}
		})
	}
}

func TestParseHeadersErrors(t *testing.T) {
	for _, tc := range []struct{ text, err string }{
		{"call-ref: a\njust words\n", "line 2: \"just words\" is not a header"},
		{"bad name: x\n", `line 1: "bad name" is not a header name`},
		{": x\n", `line 1: "" is not a header name`},
		{"{\"a\": 1}", "put the timestamp in quotes"},
		{"{\"a\": [1]}", "every value must be a string"},
		{"{\"a\": ", "not a JSON object"},
		{"a: \xff\n", "not valid UTF-8"},
	} {
		_, err := webhook.ParseHeaders([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseHeaders(%q) error %v, want one containing %q", tc.text, err, tc.err)
		}
	}
}
