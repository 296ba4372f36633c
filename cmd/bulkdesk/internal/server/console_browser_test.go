//go:build !js

package server_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// openConsole starts the server and a browser on the console's home page.
func openConsole(t *testing.T) *browsertest.Browser {
	t.Helper()
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	b.Do(30*time.Second, chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	return b
}

func TestConsoleWorksFromTheKeyboard(t *testing.T) {
	b := openConsole(t)
	file := writeTransfers(t, "keys.json", 3, 1)

	// Every form control has a label.
	unlabelled := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("input, select, textarea, button")]
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute("aria-label") && !el.textContent.trim())
  .map(el => el.outerHTML)`)
	if len(unlabelled) > 0 {
		t.Errorf("controls without a label: %q", unlabelled)
	}

	// Tab goes through the skip link, the header and the form, in order.
	var order []string
	for range 10 {
		b.Do(5*time.Second, chromedp.KeyEvent(kb.Tab))
		order = append(order, browsertest.Eval[string](b, 5*time.Second, browsertest.ActiveElement))
	}
	want := []string{"a:Skip to content", "a:Bulkdesk", "a:Import", "a:Bulks", "a:Events", "a:Webhooks", "a:Settings", "a:Help", "#kind", "#request-file"}
	if strings.Join(order, " | ") != strings.Join(want, " | ") {
		t.Errorf("tab order:\n got %q\nwant %q", order, want)
	}

	// The skip link moves the focus to the content, and stays on the page.
	b.Do(5*time.Second, chromedp.Focus(chromedp.CSS(".skip-link")), chromedp.KeyEvent(kb.Enter))
	if got := browsertest.Eval[string](b, 5*time.Second, browsertest.ActiveElement); got != "#main" {
		t.Errorf("after the skip link the focus is on %s, want #main", got)
	}
	if u := browsertest.Eval[string](b, 5*time.Second, `location.pathname + location.hash`); u != "/" {
		t.Errorf("the skip link navigated to %s", u)
	}

	// Choose the kind with the arrow keys, then the file.
	b.Do(5*time.Second, chromedp.Focus(chromedp.ID("kind")))
	for !strings.HasPrefix(browsertest.Eval[string](b, 5*time.Second, `document.getElementById("kind").value`), "transfers") {
		b.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowDown))
		if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("kind").selectedIndex === document.getElementById("kind").length - 1`) {
			t.Fatal("the arrow keys went through every kind without finding transfers")
		}
	}
	b.WaitFor(5*time.Second, "the back-office choice for transfers", `document.getElementById("backoffice") !== null`)
	b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)
	if got := counts(b)["count-invalid"]; got != "1" {
		t.Errorf("invalid = %s, want 1", got)
	}

	// A link to another page moves the focus to its heading, and the page
	// names itself in the title.
	b.Do(5*time.Second, chromedp.Focus(chromedp.CSS(`a[href="/feed"]`)), chromedp.KeyEvent(kb.Enter))
	b.WaitFor(10*time.Second, "the Events page", `document.title === "Events · Bulkdesk"`)
	b.WaitFor(5*time.Second, "the focus on the Events heading", browsertest.ActiveElement+` === "#page-title"`)
	if cur := browsertest.Eval[string](b, 5*time.Second, `document.querySelector('nav a[aria-current="page"]').textContent`); cur != "Events" {
		t.Errorf("the current page in the navigation is %q", cur)
	}
	b.AssertNoErrors()
}

func TestConsoleTakesADroppedFileAndExplainsBadJSON(t *testing.T) {
	b := openConsole(t)
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.csv")
	if err := os.WriteFile(odd, []byte("Vorgang,Notiz\nA1,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(bad, []byte("[\n  {\"pathParams\": {}, \"requestBody\": {}},,\n]"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Headers that suggest no kind: the file waits for one, then for its
	// columns to be mapped.
	b.Do(10*time.Second, browsertest.DropFiles(".drop-zone", odd))
	b.WaitFor(10*time.Second, "the request for a kind", `document.getElementById("status").textContent.includes("odd.csv is loaded. Choose the bulk kind")`)
	b.Do(5*time.Second, browsertest.Pick("kind", "users"))
	b.WaitFor(30*time.Second, "the columns to check", `document.getElementById("mapping-summary")?.textContent.includes("2 with values not imported")`)

	// A JSON file that does not parse is a problem of the whole file.
	b.Do(10*time.Second, browsertest.DropFiles(".drop-zone", bad))
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)
	if got := counts(b); got["count-elements"] != "0" || got["count-errors"] != "1" {
		t.Errorf("summary = %v, want 0 elements and 1 error", got)
	}
	problem := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#problems li").textContent`)
	if !strings.Contains(problem, "Whole file") || !strings.Contains(problem, "broken.json is not a JSON request body: line 2") {
		t.Errorf("problem = %q", problem)
	}
	b.AssertNoErrors()
}

func TestConsoleNewFileReplacesTheOneBeingValidated(t *testing.T) {
	b := openConsole(t)
	big := writeTransfers(t, "big.json", 60000, 5)
	small := writeTransfers(t, "small.json", 10, 2, 3)
	b.WaitFor(30*time.Second, "the worker to start", workerReady)
	b.Do(5*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{big}))
	b.WaitFor(30*time.Second, "the progress bar", `document.getElementById("progress") !== null`)
	b.Do(5*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{small}))
	b.WaitFor(60*time.Second, "the result of the second file", browsertest.ReviewShown)

	if name := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("result-title").textContent`); name != "small.json" {
		t.Errorf("the result shown is %s's", name)
	}
	if got := counts(b); got["count-elements"] != "10" || got["count-invalid"] != "2" {
		t.Errorf("summary = %v, want 10 elements, 2 invalid", got)
	}
	// The big file's result must not replace the small one's later: once
	// no job awaits its answer, none can.
	b.WaitFor(60*time.Second, "every job's answer", `document.documentElement.dataset.jobsInFlight === "0"`)
	if name := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("result-title").textContent`); name != "small.json" {
		t.Errorf("later, the result shown is %s's", name)
	}
	b.AssertNoErrors()
}

func TestConsoleShowsProblemsPageByPage(t *testing.T) {
	b := openConsole(t)
	bad := make([]int, 0, 150)
	for i := range 150 {
		bad = append(bad, 2*i)
	}
	file := writeTransfers(t, "many.json", 400, bad...)
	b.Do(5*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)

	shown := `document.querySelectorAll("#problems li").length`
	if n := browsertest.Eval[int](b, 5*time.Second, shown); n != 25 {
		t.Fatalf("%d problems shown first, want 25", n)
	}
	if label := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("more-problems").textContent`); label != "Show 100 more" {
		t.Errorf("button %q", label)
	}
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("more-problems")))
	b.WaitFor(10*time.Second, "125 problems", shown+` === 125`)
	if label := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("more-problems").textContent`); label != "Show 25 more" {
		t.Errorf("button %q", label)
	}
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("more-problems")))
	b.WaitFor(10*time.Second, "150 problems", shown+` === 150`)
	if last := browsertest.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("#problems li")].pop().textContent`); !strings.Contains(last, "Element 298") {
		t.Errorf("the last problem is %q, want element 298's", last)
	}
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("more-problems") !== null`) {
		t.Error("the button is still there with every problem shown")
	}
	b.AssertNoErrors()
}

// portal serves a page on 127.0.0.1, reached as localhost (another site
// than 127.0.0.1 for the browser), that shows src in an iframe, as an
// admin portal shows the console. It returns the page's origin.
func portal(t *testing.T, src func() string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Portal</title><h1>Portal</h1><iframe src="%s" title="Bulkdesk" width="1200" height="800"></iframe>`, src())
	})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return "http://localhost:" + port
}

func TestConsoleWorksInsideAPortalsFrame(t *testing.T) {
	var consoleURL string
	origin := portal(t, func() string { return consoleURL })
	srv := startConsoleWith(t, server.Options{Prefix: "/console/", FrameAncestors: []string{origin}})
	consoleURL = srv.URL
	file := writeTransfers(t, "framed.json", 50, 10)

	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(origin+"/"))
	f := b.Frame(30*time.Second, srv.URL)
	f.WaitFor(30*time.Second, "the console to start in the frame", browsertest.Interactive)
	f.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	f.WaitFor(30*time.Second, "the validation result in the frame", browsertest.ReviewShown)
	if got := counts(f); got["count-elements"] != "50" || got["count-invalid"] != "1" {
		t.Errorf("summary in the frame = %v", got)
	}
	b.AssertNoErrors()
	f.AssertNoErrors()
}

func TestConsoleRefusesAFrameOfAnotherOrigin(t *testing.T) {
	var consoleURL string
	origin := portal(t, func() string { return consoleURL })
	consoleURL = startConsole(t, "/").URL // frame-ancestors 'self' only

	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(origin+"/"))
	if !eventually.Until(15*time.Second, func() bool { return strings.Contains(strings.Join(b.Problems(), "\n"), "frame-ancestors") }) {
		t.Fatalf("the browser framed the console; it reported: %q", b.Problems())
	}
}
