package main

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestServeRefusesAUserHeaderThatIsNotOneName(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32")
	res, body := call(t, "GET", s.url+"events", header("X-Forwarded-User", "mallory, alice"))
	if res.StatusCode != http.StatusBadRequest || strings.Contains(body, "mallory") {
		t.Errorf("a comma in the user header: %d %q, want 400 without the name", res.StatusCode, body)
	}
	logs := s.logs.waitFor(t, "user header refused")
	if !strings.Contains(logs, `value="mallory, alice"`) {
		t.Errorf("the log does not show the refused header:\n%s", logs)
	}
	for _, name := range []string{"alice@example.com", `CORP\alice`, "Zoë.Ñúñez"} {
		if res, body := call(t, "GET", s.url+"events", header("X-Forwarded-User", name)); res.StatusCode != http.StatusOK {
			t.Errorf("%q: %d %.200q, want 200", name, res.StatusCode, body)
		}
	}
	_, metrics := call(t, "GET", s.url+"metrics", header("X-Forwarded-User", "ada"))
	if want := `bulkdesk_auth_failures_total{reason="bad_user_header"} 1`; !strings.Contains(metrics, want) {
		t.Errorf("no %s in the metrics:\n%.3000s", want, metrics)
	}
}

func TestServeSlowsGuessesAtBasicPasswords(t *testing.T) {
	file := writeHtpasswd(t, "ada:"+bcryptHash(t, "ada's secret"))
	stopped := time.Unix(1_800_000_000, 0) // every attempt at the same moment
	s := startSecuredWith(t, func(cfg *serveConfig) { cfg.access.now = func() time.Time { return stopped } },
		"-auth", "basic", "-auth-file", file)
	signIn := func(name, password string) *http.Response {
		res, _ := call(t, "GET", s.url, func(r *http.Request) { r.SetBasicAuth(name, password) })
		return res
	}
	// A session opened before the guessing goes on through it.
	res := signIn("ada", "ada's secret")
	var session *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "bulkdesk-session" {
			session = c
		}
	}
	if session == nil {
		t.Fatalf("ada: %d and no session cookie", res.StatusCode)
	}
	for i, name := range []string{"ada", "ada", "bob", "ada", "carol", "ada"} {
		if res := signIn(name, "guess-"+name); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d, want 401", i+1, res.StatusCode)
		}
	}
	// Six failures from this address: the next attempt waits a second,
	// and the clock does not move.
	res = signIn("ada", "ada's secret")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" {
		t.Errorf("the right password after six failures at once: %d, Retry-After %q, want 429 after 1", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res, _ := call(t, "GET", s.url+"events", func(r *http.Request) { r.AddCookie(session) }); res.StatusCode != http.StatusOK {
		t.Errorf("the session opened before: %d, want 200", res.StatusCode)
	}
	logs := s.logs.waitFor(t, "reason=unknown_user user=carol")
	for _, secret := range []string{"guess-", "ada's secret"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds a password:\n%s", logs)
		}
	}
	_, metrics := call(t, "GET", s.url+"metrics", func(r *http.Request) { r.AddCookie(session) })
	for _, want := range []string{
		`bulkdesk_auth_failures_total{reason="wrong_password"} 4`,
		`bulkdesk_auth_failures_total{reason="unknown_user"} 2`,
		`bulkdesk_auth_throttled_total{by="address"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("no %s in the metrics:\n%.3000s", want, metrics)
		}
	}
}
