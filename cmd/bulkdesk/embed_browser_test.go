//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// portalPage is the example host page of EMBEDDING.md,
// word for word but for the console's address and the operator's token,
// which the portal fills in: {{console}} and {{token}}.
const portalPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Payroll · Example portal</title>
  <script src="{{console}}embed.js"></script>
</head>
<body>
  <main>
    <h1>Payroll</h1>
    <div id="bulkdesk"></div>
  </main>
  <script>
    window.events = [];
    window.bulkdesk = Bulkdesk.open({
      container: document.getElementById("bulkdesk"),
      kind: "transfers",
      lang: "de",
      mode: "submit",
      token: "{{token}}",
      onEvent: (event) => window.events.push(event),
    });
  </script>
</body>
</html>
`

// intruderPage is a page of another origin inside the portal's page: it
// posts a file and a ping to the console's frame and events to the
// portal's page, and keeps whatever reaches it in its body's data-heard.
const intruderPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another origin</title></head>
<body data-heard="[]"><p>Another origin</p>
<script>
  const heard = [];
  addEventListener("message", (event) => {
    heard.push(event.data);
    document.body.dataset.heard = JSON.stringify(heard);
  });
  for (let i = 0; i < parent.frames.length; i++) {
    const w = parent.frames[i];
    if (w === window) continue;
    const file = new File([{{csv}}], "intruder.csv", {type: "text/csv"});
    w.postMessage({bulkdesk: 1, type: "file", file, fileName: "intruder.csv"}, "*");
    w.postMessage({bulkdesk: 1, type: "ping", id: "evil"}, "*");
  }
  // And to the portal's page, as if it were the console.
  parent.postMessage({bulkdesk: 1, type: "pong", id: "forged"}, "*");
  parent.postMessage({bulkdesk: 1, type: "completed", bulkId: "forged", status: "COMPLETED", counts: {}}, "*");
  document.body.dataset.sent = "true";
</script>
</body></html>
`

// framingPage is a page of an origin not in -frame-ancestors that tries
// to show the console in a frame all the same.
const framingPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not allowed</title></head>
<body data-heard="[]"><h1>Not allowed</h1>
<iframe id="console" title="Bulkdesk" src="{{frame}}"></iframe>
<script>
  const heard = [];
  addEventListener("message", (event) => {
    heard.push(event.data);
    document.body.dataset.heard = JSON.stringify(heard);
  });
  document.getElementById("console").addEventListener("load", () => { document.body.dataset.loaded = "true"; });
</script>
</body></html>
`

// embedCSV is a payroll run as a German spreadsheet program saves it:
// semicolons, German headers, decimal commas; both rows valid.
const embedCSV = "profileId;source.type;source.id;destination.type;destination.id;Währung;Betrag\n" +
	"110321;managed_accounts;1001;managed_cards;2001;EUR;12,50\n" +
	"110321;managed_accounts;1002;managed_cards;2002;EUR;1.250,00\n"

// An embedEvent is a message the console posts to the portal's page.
type embedEvent struct {
	Type       string
	Mode       string
	FileName   string
	Kind       string
	BackOffice bool
	Elements   int
	Valid      int
	Invalid    int
	Duplicates int
	Totals     []struct {
		Currency string
		Count    int
		Amount   string
		Minor    string
		Invalid  bool // the total of amounts in no valid currency
	}
	Reading  []string
	Problems *struct {
		Errors, Warnings int
		First            []map[string]any
	}
	Bulks []struct {
		BulkID   string
		Elements int
		Ref      string
	}
	Receipt map[string]any
	BulkID  string
	Status  string
	Counts  map[string]int
	ID      string
	Code    string
	Message string
}

// hostServer serves pages on a loopback port of its own, an origin of
// its own, with the timeouts of a real server.
func hostServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	// No write timeout: the console's event stream passes through one.
	s.Config.ReadHeaderTimeout = 10 * time.Second
	s.Config.ReadTimeout = 30 * time.Second
	s.Config.IdleTimeout = 2 * time.Minute
	s.Start()
	t.Cleanup(s.Close)
	if host, _, _ := net.SplitHostPort(s.Listener.Addr().String()); host != "127.0.0.1" {
		t.Fatalf("the host page listens on %s", s.Listener.Addr())
	}
	return s
}

// htmlPage answers every request with the page made for it.
func htmlPage(page func(r *http.Request) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, page(r))
	})
}

// hostEvents returns the events of type the portal's page heard so far.
func hostEvents(t *testing.T, b *browsertest.Browser, typ string) []embedEvent {
	t.Helper()
	raw := browsertest.Eval[string](b, 5*time.Second, `JSON.stringify(window.events.filter(e => e.type === `+browsertest.JSString(typ)+`))`)
	var events []embedEvent
	if err := json.Unmarshal([]byte(raw), &events); err != nil {
		t.Fatalf("reading the %s events %s: %v", typ, raw, err)
	}
	return events
}

// awaitEvent waits for the n-th event of type on the portal's page and
// returns it.
func awaitEvent(t *testing.T, b *browsertest.Browser, timeout time.Duration, typ string, n int) embedEvent {
	t.Helper()
	b.WaitFor(timeout, fmt.Sprintf("event %d of type %s", n, typ), fmt.Sprintf(`window.events.filter(e => e.type === %s).length >= %d`, browsertest.JSString(typ), n))
	return hostEvents(t, b, typ)[n-1]
}

// TestAPortalEmbedsTheConsole opens the console in a portal's page
// through embed.js, as EMBEDDING.md's example does: the page hands it a
// file and hears it validated, the operator submits and executes it in
// the frame, and the page hears each step and gets the result workbook.
// A page of another origin inside the portal's is not heard, and a page
// of an origin not allowed cannot show the console at all.
func TestAPortalEmbedsTheConsole(t *testing.T) {
	var consoleBase string
	host := hostServer(t, htmlPage(func(*http.Request) string {
		return strings.NewReplacer("{{console}}", consoleBase, "{{token}}", sandbox.DefaultToken).Replace(portalPage)
	}))
	intruder := hostServer(t, htmlPage(func(*http.Request) string {
		return strings.ReplaceAll(intruderPage, "{{csv}}", browsertest.JSString(embedCSV))
	}))
	// As a portal deploys it: the server holds the API's key.
	srv := startServe(t, "-sandbox", "-frame-ancestors", host.URL, "-api-key-file", writeKeyFile(t, serverKey, 0o600))
	// The browser reaches the console through a recorder: the workers'
	// calls are not among the tab's network events.
	base, reached := recordingProxy(t, srv.URL)
	consoleBase = base
	consoleOrigin := strings.TrimSuffix(base, "/")

	b := browsertest.New(t)
	requests := recordRequests(t, b)
	b.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	b.Do(30*time.Second, chromedp.Navigate(host.URL+"/payroll"))
	ready := awaitEvent(t, b, 60*time.Second, "ready", 1)
	if ready.Kind != "transfers" {
		t.Errorf("ready: kind %q, want transfers", ready.Kind)
	}

	// The file, made in the portal's page, handed over.
	browsertest.Eval[bool](b, 5*time.Second, `(window.bulkdesk.sendFile(new File([`+browsertest.JSString(embedCSV)+`], "Löhne März.csv", {type: "text/csv"})), true)`)
	b.WaitForIn(60*time.Second, base, "the reading step or the review", `document.getElementById("validate") !== null || `+browsertest.ReviewShown)
	if browsertest.EvalIn[bool](b, base, 5*time.Second, `document.getElementById("validate") !== null`) {
		b.PressIn(base, "#validate")
	}
	validated := awaitEvent(t, b, 60*time.Second, "validated", 1)
	if validated.FileName != "Löhne März.csv" || validated.Kind != "transfers" || validated.BackOffice ||
		validated.Elements != 2 || validated.Valid != 2 || validated.Invalid != 0 || validated.Duplicates != 0 {
		t.Errorf("validated: %+v", validated)
	}
	if len(validated.Totals) != 1 || validated.Totals[0].Currency != "EUR" || validated.Totals[0].Count != 2 ||
		validated.Totals[0].Minor != "126250" || validated.Totals[0].Amount != "1,262.50" || validated.Totals[0].Invalid {
		t.Errorf("validated: totals %+v, want EUR 2 elements 1,262.50 (126250 cents), none invalid", validated.Totals)
	}
	if validated.Problems == nil || validated.Problems.Errors != 0 {
		t.Errorf("validated: problems %+v, want no errors", validated.Problems)
	}
	if len(validated.Reading) == 0 {
		t.Errorf("validated: no reading statements for a CSV of decimal commas")
	}
	shootPortal(b, "embed-validated.png")

	// A page of another origin in the portal's page posts a file and a
	// ping to the console's frame; then the portal pings.
	validations := len(hostEvents(t, b, "validated"))
	browsertest.Eval[bool](b, 5*time.Second, `(() => {
  const f = document.createElement("iframe");
  f.title = "Another origin";
  f.src = `+browsertest.JSString(intruder.URL+"/")+`;
  document.body.append(f);
  return true;
})()`)
	b.WaitForIn(30*time.Second, intruder.URL, "the other origin to post its messages", `document.body.dataset.sent === "true"`)
	browsertest.Eval[bool](b, 5*time.Second, `(window.bulkdesk.frame.contentWindow.postMessage({bulkdesk: 1, type: "ping", id: "host"}, `+browsertest.JSString(consoleOrigin)+`), true)`)
	pong := awaitEvent(t, b, 30*time.Second, "pong", 1)
	if pong.ID != "host" {
		t.Errorf("the first pong answers %q, want host", pong.ID)
	}
	if p := hostEvents(t, b, "pong"); len(p) != 1 {
		t.Errorf("the portal heard %+v, want only the answer to its own ping", p)
	}
	if c := hostEvents(t, b, "completed"); len(c) != 0 {
		t.Errorf("the portal heard the other origin's events: %+v", c)
	}
	if v := hostEvents(t, b, "validated"); len(v) != validations {
		t.Errorf("the console validated again after the other origin's file: %+v", v[validations:])
	}
	if errs := hostEvents(t, b, "error"); len(errs) != 0 {
		t.Errorf("the console answered the other origin's messages with errors: %+v", errs)
	}
	if heard := browsertest.EvalIn[string](b, intruder.URL, 5*time.Second, `document.body.dataset.heard`); heard != "[]" {
		t.Errorf("the other origin heard %s from the console", heard)
	}
	if title := browsertest.EvalIn[string](b, base, 5*time.Second, `document.getElementById("result-title")?.textContent ?? ""`); title != "Löhne März.csv" {
		t.Errorf("the frame's review is of %q after the other origin's messages", title)
	}

	// The operator submits in the frame.
	b.PressIn(base, "#submit-file")
	b.WaitForIn(60*time.Second, base, "the confirmation", `document.querySelector('#submission[data-step="confirm"]') !== null`)
	b.PressIn(base, "#confirm-submit")
	submitted := awaitEvent(t, b, 60*time.Second, "submitted", 1)
	if submitted.Kind != "transfers" || submitted.Elements != 2 || len(submitted.Bulks) != 1 ||
		submitted.Bulks[0].BulkID == "" || submitted.Bulks[0].Elements != 2 || len(submitted.Totals) != 1 || submitted.Totals[0].Minor != "126250" {
		t.Fatalf("submitted: %+v", submitted)
	}
	bulkID := submitted.Bulks[0].BulkID
	if submitted.Receipt == nil {
		t.Errorf("submitted: no receipt")
	}

	// Then executes its bulk and watches it complete; the portal listens
	// for that alone too.
	browsertest.Eval[bool](b, 5*time.Second, `(() => {
  window.heardCompleted = [];
  const dropped = () => window.heardCompleted.push("a listener taken off");
  window.bulkdesk.on("completed", (e) => window.heardCompleted.push(e.bulkId)).on("completed", dropped).off("completed", dropped);
  return true;
})()`)
	b.WaitForIn(30*time.Second, base, "the link to the bulk", `document.querySelector('#submitted-bulks a[data-bulk="`+bulkID+`"]') !== null`)
	b.PressIn(base, `#submitted-bulks a[data-bulk="`+bulkID+`"]`)
	b.WaitForIn(30*time.Second, base, "the bulk's page", `document.querySelector('#bulk[data-bulk="`+bulkID+`"]') !== null && document.getElementById("action-execute") !== null`)
	b.PressIn(base, "#action-execute")
	b.WaitForIn(60*time.Second, base, "the confirmation of Execute", confirmOpen+` && !document.getElementById("confirm-execute").disabled`)
	b.PressIn(base, "#confirm-execute")
	if executed := awaitEvent(t, b, 60*time.Second, "executed", 1); executed.BulkID != bulkID {
		t.Errorf("executed: %+v, want bulk %s", executed, bulkID)
	}
	completed := awaitEvent(t, b, 90*time.Second, "completed", 1)
	if completed.BulkID != bulkID || completed.Status != "COMPLETED" || completed.Counts["COMPLETED"] != 2 || len(completed.Counts) != 1 {
		t.Errorf("completed: %+v, want bulk %s COMPLETED with 2 operations COMPLETED", completed, bulkID)
	}
	shootPortal(b, "embed-completed.png")
	if heard := browsertest.Eval[[]string](b, 5*time.Second, `window.heardCompleted`); !slices.Equal(heard, []string{bulkID}) {
		t.Errorf("the listener of completed heard %q, want %s once", heard, bulkID)
	}

	workbook := browsertest.Eval[struct {
		Size int
		Type string
	}](b, 60*time.Second, `window.bulkdesk.resultWorkbook(`+browsertest.JSString(bulkID)+`).then(b => ({size: b.size, type: b.type}))`)
	if workbook.Size == 0 || workbook.Type != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Errorf("the result workbook: %+v", workbook)
	}
	if errs := hostEvents(t, b, "error"); len(errs) != 0 {
		t.Errorf("the console reported errors: %+v", errs)
	}

	// A file passed as bytes while the frame shows the bulk: the console
	// goes back to its Import page and reads it as a dropped one.
	browsertest.Eval[bool](b, 10*time.Second, `(window.bulkdesk.sendFile(new TextEncoder().encode(`+browsertest.JSString(embedCSV)+`).buffer, "Löhne April.csv"), true)`)
	// Its headers are those of the file read before: the console shows
	// the reading it remembers for them, which the operator confirms.
	b.WaitForIn(60*time.Second, base, "the reading of the second file", `document.getElementById("read") !== null && document.getElementById("validate") !== null`)
	b.PressIn(base, "#validate")
	if again := awaitEvent(t, b, 60*time.Second, "validated", 2); again.FileName != "Löhne April.csv" || again.Elements != 2 || again.Valid != 2 {
		t.Errorf("a file passed as an ArrayBuffer: %+v", again)
	}

	// The server's api-key went to the sandbox with every call, and never
	// to the browser: not in a request the page, the frame or a worker
	// made, not in what the frame holds, not in the script it runs.
	for _, r := range append(requests(), reached()...) {
		if strings.Contains(r, serverKey) {
			t.Errorf("a request of the browser holds the server's api-key: %.300s", r)
		}
	}
	if !slices.ContainsFunc(reached(), func(r string) bool { return strings.HasPrefix(r, "POST /api/") && strings.Contains(r, "/bulks") }) {
		t.Errorf("no submission among the requests that reached the console: the record missed them")
	}
	held := browsertest.EvalIn[string](b, base, 30*time.Second, browserHoldings) +
		browsertest.EvalIn[string](b, base, 10*time.Second, `fetch("app.js", {cache: "no-store"}).then(r => r.text())`)
	if strings.Contains(held, serverKey) {
		t.Errorf("the frame holds the server's api-key")
	}
	if !strings.Contains(held, "Löhne April.csv") {
		t.Errorf("the frame's holdings do not show the import in progress: the dump missed them")
	}
	// Chromium does not let a frame of another origin focus an element
	// of its own at once (autofocus), and says so as an error.
	b.AssertNoErrors("Blocked autofocusing")
}

// shootPortal saves a picture of the portal's page from its top, with
// the console's frame in it.
func shootPortal(b *browsertest.Browser, name string) {
	browsertest.Eval[bool](b, 5*time.Second, `(scrollTo(0, 0), true)`)
	b.Shoot(name)
}

// recordingProxy forwards every request to target, a console's root, and
// keeps each as text: its request line, headers and body. It returns its
// own root, for the browser, and what reached it so far.
func recordingProxy(t *testing.T, target string) (string, func() []string) {
	t.Helper()
	to, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	forward := &httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { pr.SetURL(to) },
		FlushInterval: -1, // the event stream
	}
	proxy := hostServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s\n", r.Method, r.URL.RequestURI())
		r.Header.Write(&b)
		b.Write(body)
		mu.Lock()
		seen = append(seen, b.String())
		mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		forward.ServeHTTP(w, r)
	}))
	return proxy.URL + "/", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// recordRequests keeps every request b's tab sends from now on, for the
// page, its frames and their workers, as text: URL, headers (those the
// page set and those the network sent) and body. The returned function
// gives those seen so far.
func recordRequests(t *testing.T, b *browsertest.Browser) func() []string {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	keep := func(v any) {
		j, _ := json.Marshal(v)
		mu.Lock()
		seen = append(seen, string(j))
		mu.Unlock()
	}
	sent := chromedp.Events(b.Context(), network.RequestWillBeSent)
	extra := chromedp.Events(b.Context(), network.RequestWillBeSentExtraInfo)
	go func() {
		for ev, err := range sent {
			if err != nil {
				return
			}
			keep(ev.Request)
		}
	}()
	go func() {
		for ev, err := range extra {
			if err != nil {
				return
			}
			keep(ev.Headers)
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// dialogPage is a portal's page that opens the console in a dialog over
// itself when the operator asks.
const dialogPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Payments · Example portal</title>
  <script src="{{console}}embed.js"></script>
</head>
<body>
  <main>
    <h1>Payments</h1>
    <button id="open-bulkdesk" type="button">Import a payment file</button>
  </main>
  <script>
    window.events = [];
    document.getElementById("open-bulkdesk").addEventListener("click", () => {
      window.bulkdesk = Bulkdesk.open({
        modal: true,
        kind: "transfers",
        lang: "fr",
        onEvent: (event) => window.events.push(event),
      });
    });
  </script>
</body>
</html>
`

// TestAPortalOpensTheConsoleInADialog opens the console over a portal's
// page: a modal dialog named Bulkdesk that takes the focus into the
// console, passes the accessibility rules, and closes with Escape or its
// button, giving the focus back to what had it.
func TestAPortalOpensTheConsoleInADialog(t *testing.T) {
	browsertest.NeedAxe(t)
	var consoleBase string
	host := hostServer(t, htmlPage(func(*http.Request) string { return strings.ReplaceAll(dialogPage, "{{console}}", consoleBase) }))
	srv := startServe(t, "-sandbox", "-frame-ancestors", host.URL)
	consoleBase = srv.URL
	b := browsertest.New(t)
	b.Do(10*time.Second, chromedp.EmulateViewport(1024, 768))
	b.Do(30*time.Second, chromedp.Navigate(host.URL+"/"))
	open := func() {
		t.Helper()
		b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("open-bulkdesk").focus()`), browsertest.Press("#open-bulkdesk"))
		b.WaitFor(60*time.Second, "the console in its dialog", `window.events.some(e => e.type === "ready") && document.activeElement === window.bulkdesk.frame`)
	}
	open()
	dialog := browsertest.Eval[[]string](b, 5*time.Second, `(() => {
  const d = document.querySelector('[role="dialog"]');
  return [d.getAttribute("aria-modal"), d.getAttribute("aria-label"), d.querySelector("button").textContent, d.querySelector("iframe").title];
})()`)
	if strings.Join(dialog, "|") != "true|Bulkdesk|Fermer|Bulkdesk" {
		t.Errorf("the dialog: aria-modal, label, its button and the frame's title read %q", dialog)
	}
	b.AssertAccessible("the portal's page with the console's dialog")
	shootPortal(b, "embed-dialog.png")

	// Escape, from the dialog's own button, closes it.
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector('[role="dialog"] button').focus()`), chromedp.KeyEvent(kb.Escape))
	b.WaitFor(10*time.Second, "the dialog to close, the focus back on its opener", `document.querySelector('[role="dialog"]') === null && document.activeElement.id === "open-bulkdesk"`)

	// So does its button.
	open()
	b.Do(5*time.Second, browsertest.Press(`[role="dialog"] button`))
	b.WaitFor(10*time.Second, "the dialog to close by its button", `document.querySelector('[role="dialog"]') === null && document.activeElement.id === "open-bulkdesk"`)

	// And Escape typed inside the console, which has no use for it there.
	open()
	// Chromium hands a key typed right after the frame took the focus
	// to the frame's page only once that page is ready for input, which
	// nothing on the page tells: pressed again, as an operator would.
	b.WaitForIn(10*time.Second, consoleBase, "the console's page to have the keyboard", `document.hasFocus()`)
	closedByKey := eventually.Until(10*time.Second, func() bool {
		b.Do(5*time.Second, chromedp.KeyEvent(kb.Escape))
		return eventually.Until(time.Second, func() bool {
			return browsertest.Eval[bool](b, 5*time.Second, `document.querySelector('[role="dialog"]') === null`)
		})
	})
	if !closedByKey {
		t.Errorf("Escape typed inside the console left its dialog open")
	}
	if len(hostEvents(t, b, "escape")) == 0 {
		t.Errorf("the dialog closed without the console telling of an Escape")
	}
	b.WaitFor(10*time.Second, "the dialog to close by an Escape inside the console", `document.querySelector('[role="dialog"]') === null && document.activeElement.id === "open-bulkdesk"`)
	b.AssertNoErrors()
}

// TestAnOriginNotAllowedCannotFrameTheConsole opens a page of an origin
// -frame-ancestors does not name that frames the console: the browser
// refuses the frame, so the console neither runs there nor posts a word.
func TestAnOriginNotAllowedCannotFrameTheConsole(t *testing.T) {
	var consoleBase string
	framing := hostServer(t, htmlPage(func(r *http.Request) string {
		return strings.ReplaceAll(framingPage, "{{frame}}", consoleBase+"?embed=1&amp;origin="+url.QueryEscape("http://"+r.Host))
	}))
	srv := startServe(t, "-sandbox", "-frame-ancestors", "http://127.0.0.1:1")
	consoleBase = srv.URL
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(framing.URL+"/"))
	b.WaitFor(30*time.Second, "the refused frame to load", `document.body.dataset.loaded === "true"`)
	consoleOrigin := strings.TrimSuffix(srv.URL, "/")
	if origins := b.FrameOrigins(); len(origins) != 1 || origins[0] == consoleOrigin {
		t.Errorf("the page's frames hold documents of %q, want the refused frame's error page alone", origins)
	}
	if heard := browsertest.Eval[string](b, 5*time.Second, `document.body.dataset.heard`); heard != "[]" {
		t.Errorf("the page heard %s from the refused frame", heard)
	}
	b.AssertNoErrors("frame-ancestors")
}

// TestTheEmbeddedConsoleIsAccessible runs axe-core on the console as a
// portal's frame shows it (embed=1, without its navigation bar), opened
// in a tab of its own, in each of its languages.
func TestTheEmbeddedConsoleIsAccessible(t *testing.T) {
	browsertest.NeedAxe(t)
	const portal = "http://127.0.0.1:1"
	srv := startServe(t, "-sandbox", "-frame-ancestors", portal)
	b := browsertest.New(t)
	b.Do(10*time.Second, chromedp.EmulateViewport(1024, 768))
	for _, l := range []string{"en", "de", "fr"} {
		b.Do(30*time.Second, chromedp.Navigate(srv.URL+"?embed=1&kind=transfers&mode=submit&lang="+l+"&origin="+url.QueryEscape(portal)))
		b.WaitFor(60*time.Second, "the embedded console to start in "+l, browsertest.Interactive+` && document.documentElement.lang === `+browsertest.JSString(l)+` && document.documentElement.hasAttribute("data-embed")`)
		b.AssertAccessible("the embedded Import page (" + l + ")")
	}
}

// TestAPortalsTokenAndValidateMode opens the console to validate a file
// only, with a token of the portal's: the review offers no submission,
// the API is called with the portal's token (a wrong one is refused, in
// the operator's language; the one setToken gives then works).
func TestAPortalsTokenAndValidateMode(t *testing.T) {
	var consoleBase string
	host := hostServer(t, htmlPage(func(*http.Request) string {
		// The guide's page, opening the console in French to validate.
		return strings.NewReplacer("{{console}}", consoleBase, "{{token}}", "not-the-token",
			`lang: "de",`, `lang: "fr",`, `mode: "submit",`, `mode: "validate",`).Replace(portalPage)
	}))
	srv := startServe(t, "-sandbox", "-frame-ancestors", host.URL)
	consoleBase = srv.URL
	k, _ := schema.Lookup("transfers")
	bulk, err := sandboxClient(t, srv.URL).Submit(context.Background(), k, fixture.Transfers(3), "")
	if err != nil {
		t.Fatal(err)
	}

	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(host.URL+"/check"))
	if ready := awaitEvent(t, b, 60*time.Second, "ready", 1); ready.Mode != "validate" {
		t.Errorf("ready: %+v, want mode validate", ready)
	}
	browsertest.Eval[bool](b, 5*time.Second, `(window.bulkdesk.sendFile(new Blob([`+browsertest.JSString(embedCSV)+`]), "virements.csv"), true)`)
	b.WaitForIn(60*time.Second, consoleBase, "the reading step or the review", `document.getElementById("validate") !== null || `+browsertest.ReviewShown)
	if browsertest.EvalIn[bool](b, consoleBase, 5*time.Second, `document.getElementById("validate") !== null`) {
		b.PressIn(consoleBase, "#validate")
	}
	if v := awaitEvent(t, b, 60*time.Second, "validated", 1); v.FileName != "virements.csv" || v.Valid != 2 {
		t.Errorf("validated: %+v", v)
	}
	b.WaitForIn(10*time.Second, consoleBase, "the review", browsertest.ReviewShown)
	if browsertest.EvalIn[bool](b, consoleBase, 5*time.Second, `document.getElementById("submit-file") !== null`) {
		t.Errorf("the console opened to validate offers a submission")
	}

	// The portal's token is the one the console calls the API with.
	refused := browsertest.Eval[string](b, 60*time.Second, `window.bulkdesk.resultWorkbook(`+browsertest.JSString(bulk.BulkID)+`).then(() => "made", e => e.message)`)
	// In the operator's words; the API's own message is quoted as it came.
	if !strings.HasPrefix(refused, "L’API n’a pas accepté l’api-key ou le jeton") {
		t.Errorf("with the portal's wrong token the workbook request answered %q, want the refusal said in French", refused)
	}
	browsertest.Eval[bool](b, 5*time.Second, `(window.bulkdesk.setToken(`+browsertest.JSString(sandbox.DefaultToken)+`), true)`)
	made := browsertest.Eval[int](b, 60*time.Second, `window.bulkdesk.resultWorkbook(`+browsertest.JSString(bulk.BulkID)+`).then(b => b.size)`)
	if made == 0 {
		t.Errorf("with the token setToken gave, the result workbook is empty")
	}
}
