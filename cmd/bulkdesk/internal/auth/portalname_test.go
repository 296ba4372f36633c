package auth_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// portalNames are user headers as portals send them, each of which must
// name its user, and headers that cannot be one person's name.
var portalNames = struct{ fit, unfit []string }{
	fit: []string{
		"ada", "alice@example.com", `CORP\alice`, "jean.dupont", "o-brien_2+ops@mail.example.co.uk",
		"Zoë", "José.Ñúñez", "Иван.Петров", "李小龙", "नमस्ते", "محمد", "ada lovelace", "u12345",
		strings.Repeat("é", 128), // 256 bytes
	},
	unfit: []string{
		"mallory, alice", "mallory,alice", `"alice"`, "o'brien", "alice;admin", "alice; role=admin",
		" alice", "alice ", "alice\t", "\u00a0alice", " ", "a\tb", "a\x00b", "a\x7fb", "a\u200bb", "a\u202eb",
		"alice<script>", "alice/admin", "alice:secret", "\xffalice", strings.Repeat("a", 257), strings.Repeat("é", 128) + "a",
	},
}

func TestHeaderTakesOnlyOnePersonsName(t *testing.T) {
	trusted, _ := auth.ParsePrefixes("127.0.0.1/32")
	h := auth.Header(auth.DefaultHeader, trusted, whoami)
	ask := func(values ...string) (*http.Response, string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "127.0.0.1:5555"
		for _, v := range values {
			r.Header.Add("X-Forwarded-User", v)
		}
		return do(h, r)
	}
	for _, name := range portalNames.fit {
		if res, body := ask(name); res.StatusCode != http.StatusOK || body != name+"||" {
			t.Errorf("%q: %d %q, want 200 naming the user", name, res.StatusCode, body)
		}
	}
	for _, name := range portalNames.unfit {
		res, body := ask(name)
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("%q: %d %q, want 400", name, res.StatusCode, body)
		}
		if len(name) > 3 && strings.Contains(body, name) {
			t.Errorf("%q: the refusal echoes the header: %q", name, body)
		}
	}
	// A proxy that appends its header to the client's leaves two lines.
	if res, _ := ask("mallory", "alice"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("the header twice: %d, want 400", res.StatusCode)
	}
	// No name at all is not a malformed name: the portal signed nobody in.
	if res, _ := ask(); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("no header: %d, want 401", res.StatusCode)
	}
	if res, _ := ask(""); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("an empty header: %d, want 401", res.StatusCode)
	}
	// From an untrusted peer the header counts for nothing, whatever it holds.
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "192.168.1.1:5555"
	r.Header.Set("X-Forwarded-User", "mallory, alice")
	if res, _ := do(h, r); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a bad header from an untrusted peer: %d, want 401", res.StatusCode)
	}
}

func TestARefusedUserHeaderIsLoggedAndCounted(t *testing.T) {
	var log bytes.Buffer
	var reasons []string
	trusted, _ := auth.ParsePrefixes("127.0.0.1/32")
	h := auth.HeaderWith(auth.DefaultHeader, trusted, auth.Refusals{
		Logger: slog.New(slog.NewTextHandler(&log, nil)),
		Failed: func(reason string) { reasons = append(reasons, reason) },
	}, whoami)
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:5555"
	r.Header.Set("X-Forwarded-User", "mallory, alice\nlevel=INFO msg=forged")
	if res, _ := do(h, r); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("%d, want 400", res.StatusCode)
	}
	line := log.String()
	for _, want := range []string{"user header refused", "reason=bad_user_header", "header=X-Forwarded-User", `fault="a comma`, `value="mallory, alice\nlevel=INFO msg=forged"`, "peer=127.0.0.1:5555"} {
		if !strings.Contains(line, want) {
			t.Errorf("the log line has no %s: %q", want, line)
		}
	}
	if strings.Count(line, "\n") != 1 {
		t.Errorf("the value forged a log line: %q", line)
	}
	if len(reasons) != 1 || reasons[0] != auth.ReasonBadUserHeader {
		t.Errorf("counted %v, want [%s]", reasons, auth.ReasonBadUserHeader)
	}
}
