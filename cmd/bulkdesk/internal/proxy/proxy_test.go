package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

const (
	secretKey   = "key-do-not-log-1234"
	secretToken = "token-do-not-log-5678"
	secretRef   = "ref-do-not-log-9"
)

// mustProxy serves the proxy in front of upstream on 127.0.0.1; log
// collects what it logs.
func mustProxy(t *testing.T, upstream string, log *fixture.LogBuffer) *httptest.Server {
	t.Helper()
	var logger *slog.Logger
	if log != nil {
		logger = slog.New(slog.NewTextHandler(log, nil))
	}
	return serveProxy(t, proxy.Config{APIURL: upstream + "/multi", BackOfficeURL: upstream + "/multi/backoffice/", Logger: logger})
}

// serveProxy serves the proxy cfg makes on 127.0.0.1 until the test ends.
func serveProxy(t *testing.T, cfg proxy.Config) *httptest.Server {
	t.Helper()
	h, err := proxy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestHeadersAndPathsCrossAsTheContractNeeds(t *testing.T) {
	type seen struct {
		path, query string
		header      http.Header
		body        string
	}
	got := make(chan seen, 1)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(b)}
		w.Header().Set("request-ref", "rr-1")
		w.Header().Set("x-ratelimit-limit", "20, 20;w=60")
		w.Header().Set("x-ratelimit-reset", "12")
		w.Header().Set("Set-Cookie", "session=api")
		w.Header().Set("Server", "upstream/1.0")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"message":"slow down"}`)
	}))
	defer upstream.Close()
	var log fixture.LogBuffer
	srv := mustProxy(t, upstream.URL, &log)

	req, _ := http.NewRequest("POST", srv.URL+"/api/bulks/transfers?x=1", strings.NewReader(`[{"requestBody":{"tag":"payroll"}}]`))
	req.Header.Set("Authorization", "Bearer "+secretToken)
	req.Header.Set("api-key", secretKey)
	req.Header.Set("idempotency-ref", secretRef)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", "console-session=abc")
	req.Header.Set("X-Console", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	in := <-got
	if in.path != "/multi/bulks/transfers" || in.query != "x=1" || in.body != `[{"requestBody":{"tag":"payroll"}}]` {
		t.Errorf("upstream got %s?%s %q", in.path, in.query, in.body)
	}
	for h, want := range map[string]string{"Authorization": "Bearer " + secretToken, "Api-Key": secretKey, "Idempotency-Ref": secretRef, "Content-Type": "application/json"} {
		if in.header.Get(h) != want {
			t.Errorf("upstream header %s = %q", h, in.header.Get(h))
		}
	}
	for _, h := range []string{"Cookie", "X-Console", "X-Forwarded-For", "X-Forwarded-Host", "Forwarded"} {
		if in.header.Get(h) != "" {
			t.Errorf("header %s crossed the proxy", h)
		}
	}
	if resp.StatusCode != 429 || string(body) != `{"message":"slow down"}` {
		t.Errorf("answer %d %s", resp.StatusCode, body)
	}
	for h, want := range map[string]string{"request-ref": "rr-1", "x-ratelimit-limit": "20, 20;w=60", "x-ratelimit-reset": "12", "Content-Type": "application/json"} {
		if resp.Header.Get(h) != want {
			t.Errorf("answer header %s = %q", h, resp.Header.Get(h))
		}
	}
	if resp.Header.Get("Set-Cookie") != "" || resp.Header.Get("Server") != "" {
		t.Error("the API's cookie or server header reached the browser")
	}
	logged := log.WaitFor("status=429")
	for _, s := range []string{secretKey, secretToken, secretRef, "payroll", "slow down", "rr-1"} {
		if strings.Contains(logged, s) {
			t.Errorf("the log holds %q:\n%s", s, logged)
		}
	}
	if !strings.Contains(logged, "path=/api/bulks/transfers") || !strings.Contains(logged, "status=429") {
		t.Errorf("log lacks the call:\n%s", logged)
	}

	// The back-office prefix goes to the back-office API.
	resp, err = http.Post(srv.URL+"/backoffice/access_token", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if in := <-got; in.path != "/multi/backoffice/access_token" {
		t.Errorf("back-office call went to %s", in.path)
	}
}

func TestUnknownPathsAndTraversalAreRefused(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("upstream reached with %s", r.URL.Path)
	}))
	defer upstream.Close()
	h, err := proxy.New(proxy.Config{APIURL: upstream.URL + "/multi"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{
		"/backoffice/bulks": 404, "/apix/bulks": 404, "/other": 404,
		"/api/bulks/../../admin": 400, "/api/bulks/..;/admin": 400, "/api/bulks/%5C..%5Cadmin": 400,
		"/api/%252e%252e/admin": 400, "/api/bulks%2f..%2fadmin": 400, "/api/bulks/%2e%2e/admin": 400,
		"/api/bulks;jsessionid=1": 400,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want || !strings.Contains(rec.Body.String(), "message") {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
	for _, bad := range []string{"", "/multi", "ftp://x/multi", "http://u:p@x/multi"} {
		if _, err := proxy.New(proxy.Config{APIURL: bad}); err == nil {
			t.Errorf("API URL %q accepted", bad)
		}
	}
}

func TestBodiesStreamBothWays(t *testing.T) {
	firstIn := make(chan string, 1)
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 5)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			t.Error(err)
			return
		}
		firstIn <- string(buf)
		rest, _ := io.ReadAll(r.Body)
		io.WriteString(w, "head|")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "tail:"+string(rest))
	}))
	defer upstream.Close()
	srv := mustProxy(t, upstream.URL, nil)

	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", srv.URL+"/api/stream", pr)
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		done <- result{resp, err}
	}()
	pw.Write([]byte("first"))
	select {
	case s := <-firstIn:
		if s != "first" {
			t.Fatalf("upstream read %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the request body was held back by the proxy")
	}
	pw.Write([]byte("second"))
	pw.Close()
	var res result
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no answer headers while the upstream was still writing")
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	defer res.resp.Body.Close()
	head := make([]byte, 5)
	readDone := make(chan error, 1)
	go func() { _, err := io.ReadFull(res.resp.Body, head); readDone <- err }()
	select {
	case err := <-readDone:
		if err != nil || string(head) != "head|" {
			t.Fatalf("read %q, %v", head, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the answer's first part was held back by the proxy")
	}
	close(release)
	rest, _ := io.ReadAll(res.resp.Body)
	if string(rest) != "tail:second" {
		t.Errorf("rest %q", rest)
	}
}

func TestAnAbsentAPIIsA502WithoutSecrets(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	var log fixture.LogBuffer
	srv := mustProxy(t, url, &log)
	req, _ := http.NewRequest("GET", srv.URL+"/api/bulks", nil)
	req.Header.Set("api-key", secretKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != 502 || !strings.Contains(body["message"], "could not be reached") || strings.Contains(body["message"], strings.TrimPrefix(url, "http://")) {
		t.Errorf("%d %v: want a 502 that does not name the API's address", resp.StatusCode, body)
	}
	if strings.Contains(log.WaitFor("status=502"), secretKey) || strings.Contains(body["message"], secretKey) {
		t.Error("a secret leaked")
	}
}

func TestTheClientWorksThroughTheProxy(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{APIKey: secretKey, Token: secretToken, OpsPerSecond: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	api := httptest.NewServer(sb)
	defer api.Close()
	srv := mustProxy(t, api.URL, nil)
	c, err := bulkapi.New(bulkapi.Config{BaseURL: srv.URL + proxy.APIPrefix, BackOfficeURL: srv.URL + proxy.BackOfficePrefix, APIKey: secretKey, Token: secretToken})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	kind, _ := schema.Lookup("transfers")
	sb.Faults().Next(sandbox.RateLimit, 1)
	_, err = c.Submit(ctx, kind, fixture.SampleBody(3), "r1")
	if e, ok := bulkapi.AsError(err); !ok || e.Status != 429 || e.RateLimitReset != time.Second || e.RequestRef == "" {
		t.Fatalf("429 through the proxy: %v", err)
	}
	rc, err := c.Submit(ctx, kind, fixture.SampleBody(3), "r1")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := c.Submit(ctx, kind, fixture.SampleBody(3), "r1"); err != nil || again.BulkID != rc.BulkID {
		t.Errorf("the idempotency-ref did not cross the proxy: %v %v", again, err)
	}
	if err := c.Execute(ctx, rc.BulkID, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	bo, _ := c.BackOffice()
	if _, err := bo.AccessToken(ctx, bulkapi.Identity{Type: bulkapi.Corporate, ID: "5"}); err != nil {
		t.Errorf("back-office access token through the proxy: %v", err)
	}
}

// endlessBody is a body that must never be read far: it fails the test
// beyond its first kilobyte.
type endlessBody struct {
	t    *testing.T
	read int
}

func (b *endlessBody) Read(p []byte) (int, error) {
	b.read += len(p)
	if b.read > 1<<10 {
		b.t.Error("the proxy read a body it had to refuse")
		return 0, io.EOF
	}
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func TestADeclaredBodyOverTheLimitIsRefusedUnread(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("upstream reached")
	}))
	defer upstream.Close()
	h, err := proxy.New(proxy.Config{APIURL: upstream.URL + "/multi"})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/api/bulks/transfers", &endlessBody{t: t})
	req.ContentLength = 100 << 20
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("%d %s", rec.Code, rec.Body.String())
	}
}

func TestAnswersAreNeverCached(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		io.WriteString(w, `{"token":"t"}`)
	}))
	defer upstream.Close()
	srv := mustProxy(t, upstream.URL, nil)
	resp, err := http.Post(srv.URL+"/backoffice/access_token", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Values("Cache-Control"); len(got) != 1 || got[0] != "no-store" {
		t.Errorf("Cache-Control %q", got)
	}
}

func TestASilentAPIIsA504(t *testing.T) {
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer upstream.Close()
	defer close(release)
	h, err := proxy.New(proxy.Config{APIURL: upstream.URL + "/multi", HeaderTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/bulks")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusGatewayTimeout || !strings.Contains(string(body), "in time") || strings.Contains(string(body), "127.0.0.1") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

func TestEveryCallIsObserved(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	}))
	defer upstream.Close()
	type call struct {
		api    string
		status int
	}
	var calls []call
	h, err := proxy.New(proxy.Config{APIURL: upstream.URL + "/multi", BackOfficeURL: upstream.URL + "/multi/backoffice",
		Observe: func(api string, status int, d time.Duration) { calls = append(calls, call{api, status}) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/bulks/transfers", "/backoffice/access_token", "/api/bulks/..;/x"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", path, strings.NewReader("[]")))
	}
	want := []call{{"standard", 201}, {"backoffice", 201}, {"standard", 400}}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("observed %v, want %v", calls, want)
	}
}
