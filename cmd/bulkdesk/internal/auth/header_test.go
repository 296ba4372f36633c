package auth_test

import (
	"net/http/httptest"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

func TestHeaderIsTrustedOnlyFromTrustedProxies(t *testing.T) {
	trusted, err := auth.ParsePrefixes("127.0.0.1/32, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	h := auth.Header(auth.DefaultHeader, trusted, whoami)
	for _, tc := range []struct {
		peer, user string
		want       int
		body       string
	}{
		{"127.0.0.1:5555", "ada", 200, "ada||"},
		{"10.9.8.7:5555", "bob", 200, "bob||"},
		{"[::ffff:10.1.1.1]:5555", "eve", 200, "eve||"}, // IPv4 seen through an IPv6 socket
		{"192.168.1.1:5555", "mallory", 401, ""},
		{"[::1]:5555", "mallory", 401, ""},
		{"127.0.0.1:5555", "", 401, ""},
		{"127.0.0.1:5555", "a\nforged log line", 400, ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		if tc.user != "" {
			r.Header.Set("X-Forwarded-User", tc.user)
		}
		res, body := do(h, r)
		if res.StatusCode != tc.want || (tc.want == 200 && body != tc.body) {
			t.Errorf("%s as %q: %d %q, want %d %q", tc.peer, tc.user, res.StatusCode, body, tc.want, tc.body)
		}
	}
	// A CIDR that leaves the peer out: the header counts for nothing.
	other, _ := auth.ParsePrefixes("10.0.0.0/8")
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:5555"
	r.Header.Set("X-Forwarded-User", "ada")
	if res, _ := do(auth.Header(auth.DefaultHeader, other, whoami), r); res.StatusCode != 401 {
		t.Errorf("untrusted peer: %d, want 401", res.StatusCode)
	}
}

func TestParsePrefixes(t *testing.T) {
	p, err := auth.ParsePrefixes("10.1.2.3 192.168.0.0/16,::1")
	if err != nil || len(p) != 3 || p[0].String() != "10.1.2.3/32" || p[2].String() != "::1/128" {
		t.Errorf("%v, %v", p, err)
	}
	if _, err := auth.ParsePrefixes("10.0.0.0/33"); err == nil {
		t.Error("a bad CIDR was accepted")
	}
}
