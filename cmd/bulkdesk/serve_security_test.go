package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
	"golang.org/x/crypto/bcrypt"
)

// securedServe is "bulkdesk serve" with the sandbox, run in the test on
// 127.0.0.1 with the mini console, its log lines readable by the test.
type securedServe struct {
	url      string // the console listener's root, ending in "/"
	webhooks string // the webhook listener's base, http://ADDR/webhooks, with -webhook-addr
	logs     *lineLog
	// stop stops the server, as a deployment or a crash would, before the
	// test ends; it returns what serve returned.
	stop func() error
}

// startSecured runs serve with -sandbox and args; it is stopped when the
// test ends.
func startSecured(t testing.TB, args ...string) *securedServe {
	t.Helper()
	return startSecuredWith(t, func(*serveConfig) {}, args...)
}

// startSecuredWith is startSecured with set changing what the flags say
// (what no flag sets, such as how often the state folder is checked).
func startSecuredWith(t testing.TB, set func(*serveConfig), args ...string) *securedServe {
	t.Helper()
	logs := newLineLog()
	cfg, err := parseServe(append([]string{"-addr", "127.0.0.1:0", "-sandbox"}, args...), func(string) string { return "" }, logs)
	if err != nil {
		t.Fatal(err)
	}
	cfg.options.Assets = miniConsole(t)
	set(&cfg)
	webhookURLs := make(chan string, 1)
	cfg.webhookReady = func(u string) { webhookURLs <- u }
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serveConsole(ctx, cfg, func(u string) { urls <- u }) }()
	s := &securedServe{logs: logs}
	select {
	case s.url = <-urls:
	case err := <-done:
		cancel()
		t.Fatalf("serve stopped at once: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("serve did not start within 10 s")
	}
	if cfg.webhookAddr != "" {
		s.webhooks = <-webhookURLs // sent before serveConsole serves, right after ready
	}
	var once sync.Once
	var stopErr error
	s.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(15 * time.Second):
				stopErr = errors.New("serve did not stop within 15 s")
			}
		})
		return stopErr
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s
}

// lineLog keeps what serve logs, safe to read while it writes.
type lineLog struct {
	mu      sync.Mutex
	buf     strings.Builder
	written chan struct{} // signalled after each write
}

func newLineLog() *lineLog { return &lineLog{written: make(chan struct{}, 1)} }

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer func() {
		select {
		case l.written <- struct{}{}:
		default: // a signal is already waiting
		}
	}()
	return l.buf.Write(p)
}

// waitFor returns the log once it holds text, failing the test after 10 s.
func (l *lineLog) waitFor(t *testing.T, text string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		if s := l.String(); strings.Contains(s, text) {
			return s
		}
		select {
		case <-l.written:
		case <-timeout:
			t.Fatalf("the log never showed %q:\n%s", text, l.String())
		}
	}
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// call makes one request and returns the answer with its body (the
// stream's first bytes are not waited for: its headers say enough).
func call(t *testing.T, method, url string, setup ...func(*http.Request)) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range setup {
		f(req)
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return res, ""
	}
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res, string(b)
}

// consolePaths are requests for each part of the console listener: the
// page, an asset, the API proxy (standard and back-office), the events,
// their stream, the sandbox and its fault switch. api marks those that
// reach the sandbox API, which wants its own credentials.
var consolePaths = []struct {
	method, path string
	api          bool
}{
	{"GET", "", false},
	{"GET", "app.js", false},
	{"GET", "web/console.css", false},
	{"GET", "api/bulks/none", true},
	{"GET", "backoffice/bulks/none", true},
	{"GET", "events", false},
	{"GET", "events/stream", false},
	{"GET", "sandbox/multi/bulks/none", true},
	{"POST", "sandbox/sandbox/faults", true},
	{"GET", "metrics", false},
}

// apiCredentials are the sandbox API's own, which the console sends.
func apiCredentials(r *http.Request) {
	r.Header.Set("api-key", sandbox.DefaultAPIKey)
	r.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)
}

// checkProtected asks for every part of the console without an identity
// (401 expected) and with one (anything but 401 and 421; the API's
// answers carry the sandbox's request-ref, so they did reach it).
func checkProtected(t *testing.T, s *securedServe, identity func(*http.Request), extra ...struct {
	method, path string
	api          bool
}) {
	t.Helper()
	for _, p := range append(consolePaths, extra...) {
		res, _ := call(t, p.method, s.url+p.path)
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s /%s without an identity: %d, want 401", p.method, p.path, res.StatusCode)
		}
		setup := []func(*http.Request){identity}
		if p.api {
			setup = append(setup, apiCredentials)
		}
		res, body := call(t, p.method, s.url+p.path, setup...)
		if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusMisdirectedRequest || res.StatusCode >= 500 {
			t.Errorf("%s /%s with an identity: %d %.200s", p.method, p.path, res.StatusCode, body)
		}
		if p.api && res.Header.Get("request-ref") == "" {
			t.Errorf("%s /%s with an identity did not reach the sandbox: %d %.200s", p.method, p.path, res.StatusCode, body)
		}
	}
	if res, body := call(t, "GET", s.url+"healthz"); res.StatusCode != http.StatusOK || body != "ok\n" {
		t.Errorf("GET /healthz without an identity: %d %q, want 200", res.StatusCode, body)
	}
	// The web app manifest, which Chromium may fetch without credentials,
	// is served without them: it holds no operator's data.
	if res, body := call(t, "GET", s.url+"manifest.webmanifest"); res.StatusCode != http.StatusOK || !strings.Contains(body, `"name"`) {
		t.Errorf("GET /manifest.webmanifest without an identity: %d %.200q, want 200", res.StatusCode, body)
	}
	if res, _ := call(t, "POST", s.url+"manifest.webmanifest"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /manifest.webmanifest without an identity: %d, want 401", res.StatusCode)
	}
}

func header(name, value string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(name, value) }
}

func TestServeHeaderAuthFromATrustedProxy(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-webhook-addr", "127.0.0.1:0")
	webhooksHere := struct {
		method, path string
		api          bool
	}{"POST", "webhooks/bulk_process_end/watch", false}
	checkProtected(t, s, header("X-Forwarded-User", "ada"), webhooksHere)
	// With an identity, webhooks on the console listener are simply not there.
	if res, _ := call(t, "POST", s.url+"webhooks/bulk_process_end/watch", header("X-Forwarded-User", "ada")); res.StatusCode != http.StatusNotFound {
		t.Errorf("POST webhooks/… on the console listener: %d, want 404", res.StatusCode)
	}
	if res, _ := call(t, "GET", s.url, header("x-forwarded-user", "")); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("an empty user header: %d, want 401", res.StatusCode)
	}

	// The proxied call is logged with the user, never with a credential.
	call(t, "GET", s.url+"api/bulks/logged", header("X-Forwarded-User", "ada"), apiCredentials)
	// The line is written as the handler returns, after the answer.
	logs := s.logs.waitFor(t, "path=/api/bulks/logged")
	var line string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "msg=proxy") && strings.Contains(l, "path=/api/bulks/logged") {
			line = l
		}
	}
	if !strings.Contains(line, "user=ada") {
		t.Errorf("the proxied call's log line does not name the user: %q", line)
	}
	for _, secret := range []string{sandbox.DefaultAPIKey, sandbox.DefaultToken, "Bearer"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds %q:\n%s", secret, logs)
		}
	}

	// A header auth whose trusted proxies leave 127.0.0.1 out ignores the
	// header: anyone reaching the listener could have written it.
	other := startSecured(t, "-auth", "header", "-trusted-proxies", "10.0.0.0/8,192.168.0.0/16")
	for _, p := range []string{"", "api/bulks/none", "events"} {
		if res, _ := call(t, "GET", other.url+p, header("X-Forwarded-User", "ada"), apiCredentials); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET /%s from an untrusted peer with the header: %d, want 401", p, res.StatusCode)
		}
	}
}

func writeHtpasswd(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "htpasswd")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func bcryptHash(t *testing.T, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

func TestServeBasicAuth(t *testing.T) {
	// Apache's htpasswd -B writes $2y$; it hashes as $2a$ does.
	y := "$2y$" + strings.TrimPrefix(bcryptHash(t, "bob's secret"), "$2a$")
	file := writeHtpasswd(t, "# Bulkdesk", "ada:"+bcryptHash(t, "ada's secret"), "bob:"+y)
	s := startSecured(t, "-auth", "basic", "-auth-file", file)

	res, _ := call(t, "GET", s.url)
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") != `Basic realm="Bulkdesk"` {
		t.Errorf("no credentials: %d, WWW-Authenticate %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	for _, wrong := range [][2]string{{"ada", "bob's secret"}, {"carol", "ada's secret"}, {"ada", ""}} {
		if res, _ := call(t, "GET", s.url, func(r *http.Request) { r.SetBasicAuth(wrong[0], wrong[1]) }); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s with a wrong password: %d, want 401", wrong[0], res.StatusCode)
		}
	}
	if res, _ := call(t, "GET", s.url, func(r *http.Request) { r.SetBasicAuth("bob", "bob's secret") }); res.StatusCode != http.StatusOK {
		t.Errorf("bob, with a $2y$ hash: %d, want 200", res.StatusCode)
	}
	res, _ = call(t, "GET", s.url, func(r *http.Request) { r.SetBasicAuth("ada", "ada's secret") })
	if res.StatusCode != http.StatusOK {
		t.Fatalf("ada: %d, want 200", res.StatusCode)
	}
	var session *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "bulkdesk-session" {
			session = c
		}
	}
	if session == nil {
		t.Fatal("no session cookie after signing in")
	}
	// The console's API calls carry the API's Bearer token, so the
	// browser cannot add Basic credentials: the session cookie stands in.
	checkProtected(t, s, func(r *http.Request) { r.AddCookie(session) })
	if res, _ := call(t, "GET", s.url+"events", func(r *http.Request) { r.SetBasicAuth("ada", "ada's secret") }); res.StatusCode != http.StatusOK {
		t.Errorf("events with Basic credentials: %d, want 200", res.StatusCode)
	}
	// The metrics count the calls checkProtected proxied to the sandbox.
	_, metrics := call(t, "GET", s.url+"metrics", func(r *http.Request) { r.AddCookie(session) })
	for _, want := range []string{`bulkdesk_proxy_call_seconds_count{api="standard",status="404"}`, `bulkdesk_proxy_call_seconds_count{api="backoffice",status="403"}`, "bulkdesk_event_streams_open"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("no %s in the metrics:\n%.2000s", want, metrics)
		}
	}
}

func TestServeAnswersOnlyItsOwnHostNames(t *testing.T) {
	s := startSecured(t)
	port := strings.TrimSuffix(s.url[strings.LastIndex(s.url, ":")+1:], "/")
	for host, want := range map[string]int{
		"127.0.0.1:" + port: http.StatusOK, "localhost:" + port: http.StatusOK, "[::1]:" + port: http.StatusOK,
		"attacker.example": http.StatusMisdirectedRequest, "attacker.example:" + port: http.StatusMisdirectedRequest,
		"127.0.0.1.nip.io:" + port: http.StatusMisdirectedRequest,
	} {
		for _, p := range []string{"", "events", "api/bulks/none"} {
			res, _ := call(t, "GET", s.url+p, func(r *http.Request) { r.Host = host }, apiCredentials)
			if got := res.StatusCode; (want == http.StatusOK) == (got == http.StatusMisdirectedRequest) {
				t.Errorf("GET /%s for Host %q: %d", p, host, got)
			}
		}
	}
	named := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-allowed-hosts", "bulkdesk.internal.example")
	for host, want := range map[string]int{"bulkdesk.internal.example:443": http.StatusOK, "127.0.0.1:" + port: http.StatusMisdirectedRequest} {
		if res, _ := call(t, "GET", named.url, func(r *http.Request) { r.Host = host }, header("X-Forwarded-User", "ada")); res.StatusCode != want {
			t.Errorf("-allowed-hosts, Host %q: %d, want %d", host, res.StatusCode, want)
		}
	}
}

func TestServeWebhookListenerServesWebhooksAlone(t *testing.T) {
	const key = "security-test-key"
	s := startSecured(t, "-webhook-addr", "127.0.0.1:0", "-webhook-key", key)
	root := strings.TrimSuffix(s.webhooks, "webhooks")
	for _, p := range []string{"", "events", "events/stream", "api/bulks/none", "sandbox/multi/bulks/none", "web/console.css"} {
		if res, _ := call(t, "GET", root+p, apiCredentials); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET /%s on the webhook listener: %d, want 404", p, res.StatusCode)
		}
	}
	if res, body := call(t, "GET", root+"healthz"); res.StatusCode != http.StatusOK || body != "ok\n" {
		t.Errorf("GET /healthz on the webhook listener: %d %q", res.StatusCode, body)
	}
	// The console listener no longer takes webhooks.
	if res, _ := call(t, "POST", s.url+"webhooks/bulk_process_end/watch"); res.StatusCode != http.StatusNotFound {
		t.Errorf("POST webhooks/… on the console listener: %d, want 404", res.StatusCode)
	}
	// A signed event, sent by whatever name the API knows the host by,
	// is accepted there and shows on the console listener.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sender := &webhook.Sender{Key: webhook.NewKey(key), Client: &http.Client{Transport: hostRewriter{"api-facing.example"}}}
	if err := sender.Send(ctx, s.webhooks, webhook.Delivery{Type: "/bulk_process_end/watch", Body: []byte(`{"bulkId":"b-security"}`), CallRef: "security-test"}); err != nil {
		t.Fatal(err)
	}
	if _, body := call(t, "GET", s.url+"events"); !strings.Contains(body, "b-security") {
		t.Errorf("the event did not reach the console: %s", body)
	}
}

// hostRewriter sends requests with another Host header, as a request to
// the server under a public name would arrive.
type hostRewriter struct{ host string }

func (h hostRewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeRefusesToExposeTheConsoleWithoutAuth(t *testing.T) {
	noEnv := func(string) string { return "" }
	for _, args := range [][]string{
		{"-addr", "0.0.0.0:0"},
		{"-addr", ":0"},
		{"-addr", "127.0.0.1:0", "-webhook-addr", "0.0.0.0:0", "-webhook-key", "k"},
		{"-addr", "0.0.0.0:0", "-auth", "none", "-allowed-hosts", "console.example"},
	} {
		_, err := parseServe(args, noEnv, io.Discard)
		if err == nil {
			t.Errorf("%q: accepted", args)
			continue
		}
		for _, want := range []string{"-auth header", "-trusted-proxies", "-auth basic", "-auth-file"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %v, which does not say %q", args, err, want)
			}
		}
	}
	_, err := parseServe(nil, func(k string) string {
		return map[string]string{envAddr: "0.0.0.0:0"}[k]
	}, io.Discard)
	if err == nil {
		t.Error("BULKDESK_ADDR=0.0.0.0:0 without auth: accepted")
	}
	// serveConsole holds the rule too, whoever made its configuration.
	cfg := serveConfig{addr: "0.0.0.0:0"}
	cfg.options.Assets = miniConsole(t)
	if err := serveConsole(context.Background(), cfg, func(string) { t.Error("it listened") }); err == nil || !strings.Contains(err.Error(), "-auth basic") {
		t.Errorf("serveConsole on 0.0.0.0 without auth: %v", err)
	}

	file := writeHtpasswd(t, "ada:"+bcryptHash(t, "x"), "bob")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-auth", "header"}, []string{"-trusted-proxies"}},
		{[]string{"-auth", "header", "-trusted-proxies", "10.0.0.0/33"}, []string{"10.0.0.0/33"}},
		{[]string{"-auth", "basic"}, []string{"-auth-file"}},
		{[]string{"-auth", "basic", "-auth-file", file}, []string{file, "line 2"}},
		{[]string{"-auth", "basic", "-auth-file", file + ".absent"}, []string{file + ".absent"}},
		{[]string{"-auth", "sso"}, []string{"none, header or basic"}},
		{[]string{"-addr", "0.0.0.0:0", "-auth", "header", "-trusted-proxies", "10.0.0.0/8"}, []string{"-allowed-hosts"}},
		{[]string{"-auth", "header", "-trusted-proxies", "10.0.0.0/8", "-webhook-key", "k"}, []string{"-webhook-addr"}},
	} {
		_, err := parseServe(tc.args, noEnv, io.Discard)
		for _, want := range tc.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %v, want an error naming %q", tc.args, err, want)
			}
		}
	}
	// The environment chooses as the flags do.
	env := map[string]string{envAddr: "0.0.0.0:8080", envAuth: "header", envTrustedProxies: "10.0.0.0/8", envAuthHeader: "X-Auth-Request-User", envAllowedHosts: "bulkdesk.example", envWebhookAddr: "0.0.0.0:8081", "BULKDESK_WEBHOOK_KEY": "k"}
	cfg, err = parseServe(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || cfg.access.mode != authHeader || cfg.access.header != "X-Auth-Request-User" || len(cfg.access.trusted) != 1 || cfg.webhookAddr != "0.0.0.0:8081" || strings.Join(cfg.access.hosts, ",") != "bulkdesk.example" {
		t.Errorf("from the environment: %+v, %v", cfg.access, err)
	}
	// With authentication, a network address is fine.
	if _, err := parseServe([]string{"-addr", "0.0.0.0:8080", "-auth", "header", "-trusted-proxies", "10.0.0.0/8", "-allowed-hosts", "bulkdesk.example", "-webhook-addr", "0.0.0.0:8081", "-webhook-key", "k"}, noEnv, io.Discard); err != nil {
		t.Errorf("a network setup with header auth: %v", err)
	}
}

// operatorAt is user's client of the API at base, a path below the
// console's root; with backOffice, of the back-office API there, with a
// token the API issued for the sandbox's identity.
func operatorAt(t *testing.T, s *securedServe, user, base string, backOffice bool) *bulkapi.Client {
	t.Helper()
	cfg := bulkapi.Config{BaseURL: s.url + base, APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken, Transport: asUser{user}}
	if !backOffice {
		c, err := bulkapi.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cfg.BaseURL, cfg.BackOfficeURL = s.url+"api", s.url+base
	c, err := bulkapi.New(cfg)
	if err == nil {
		c, err = c.BackOffice()
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tok, err := c.AccessToken(ctx, sandbox.DefaultIdentity)
	if err != nil {
		t.Fatalf("%s's back-office token at %s: %v", user, base, err)
	}
	return c.WithToken(tok.Token)
}

// TestServeFourEyesHoldsOnEveryRouteToTheSandbox: with -sandbox
// -four-eyes, a bulk submitted through any route of the console listener
// that leads to the sandbox is recorded, and its maker's execute is
// refused on every route that leads to the sandbox's execute: the
// proxy's api/… and backoffice/…, the back-office API below api/, and the
// sandbox's own sandbox/multi/…, sandbox/multi/backoffice/… and
// sandbox/backoffice/…. The checker's execute goes through.
func TestServeFourEyesHoldsOnEveryRouteToTheSandbox(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	spendRules, err := os.ReadFile(filepath.Join("..", "..", "schema", "testdata", "valid", "card_spend_rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		kind            string
		submit, execute string
		backOffice      bool
	}{
		{"transfers", "api", "sandbox/multi", false},
		{"transfers", "sandbox/multi", "sandbox/multi", false},
		{"transfers", "sandbox/multi", "api", false},
		{"transfers", "backoffice", "sandbox/multi/backoffice", true},
		{"transfers", "backoffice", "sandbox/backoffice", true},
		{"transfers", "backoffice", "api/backoffice", true},
		{"transfers", "sandbox/backoffice", "backoffice", true},
		// Card spend rules are submitted with PATCH.
		{"card_spend_rules", "backoffice", "backoffice", true},
		{"card_spend_rules", "api", "api", false},
	} {
		kind, _ := schema.Lookup(c.kind)
		body := fixture.SampleBody(1)
		if c.kind == "card_spend_rules" {
			body = spendRules
		}
		receipt, err := operatorAt(t, s, "alice", c.submit, c.backOffice).Submit(ctx, kind, body, fmt.Sprint("every-route-", i))
		if err != nil {
			t.Fatalf("alice submitting %s through %s: %v", c.kind, c.submit, err)
		}
		id := receipt.BulkID
		alice, bob := operatorAt(t, s, "alice", c.execute, c.backOffice), operatorAt(t, s, "bob", c.execute, c.backOffice)
		err = alice.Execute(ctx, id, bulkapi.ExecuteOptions{})
		if err == nil || !strings.Contains(err.Error(), "four eyes: bulk "+id+" was submitted by alice") {
			t.Errorf("%s submitted through %s, alice executing through %s: %v", c.kind, c.submit, c.execute, err)
		}
		if b, err := bob.Get(ctx, id); err != nil || b.Status != bulkapi.Submitted {
			t.Errorf("%s submitted through %s, alice's execute through %s reached the sandbox: %+v, %v", c.kind, c.submit, c.execute, b, err)
			continue
		}
		if err := bob.Execute(ctx, id, bulkapi.ExecuteOptions{}); err != nil {
			t.Errorf("%s submitted through %s, bob executing through %s: %v", c.kind, c.submit, c.execute, err)
		}
	}
}

// TestServeFourEyesHoldsOnTheSandboxBesideAnAPI: with -api-url, the
// sandbox under sandbox/… is an API of its own; its bulks are recorded
// and its execute gated all the same.
func TestServeFourEyesHoldsOnTheSandboxBesideAnAPI(t *testing.T) {
	api := httptest.NewServer(fakeapi.New())
	defer api.Close()
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", api.URL+"/multi", "-four-eyes", "-state-dir", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	kind, _ := schema.Lookup("transfers")
	for i, c := range []struct {
		base       string
		backOffice bool
	}{{"sandbox/multi", false}, {"sandbox/backoffice", true}} {
		receipt, err := operatorAt(t, s, "alice", c.base, c.backOffice).Submit(ctx, kind, fixture.SampleBody(1), fmt.Sprint("beside-", i))
		if err != nil {
			t.Fatal(err)
		}
		id := receipt.BulkID
		err = operatorAt(t, s, "alice", c.base, c.backOffice).Execute(ctx, id, bulkapi.ExecuteOptions{})
		if err == nil || !strings.Contains(err.Error(), "four eyes: bulk "+id+" was submitted by alice") {
			t.Errorf("alice executing her sandbox bulk through %s: %v", c.base, err)
		}
		if err := operatorAt(t, s, "bob", c.base, c.backOffice).Execute(ctx, id, bulkapi.ExecuteOptions{}); err != nil {
			t.Errorf("bob executing alice's sandbox bulk through %s: %v", c.base, err)
		}
	}
	// The sandbox's fault switch is served as before.
	if res, body := call(t, "POST", s.url+"sandbox/sandbox/faults", header("X-Forwarded-User", "bob"), apiCredentials); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "the body must be") {
		t.Errorf("the fault switch: %d %q", res.StatusCode, body)
	}
	if res, _ := call(t, "GET", s.url+"sandbox/elsewhere", header("X-Forwarded-User", "bob"), apiCredentials); res.StatusCode != http.StatusNotFound {
		t.Errorf("a path of no API of the sandbox: %d", res.StatusCode)
	}
}
