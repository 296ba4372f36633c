//go:build !js

package browsertest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// DefaultPath is where Debian's chromium package installs the browser.
const DefaultPath = "/usr/bin/chromium"

// Flags are Chromium's command-line flags for tests, besides a fresh
// --user-data-dir: headless, no sandbox (tests run as root in CI), and no
// network traffic of the browser's own.
var Flags = []string{
	"headless",
	"no-sandbox",
	"disable-gpu",
	"disable-quic",
	"no-first-run",
	"disable-background-networking",
	"disable-component-update",
	"disable-sync",
}

// SkipShort skips tb under -short (make test-short): browser tests and
// tests of the built console belong to the whole suite, make test.
func SkipShort(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("needs the built console or Chromium: make test runs it")
	}
}

// NeedConsole is for tests that serve the console: it skips them under
// -short and fails them when the console has not been built (make
// console; make test does it).
func NeedConsole(tb testing.TB) {
	tb.Helper()
	SkipShort(tb)
	if _, err := console.ReadManifest(console.FS()); err != nil {
		tb.Fatalf("the browser tests need the built console (make console): %v", err)
	}
}

// Path returns the Chromium to run: $CHROMIUM if set, else DefaultPath. It
// skips the test when there is none, or fails it under CI=true.
func Path(tb testing.TB) string {
	tb.Helper()
	SkipShort(tb)
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = DefaultPath
	}
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("Chromium is needed for the browser tests and CI=true: %v (install Debian's chromium package)", err)
		}
		tb.Skipf("no Chromium at %s: install Debian's chromium package to run the browser tests", path)
	}
	return path
}

// A Browser is one Chromium process with a fresh profile and one tab.
type Browser struct {
	tb  testing.TB
	ctx context.Context

	mu       sync.Mutex
	problems []string
	dialogs  []string
	// workerLog is what the page's workers wrote (workerlog.go).
	workerLog []string
}

// New starts Chromium for tb and stops it when tb ends; extra options
// (a browser language) come after the standard flags.
func New(tb testing.TB, extra ...chromedp.ExecAllocatorOption) *Browser {
	tb.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Path(tb)),
		chromedp.UserDataDir(tb.TempDir()),
	}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	tb.Cleanup(func() { cancelCtx(); cancelAlloc() })
	b := &Browser{tb: tb, ctx: ctx}

	b.start("starting Chromium")
	b.collectErrors()
	b.collectWorkerLogs()
	b.answerDialogs()
	return b
}

// answerDialogs accepts every dialog the page opens, which would stall it
// otherwise (a "Leave site?" question before a reload), and keeps their
// types for Dialogs.
func (b *Browser) answerDialogs() {
	dialogs := chromedp.Events(b.ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, string(ev.Type))
			b.mu.Unlock()
			_, _ = chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
}

// Dialogs returns the types of the dialogs the page opened so far, in
// order: "alert", "confirm", "prompt" or "beforeunload".
func (b *Browser) Dialogs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.dialogs...)
}

// start runs the first action of b's context, which starts the browser or
// attaches to the target. It must have no deadline, which would end the
// browser or the target with it, so a timer guards it instead.
func (b *Browser) start(what string) {
	b.tb.Helper()
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(b.ctx) }()
	select {
	case err := <-started:
		if err != nil {
			b.tb.Fatalf("%s: %v", what, err)
		}
	case <-time.After(30 * time.Second):
		b.tb.Fatalf("%s: no answer within 30s", what)
	}
}

// collectErrors keeps the errors of the tab's console (a refused content
// security policy, a failed request, an exception, a Go panic) for
// AssertNoErrors.
func (b *Browser) collectErrors() {
	messages := chromedp.Console(b.ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				s := m.String()
				// A refused resource's message does not name it.
				if m.URL != "" && !strings.Contains(s, m.URL) {
					s += " (" + m.URL + ")"
				}
				b.report(s)
			}
		}
	}()
}

// Frame returns the iframe of b's page whose URL starts with prefix, as a
// Browser of its own: Chrome runs an iframe from another site as a
// separate target. It waits up to timeout for the frame to appear.
func (b *Browser) Frame(timeout time.Duration, prefix string) *Browser {
	b.tb.Helper()
	var frame *target.Info
	found := eventually.Until(timeout, func() bool {
		infos, err := chromedp.Targets(b.ctx)
		if err != nil {
			b.tb.Fatalf("listing the browser's targets: %v", err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.HasPrefix(info.URL, prefix) {
				frame = info
				return true
			}
		}
		return false
	})
	if !found {
		b.tb.Fatalf("no frame at %s within %v%s", prefix, timeout, b.problemList())
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(frame.TargetID))
	b.tb.Cleanup(cancel)
	f := &Browser{tb: b.tb, ctx: ctx}
	f.start("attaching to the frame " + frame.URL)
	f.collectErrors()
	return f
}

// Context is the browser's tab, for chromedp.Do and chromedp.Run.
func (b *Browser) Context() context.Context { return b.ctx }

// Do runs actions in the tab, failing the test if they fail or take longer
// than timeout.
func (b *Browser) Do(timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.tb.Fatalf("in the browser: %v%s", err, b.problemList())
	}
}

// Eval evaluates a JavaScript expression in b's tab, awaiting it if it is a
// promise, and decodes its value into a T.
func Eval[T any](b *Browser, timeout time.Duration, expr string) T {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.tb.Fatalf("evaluating %s: %v%s", expr, err, b.problemList())
	}
	return v
}

// WaitFor polls a JavaScript expression (or a promise of one) until it is
// true, failing the test with what description says was awaited after
// timeout.
func (b *Browser) WaitFor(timeout time.Duration, description, expr string) {
	b.tb.Helper()
	// Awaited: an expression that is a promise (an async check of the
	// service worker's cache) is true only when it resolves to true.
	if ok, err := b.poll(timeout, chromedp.Evaluate[bool]("Promise.resolve("+expr+").then(Boolean)", chromedp.EvalAwaitPromise)); !ok {
		b.shootFailure()
		b.tb.Fatalf("waited %v for %s (%s), in vain; last error: %v; focus on %s%s", timeout, description, expr, err, b.activeElement(), b.problemList())
	}
}

// poll runs check until it answers true or timeout has passed, and
// reports whether it did, with the last error.
func (b *Browser) poll(timeout time.Duration, check chromedp.Action[bool]) (bool, error) {
	var err error
	done := eventually.Until(timeout, func() bool {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		defer cancel()
		var ok bool
		ok, err = chromedp.Run(ctx, check)
		return err == nil && ok
	})
	return done, err
}

// Problems returns the console errors and exceptions seen so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// AssertNoErrors fails the test if the page logged an error or threw,
// except for messages containing one of the allowed strings.
func (b *Browser) AssertNoErrors(allowed ...string) {
	b.tb.Helper()
	for _, p := range b.Problems() {
		ok := false
		for _, a := range allowed {
			ok = ok || strings.Contains(p, a)
		}
		if !ok {
			b.tb.Errorf("the page reported: %s", p)
		}
	}
}

// activeElement describes the focused element, for failure messages.
func (b *Browser) activeElement() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](ActiveElement))
	if err != nil {
		return "(unknown)"
	}
	return s
}

func (b *Browser) report(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, s)
}

func (b *Browser) problemList() string {
	s := ""
	if p := b.Problems(); len(p) > 0 {
		s = "\nthe page reported:\n  " + strings.Join(p, "\n  ")
	}
	if w := b.WorkerLog(); len(w) > 0 {
		s += "\nits workers wrote:\n  " + strings.Join(w[max(0, len(w)-20):], "\n  ")
	}
	return s
}

// Conditions on the console that tests of every package wait for.
const (
	// FeedLive is true while the events page's live stream is open.
	FeedLive = `document.querySelector('#feed-status[data-state="live"]') !== null`
	// Interactive is true once the console's page runs its program
	// (bulkdesk:page-started): the import page takes a file before
	// (bulkdesk:interactive, web/early.js), its other controls from then.
	Interactive = `performance.getEntriesByName("bulkdesk:page-started").length > 0`
	// ReviewShown is true once a file's review is on the page.
	ReviewShown = `document.querySelector('#result[data-state="done"]') !== null`
)

// Pick sets the select id to value as an operator's choice does: its
// change event tells the page.
func Pick(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => {
  const s = document.getElementById(` + JSString(id) + `);
  s.value = ` + JSString(value) + `;
  s.dispatchEvent(new Event("change", {bubbles: true}));
})()`)
}

// Press presses the element selector finds as a keyboard does (its
// click() method): wherever the element is on the page, whatever covers
// its place on the screen for a moment.
func Press(selector string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`document.querySelector(` + JSString(selector) + `).click()`)
}
