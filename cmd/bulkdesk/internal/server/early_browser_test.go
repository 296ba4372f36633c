//go:build !js

package server_test

import (
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
	"github.com/chromedp/chromedp"
)

// pageWasm matches the page's program among the console's files (not the
// workers').
var pageWasm = regexp.MustCompile(`/web/app\.[0-9a-f]+\.wasm$`)

// startHeldConsole serves the console as startConsole does, but holds
// back the page's program until release is called, so that a test acts
// on the page the server drew before its program runs, for sure.
func startHeldConsole(t *testing.T) (srv *liveServer, release func()) {
	t.Helper()
	browsertest.NeedConsole(t)
	s, err := server.New(server.Options{Prefix: "/"})
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	t.Cleanup(release)
	gate := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if pageWasm.MatchString(r.URL.Path) {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		s.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: gate, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	srv = &liveServer{URL: "http://" + ln.Addr().String() + "/", http: hs}
	t.Cleanup(srv.Stop)
	return srv, release
}

// earlyCSV is a CSV of 40 transfers, two of them with a currency the
// contract refuses.
func earlyCSV(t *testing.T, name string) string {
	t.Helper()
	return browsertest.WriteFile(t, name, fixture.CSV(fixture.Rows.List(40, 3, 17)))
}

// reviewOfAFileChosenLater is what the console shows of file chosen the
// usual way, once its page runs.
func reviewOfAFileChosenLater(t *testing.T, file string) string {
	t.Helper()
	b := openConsole(t)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)
	b.AssertNoErrors()
	return reviewState(b)
}

// goTo opens url in b without waiting for the page's load event, as
// chromedp.Navigate does: the page's program, held back, is preloaded and
// delays it.
func goTo(b *browsertest.Browser, url string) {
	b.Do(10*time.Second, chromedp.Navigate("about:blank"))
	browsertest.Eval[bool](b, 5*time.Second, `(location.href = `+browsertest.JSString(url)+`, true)`)
}

// beforeThePageRuns is true while the page's program has not started.
const beforeThePageRuns = `performance.getEntriesByName("bulkdesk:page-started").length === 0 && performance.getEntriesByName("bulkdesk:main").length === 0`

// earlyFileIsReviewed opens the console with its program held back,
// gives it the file with give as soon as the page takes input, checks
// that the worker read it before the program ran, then lets the program
// run and returns what it shows.
func earlyFileIsReviewed(t *testing.T, file string, give func(b *browsertest.Browser)) string {
	t.Helper()
	b := browsertest.New(t)
	srv, release := startHeldConsole(t)
	goTo(b, srv.URL)
	b.WaitFor(30*time.Second, "the page to take a file", `performance.getEntriesByName("bulkdesk:interactive").length > 0`)
	if !browsertest.Eval[bool](b, 5*time.Second, beforeThePageRuns) {
		t.Fatal("the page's program ran although it was held back")
	}
	give(b)
	if !browsertest.Eval[bool](b, 5*time.Second, `performance.getEntriesByName("bulkdesk:file-chosen").length === 1`) {
		t.Error("the file chosen before the page ran was not marked bulkdesk:file-chosen")
	}
	// The worker reads and validates it meanwhile: the page shows that
	// it is reading, and the worker's result waits for the page.
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("status").textContent`); got != "Reading early.csv" {
		t.Errorf("while the page starts, its status says %q", got)
	}
	b.WaitFor(30*time.Second, "the worker's result of the file chosen early", `(() => {
  const job = self.bulkdeskEarlyImport && self.bulkdeskEarlyImport.job;
  return !!job && self.bulkdeskEarlyWorker.early.some(m => m.data && m.data.id === job.id && m.data.type === "result");
})()`)
	if !browsertest.Eval[bool](b, 5*time.Second, beforeThePageRuns) {
		t.Fatal("the page's program ran although it was held back")
	}

	release()
	b.WaitFor(60*time.Second, "the page to start", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("kind").value`); got != "transfers" {
		t.Errorf("the kind chosen before the page ran is %q once it runs, want transfers", got)
	}
	if !browsertest.Eval[bool](b, 5*time.Second, `performance.getEntriesByName("bulkdesk:file-chosen").length === 1 && performance.getEntriesByName("bulkdesk:worker-adopted").length === 1`) {
		t.Error("the page did not adopt the worker and the file chosen early, as it was: one choice, one worker")
	}
	b.AssertNoErrors()
	return reviewState(b)
}

func TestConsoleReadsAFileChosenBeforeItsProgramRuns(t *testing.T) {
	browsertest.NeedAxe(t)
	file := earlyCSV(t, "early.csv")
	early := earlyFileIsReviewed(t, file, func(b *browsertest.Browser) {
		// The page before its program runs is the console's, for people
		// and their tools alike.
		b.Shoot("early-page.png")
		b.AssertAccessible("the import page before its program runs")
		b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
		b.Shoot("early-page-reading.png")
	})
	if later := reviewOfAFileChosenLater(t, file); early != later {
		t.Errorf("a file chosen before the page ran is shown as\n%s\n\nthe same file chosen later as\n%s", early, later)
	}
}

func TestConsoleReadsAFileDroppedBeforeItsProgramRuns(t *testing.T) {
	file := earlyCSV(t, "early.csv")
	early := earlyFileIsReviewed(t, file, func(b *browsertest.Browser) {
		b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), browsertest.DropFiles(".drop-zone", file))
	})
	if later := reviewOfAFileChosenLater(t, file); early != later {
		t.Errorf("a file dropped before the page ran is shown as\n%s\n\nthe same file chosen later as\n%s", early, later)
	}
}

// pastedRows are 12 transfers as rows copied from a spreadsheet, one with
// a currency the contract refuses.
func pastedRows() string {
	return strings.ReplaceAll(string(fixture.CSV(fixture.Rows.List(12, 5))), ",", "\t")
}

// pasteAndRead pastes rows in the paste box and asks to read them.
func pasteAndRead(b *browsertest.Browser, rows string) {
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("details.paste").open = true`),
		chromedp.Evaluate[chromedp.Void](`(() => {
  const box = document.getElementById("paste-rows");
  box.value = `+browsertest.JSString(rows)+`;
  box.dispatchEvent(new Event("input", {bubbles: true}));
})()`),
		browsertest.Press("#read-pasted"))
}

func TestConsoleReadsRowsPastedBeforeItsProgramRuns(t *testing.T) {
	rows := pastedRows()
	b := browsertest.New(t)
	srv, release := startHeldConsole(t)
	goTo(b, srv.URL)
	b.WaitFor(30*time.Second, "the page to take input", `performance.getEntriesByName("bulkdesk:interactive").length > 0`)
	pasteAndRead(b, rows)
	if !browsertest.Eval[bool](b, 5*time.Second, beforeThePageRuns) {
		t.Fatal("the page's program ran although it was held back")
	}
	release()
	b.WaitFor(60*time.Second, "the page to start", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the review of the pasted rows", browsertest.ReviewShown)
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("paste-rows").value`); got != rows {
		t.Errorf("the paste box holds %q once the page runs, want the rows pasted before", got)
	}
	b.AssertNoErrors()
	early := reviewState(b)

	later := openConsole(t)
	pasteAndRead(later, rows)
	later.WaitFor(30*time.Second, "the review of the pasted rows", browsertest.ReviewShown)
	later.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)
	later.AssertNoErrors()
	if want := reviewState(later); early != want {
		t.Errorf("rows pasted before the page ran are shown as\n%s\n\nthe same rows pasted later as\n%s", early, want)
	}
}

// The page an operator reads first, before the program runs, is in the
// operator's language: drawn so by the server, with the early script's
// status in the same words, and it stays so once the program runs.
func TestThePageBeforeItsProgramRunsSpeaksTheOperatorsLanguage(t *testing.T) {
	for _, tc := range []struct{ lang, label, status string }{
		{"de", "Art des Sammelauftrags", "early.csv wird gelesen"},
		{"fr", "Type de lot", "Lecture de early.csv"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			file := earlyCSV(t, "early.csv")
			b := browsertest.New(t, chromedp.Flag("lang", tc.lang), chromedp.Flag("accept-lang", tc.lang))
			srv, release := startHeldConsole(t)
			goTo(b, srv.URL)
			b.WaitFor(30*time.Second, "the page to take a file", `performance.getEntriesByName("bulkdesk:interactive").length > 0`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.documentElement.lang + " " + document.querySelector("label[for=kind]").textContent`); got != tc.lang+" "+tc.label {
				t.Errorf("before its program runs, the page says %q, want %q", got, tc.lang+" "+tc.label)
			}
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("status").textContent`); got != tc.status {
				t.Errorf("while the page starts, its status says %q, want %q", got, tc.status)
			}
			b.Shoot("early-page-reading-" + tc.lang + ".png")
			if !browsertest.Eval[bool](b, 5*time.Second, beforeThePageRuns) {
				t.Fatal("the page's program ran although it was held back")
			}
			release()
			b.WaitFor(60*time.Second, "the page to start", browsertest.Interactive)
			b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.documentElement.lang + " " + document.querySelector("label[for=kind]").textContent`); got != tc.lang+" "+tc.label {
				t.Errorf("once its program runs, the page says %q, want %q", got, tc.lang+" "+tc.label)
			}
			b.AssertNoErrors()
		})
	}
}

// A language chosen in Settings before the server drew pages in it (kept
// in the browser, without the cookie) reaches the server once the console
// runs: the next page the server draws is in that language.
func TestALanguageChosenBeforeTheCookieReachesTheServer(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	b.Do(30*time.Second, chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	browsertest.Eval[bool](b, 5*time.Second, `(localStorage.setItem("bulkdesk-lang", "fr"), document.cookie = "bulkdesk-lang=; Max-Age=0; Path=/", true)`)
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
	// A URL the service worker does not keep, so that the server draws it.
	drawn := browsertest.Eval[string](b, 10*time.Second, `fetch(location.origin + "/?drawn", {cache: "no-store"}).then(r => r.text()).then(t => t.match(/<html lang="[a-z]+"/)[0])`)
	if drawn != `<html lang="fr"` {
		t.Errorf("the server draws the page as %s, want French", drawn)
	}
}
