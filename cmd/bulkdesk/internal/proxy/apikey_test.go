package proxy_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
)

const (
	serverKey           = "server-key-do-not-log-31"
	serverBackOfficeKey = "server-backoffice-key-do-not-log-47"
)

// keyedProxy serves, on 127.0.0.1, the proxy with the server's api-keys in
// front of upstream; log collects what it logs.
func keyedProxy(t *testing.T, upstream string, log *fixture.LogBuffer) *httptest.Server {
	t.Helper()
	return serveProxy(t, proxy.Config{
		APIURL: upstream + "/multi", BackOfficeURL: upstream + "/multi/backoffice",
		APIKey: serverKey, BackOfficeAPIKey: serverBackOfficeKey,
		Logger: slog.New(slog.NewTextHandler(log, nil)), CallTimeout: 10 * time.Second,
	})
}

func TestEveryCallCarriesTheServersKeyForItsAPI(t *testing.T) {
	type seen struct {
		path string
		keys []string
	}
	got := make(chan seen, 1)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.URL.Path, r.Header.Values("api-key")}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"message":"ok"}`)
	}))
	defer upstream.Close()
	var log fixture.LogBuffer
	srv := keyedProxy(t, upstream.URL, &log)
	client := &http.Client{Timeout: 10 * time.Second}

	for _, c := range []struct {
		method, path, browserKey, wantPath, wantKey string
	}{
		{"GET", "/api/bulks", "", "/multi/bulks", serverKey},
		{"GET", "/api/bulks", "an-operators-own-key", "/multi/bulks", serverKey},
		{"POST", "/api/bulks/transfers", "an-operators-own-key", "/multi/bulks/transfers", serverKey},
		{"GET", "/backoffice/bulks", "", "/multi/backoffice/bulks", serverBackOfficeKey},
		{"PATCH", "/backoffice/bulks/card_spend_rules", "an-operators-own-key", "/multi/backoffice/bulks/card_spend_rules", serverBackOfficeKey},
		// The back-office API issues its tokens to the key alone.
		{"POST", "/backoffice/access_token", "", "/multi/backoffice/access_token", serverBackOfficeKey},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+secretToken)
		if c.browserKey != "" {
			req.Header.Set("api-key", c.browserKey)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		in := <-got
		if in.path != c.wantPath || len(in.keys) != 1 || in.keys[0] != c.wantKey {
			t.Errorf("%s %s with api-key %q: the API got %s with api-keys %q, want %q", c.method, c.path, c.browserKey, in.path, in.keys, c.wantKey)
		}
		for _, key := range []string{serverKey, serverBackOfficeKey} {
			if strings.Contains(string(body), key) || strings.Contains(strings.Join(headerLines(resp.Header), "\n"), key) {
				t.Errorf("%s %s: the answer holds the server's key", c.method, c.path)
			}
		}
	}
	logged := log.WaitFor("path=/backoffice/access_token")
	for _, key := range []string{serverKey, serverBackOfficeKey} {
		if strings.Contains(logged, key) {
			t.Errorf("the log holds a server key:\n%s", logged)
		}
	}
}

func TestTheServersKeyIsInNoAnswerNorLogWhenTheAPIFails(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic(http.ErrAbortHandler) // the connection drops without an answer
	}))
	defer upstream.Close()
	var log fixture.LogBuffer
	srv := keyedProxy(t, upstream.URL, &log)
	client := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"/api/bulks", "/backoffice/access_token"} {
		resp, err := client.Post(srv.URL+path, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
		if strings.Contains(string(body), serverKey) || strings.Contains(string(body), serverBackOfficeKey) {
			t.Errorf("%s: the answer holds a server key: %s", path, body)
		}
	}
	logged := log.WaitFor("path=/backoffice/access_token status=502")
	if !strings.Contains(logged, "no answer from the API") {
		t.Errorf("the failure is not logged:\n%s", logged)
	}
	if strings.Contains(logged, serverKey) || strings.Contains(logged, serverBackOfficeKey) {
		t.Errorf("the log holds a server key:\n%s", logged)
	}
}

// headerLines is every header of an answer as "Name: value".
func headerLines(h http.Header) []string {
	var out []string
	for name, values := range h {
		for _, v := range values {
			out = append(out, name+": "+v)
		}
	}
	return out
}
