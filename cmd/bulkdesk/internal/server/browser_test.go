//go:build !js

package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
	"github.com/chromedp/chromedp"
)

// liveServer is the real server on a loopback port, with the built console.
type liveServer struct {
	URL  string // of the console, ending in its prefix
	http *http.Server
}

// startConsole serves the embedded console on 127.0.0.1 under prefix. The
// console must have been built (make build; make test does it).
func startConsole(t testing.TB, prefix string) *liveServer {
	t.Helper()
	return startConsoleWith(t, server.Options{Prefix: prefix})
}

// startConsoleWith is startConsole with every option of the server.
func startConsoleWith(t testing.TB, o server.Options) *liveServer {
	t.Helper()
	browsertest.NeedConsole(t)
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	ls := &liveServer{URL: "http://" + ln.Addr().String() + s.Prefix(), http: hs}
	t.Cleanup(ls.Stop)
	return ls
}

// Stop closes the server and every connection to it.
func (s *liveServer) Stop() { s.http.Close() }

// writeTransfers writes a request body of n payroll transfers to a file,
// with a lower-case currency (an error) in the elements listed in bad.
func writeTransfers(t testing.TB, name string, n int, bad ...int) string {
	t.Helper()
	return browsertest.WriteFile(t, name, fixture.Payroll.Body(n, bad...))
}

// counts reads the summary's figures.
func counts(b *browsertest.Browser) map[string]string {
	return browsertest.Eval[map[string]string](b, 5*time.Second, `(() => {
  const out = {};
  for (const dd of document.querySelectorAll(".summary dd")) out[dd.id] = dd.textContent;
  return out;
})()`)
}

func TestConsoleValidatesAFileOnlineAndOffline(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/console/")
	file := writeTransfers(t, "payroll.json", 1000, 7, 512)

	b.Do(30*time.Second, browsertest.Instrument(), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)

	want := map[string]string{"count-elements": "1,000", "count-valid": "998", "count-invalid": "2", "count-errors": "2", "count-warnings": "0", "count-duplicates": "0"}
	if got := counts(b); !mapsEqual(got, want) {
		t.Errorf("summary = %v, want %v", got, want)
	}
	// The worker that read it is the one app.js started with the page.
	if !browsertest.Eval[bool](b, 5*time.Second, `performance.getEntriesByName("bulkdesk:worker-adopted").length === 1`) {
		t.Error("the page started a worker of its own instead of adopting the one started with it")
	}
	problems := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#problems li")].map(li => li.textContent)`)
	if len(problems) != 2 || !strings.Contains(problems[0], "Element 7") || !strings.Contains(problems[1], "Element 512") ||
		!strings.Contains(problems[0], "destinationAmount.currency") {
		t.Errorf("problems = %q, want the currency of elements 7 and 512", problems)
	}
	if said := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("announcer").textContent`); !strings.Contains(said, "payroll.json validated: 1,000 elements, 998 valid, 2 invalid") {
		t.Errorf("the live region says %q", said)
	}
	b.AssertNoErrors()

	// Offline: once the service worker has cached everything, the console
	// loads and validates with the server stopped.
	reopenOffline(t, b, srv)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the validation result offline", browsertest.ReviewShown)
	if got := counts(b); !mapsEqual(got, want) {
		t.Errorf("offline summary = %v, want %v", got, want)
	}
	// Offline, the connectivity probe fails, and the browser logs it.
	b.AssertNoErrors("net::ERR_FAILED", "net::ERR_CONNECTION_REFUSED")
}

// reopenOffline waits for the console to be ready offline, stops the
// server, reloads the page and waits for the console and its offline badge.
func reopenOffline(t testing.TB, b *browsertest.Browser, srv *liveServer) {
	t.Helper()
	waitForOfflineCache(t, b, srv)
	srv.Stop()
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start offline", browsertest.Interactive)
	b.WaitFor(15*time.Second, "the offline badge", `document.querySelector("#connectivity.badge-offline")?.textContent === "Offline"`)
}

// waitForOfflineCache waits until the service worker controls the page and
// its cache holds every URL it lists.
func waitForOfflineCache(t testing.TB, b *browsertest.Browser, srv *liveServer) {
	t.Helper()
	res, err := http.Get(srv.URL + "app-worker.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const resourcesToCache = (\[.*\]);`).FindStringSubmatch(readAll(t, res))
	if m == nil {
		t.Fatal("app-worker.js lists no resources to cache")
	}
	var urls []string
	if err := json.Unmarshal([]byte(m[1]), &urls); err != nil {
		t.Fatal(err)
	}
	b.WaitFor(30*time.Second, "the service worker to control the page", `navigator.serviceWorker.controller !== null`)
	b.WaitFor(30*time.Second, fmt.Sprintf("the %d URLs of the console in the cache", len(urls)), fmt.Sprintf(`(async () => {
  let n = 0;
  for (const key of await caches.keys()) n += (await (await caches.open(key)).keys()).length;
  return n >= %d;
})()`, len(urls)))
}

func readAll(t testing.TB, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
