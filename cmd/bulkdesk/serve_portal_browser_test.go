//go:build !js

package main

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/chromedp/chromedp"
)

// TestConsoleBehindASignOnPortal runs the console as this folder's
// README.md describes under "Putting the server on a network": behind a
// portal that names the user in X-Forwarded-User, with -auth header
// trusting only the portal. The page, its service worker, its API calls
// through the proxy and the event list all pass through the portal, and
// the server itself turns away a browser that comes without it.
func TestConsoleBehindASignOnPortal(t *testing.T) {
	browsertest.SkipShort(t)
	srv := startServe(t, "-sandbox", "-auth", "header", "-trusted-proxies", "127.0.0.1/32")
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	portal := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Header.Set("X-Forwarded-User", "ada")
		},
		FlushInterval: -1, // the event stream
	})
	t.Cleanup(portal.Close)

	res, err := (&http.Client{Timeout: 5 * time.Second}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the console without the portal: %d, want 401", res.StatusCode)
	}

	b := openPage(t, portal.URL+"/")
	status := func(path string, headers map[string]string) int {
		t.Helper()
		h := "{"
		for k, v := range headers {
			h += browsertest.JSString(k) + ":" + browsertest.JSString(v) + ","
		}
		h += "}"
		return browsertest.Eval[int](b, 10*time.Second, `fetch(`+browsertest.JSString(path)+`, {headers: `+h+`, cache: "no-store"}).then(r => r.status)`)
	}
	if got := status("api/bulks", map[string]string{"api-key": sandbox.DefaultAPIKey, "Authorization": "Bearer " + sandbox.DefaultToken}); got != http.StatusOK {
		t.Errorf("the page's API call through the portal: %d, want the sandbox's 200", got)
	}
	if got := status("events", nil); got != http.StatusOK {
		t.Errorf("the page's events through the portal: %d, want 200", got)
	}
	b.AssertNoErrors()
}

// TestConsoleWithBasicAuth signs in with a name and password, as the
// browser does after its prompt, and uses the console: its API calls carry
// the API's Bearer token, so the session cookie has to stand in for the
// Basic credentials.
func TestConsoleWithBasicAuth(t *testing.T) {
	browsertest.SkipShort(t)
	file := writeHtpasswd(t, "ada:"+bcryptHash(t, "ada's secret"))
	srv := startServe(t, "-sandbox", "-auth", "basic", "-auth-file", file)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	// Signing in with credentials in the address stands in for the
	// browser's prompt; the console is then opened at its plain address,
	// since a page whose address holds credentials may not fetch.
	u.User = url.UserPassword("ada", "ada's secret")
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(u.String()+"robots.txt"))
	b.Do(30*time.Second, chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	fetchStatus := func(path, headers string) int {
		t.Helper()
		return browsertest.Eval[int](b, 10*time.Second, `fetch(`+browsertest.JSString(srv.URL+path)+`, {headers: `+headers+`, cache: "no-store"}).then(r => r.status)`)
	}
	bearer := `{"api-key": ` + browsertest.JSString(sandbox.DefaultAPIKey) + `, "Authorization": ` + browsertest.JSString("Bearer "+sandbox.DefaultToken) + `}`
	if got := fetchStatus("api/bulks", bearer); got != http.StatusOK {
		t.Errorf("the page's API call with its Bearer token: %d, want the sandbox's 200", got)
	}
	if got := fetchStatus("events", "{}"); got != http.StatusOK {
		t.Errorf("the page's events: %d, want 200", got)
	}
	// Nothing is refused, the web app manifest included: Chromium fetches
	// it without credentials at times, and the server serves it without.
	b.AssertNoErrors()
}
