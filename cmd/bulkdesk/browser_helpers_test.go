//go:build !js

package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// liveServe is "bulkdesk serve" running in the test, with the built
// console, on 127.0.0.1.
type liveServe struct {
	URL     string // the console's root, ending in "/"
	Addr    string // host:port, to start it again on the same one
	stop    context.CancelFunc
	done    chan error
	stopped bool
}

// startServe runs "bulkdesk serve -quiet" with args (add -addr to choose
// the address; 127.0.0.1:0 otherwise) until the test ends or Stop. The
// console must have been built (make console; make test does it).
func startServe(t testing.TB, args ...string) *liveServe {
	t.Helper()
	browsertest.NeedConsole(t)
	cfg, err := parseServe(append([]string{"-addr", "127.0.0.1:0", "-quiet"}, args...), func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &liveServe{stop: cancel, done: make(chan error, 1)}
	urls := make(chan string, 1)
	go func() { s.done <- serveConsole(ctx, cfg, func(u string) { urls <- u }) }()
	select {
	case s.URL = <-urls:
	case err := <-s.done:
		cancel()
		t.Fatalf("serve stopped at once: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("serve did not start within 10 s")
	}
	s.Addr = strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/")
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Stop shuts the server down and waits for it; it may be called twice.
func (s *liveServe) Stop(t testing.TB) {
	t.Helper()
	s.stop()
	if s.stopped {
		return
	}
	s.stopped = true
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Error("serve did not stop within 15 s")
	}
}

// openPage starts a browser on a page of the console and waits for it to
// take input.
func openPage(t testing.TB, url string) *browsertest.Browser {
	t.Helper()
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(url))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	return b
}

// consoleIn opens the console at base in a tab of 1024×768 whose
// language is lang, as Settings keeps it, started.
func consoleIn(t testing.TB, base, lang string) *browsertest.Browser {
	t.Helper()
	b := browsertest.New(t)
	b.Do(10*time.Second, chromedp.EmulateViewport(1024, 768))
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	browsertest.Eval[bool](b, 5*time.Second, `(localStorage.setItem("bulkdesk-lang", `+browsertest.JSString(lang)+`), true)`)
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	return b
}

// fill sets a form field's value and tells the page, as a paste does.
func fill(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => {
  const el = document.getElementById(` + browsertest.JSString(id) + `);
  el.value = ` + browsertest.JSString(value) + `;
  el.dispatchEvent(new Event("input", {bubbles: true}));
})()`)
}

// text reads the text of the element a CSS selector finds, or "".
func text(b *browsertest.Browser, selector string) string {
	return browsertest.Eval[string](b, 5*time.Second, `document.querySelector(`+browsertest.JSString(selector)+`)?.textContent ?? ""`)
}
