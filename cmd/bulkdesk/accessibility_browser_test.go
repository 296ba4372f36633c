//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
)

// TestEveryPageIsAccessible runs axe-core on every page of the console
// and the states an operator goes through: the empty Import page, the
// reading step, a review with errors, the submission's confirmation, the
// Bulks list, a bulk's page with its review, under the four-eyes rule the
// approval queue and a review from it with its grid, Events, Webhooks and
// Settings, in each of the console's languages. Not one violation, of any
// impact, is let through, and no page is wider than a 1024-pixel window.
// widest is a JavaScript expression naming the elements that reach past
// the window's right edge.
const widest = `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 4).map(e => e.tagName + "#" + e.id + "." + e.className).join(", ")`

func TestEveryPageIsAccessible(t *testing.T) {
	browsertest.NeedAxe(t)
	for _, l := range lang.All {
		t.Run(l.Name(), func(t *testing.T) { pagesAreAccessible(t, l) })
	}
}

func pagesAreAccessible(t *testing.T, l lang.Tag) {
	var b *browsertest.Browser
	shots := 0
	check := func(state string) {
		t.Helper()
		state += " (" + l.Name() + ")"
		if got := browsertest.Eval[string](b, 5*time.Second, `document.documentElement.lang`); got != string(l) {
			t.Errorf("%s: the page says it is in %q", state, got)
		}
		b.AssertAccessible(state)
		// Every state in every language, for a person to look at.
		if os.Getenv(browsertest.ScreenshotEnv) != "" {
			shots++
			b.ShootElement("body", fmt.Sprintf("pages-%s-%02d.png", l, shots))
		}
		if n := browsertest.Eval[int](b, 5*time.Second, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); n > 0 {
			b.Shoot("overflow.png")
			t.Errorf("%s overflows a 1024-pixel window by %d px: %s", state, n, browsertest.Eval[string](b, 5*time.Second, widest))
		}
	}
	base := startServe(t, "-sandbox", "-webhook-key", browserKey).URL
	b = browsertest.New(t)
	// A small laptop's width: no page may overflow it sideways either.
	b.Do(10*time.Second, chromedp.EmulateViewport(1024, 768))
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	// The language as Settings keeps it, then the console opened afresh.
	browsertest.Eval[bool](b, 5*time.Second, `(localStorage.setItem("bulkdesk-lang", `+browsertest.JSString(string(l))+`), true)`)
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	check("the empty Import page")

	// Amounts in major units with a decimal comma: the reading is shown
	// before the review; row 3's currency is wrong.
	csv := "profileId;source.type;source.id;destination.type;destination.id;Währung;Betrag\n" +
		"110321;managed_accounts;1001;managed_cards;2001;EUR;12,50\n" +
		"110321;managed_accounts;1002;managed_cards;2002;eur;1.250,00\n"
	file := browsertest.WriteFile(t, "run.csv", []byte(csv))
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	waitShowing(t, b, 30*time.Second, "the reading step", `document.getElementById("read") !== null`)
	check("the reading step")

	b.Do(5*time.Second, browsertest.Press("#validate"))
	waitShowing(t, b, 30*time.Second, "the review", browsertest.ReviewShown)
	check("a review with errors")

	b.Do(5*time.Second, browsertest.Press("#submit-file"))
	waitShowing(t, b, 30*time.Second, "the confirmation", `document.querySelector('#submission[data-step]') !== null`)
	check("the submission's confirmation")

	k, _ := schema.Lookup("transfers")
	bulk, err := sandboxClient(t, base).Submit(context.Background(), k, fixture.Transfers(30), "")
	if err != nil {
		t.Fatal(err)
	}
	b.Do(30*time.Second, chromedp.Navigate(base+"bulks"))
	waitShowing(t, b, 60*time.Second, "the Bulks list", `document.querySelector('#bulk-list tr[data-bulk="`+bulk.BulkID+`"] .bulk-totals[data-loaded="true"]') !== null`)
	check("the Bulks list")

	b.Do(30*time.Second, chromedp.Navigate(base+"bulk?id="+bulk.BulkID))
	waitShowing(t, b, 30*time.Second, "the bulk's page", `document.getElementById("run-review") !== null && document.getElementById("action-execute") !== null`)
	b.Do(5*time.Second, browsertest.Press("#run-review"))
	waitShowing(t, b, 60*time.Second, "the bulk's review", `document.getElementById("review-result") !== null`)
	check("a bulk's page with its review")

	queueStatesAreAccessible(t, l, &b, check)

	sendEvent(t, base, "/transfers/watch", `{"eventType":"COMPLETED","transfer":{"id":{"id":"9001"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":1250}}}`)
	for _, page := range []struct{ path, ready, state string }{
		{"feed", `document.querySelector("#events li.event") !== null`, "the Events page with an event"},
		{"webhooks", `document.getElementById("main") !== null`, "the Webhooks page"},
		{"settings", `document.getElementById("route-title") !== null`, "the Settings page"},
	} {
		b.Do(30*time.Second, chromedp.Navigate(base+page.path))
		waitShowing(t, b, 30*time.Second, page.state, browsertest.Interactive+" && "+page.ready)
		check(page.state)
	}
}

// queueStatesAreAccessible checks, under the four-eyes rule, the queue of
// bulks awaiting approval on a checker's Bulks page and the review it
// opens, with every element in its grid and the server's receipt
// compared, in the checker's browser, which check reads through *b
// meanwhile.
func queueStatesAreAccessible(t *testing.T, l lang.Tag, b **browsertest.Browser, check func(string)) {
	t.Helper()
	defer func(page *browsertest.Browser) { *b = page }(*b)
	srv := startServe(t, "-sandbox", "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", t.TempDir())
	alice, bob := portalFor(t, srv.URL, "alice"), portalFor(t, srv.URL, "bob")
	// The same elements twice: the review marks them as in another bulk.
	k, _ := schema.Lookup("transfers")
	var bulk *bulkapi.Receipt
	for range 2 {
		var err error
		if bulk, err = sandboxClient(t, alice).WithFileName("Löhne März.json").Submit(context.Background(), k, fixture.Transfers(30), ""); err != nil {
			t.Fatal(err)
		}
	}
	*b = consoleIn(t, bob+"bulks", string(l))
	row := `#approval-queue tr[data-bulk="` + bulk.BulkID + `"]`
	waitShowing(t, *b, 60*time.Second, "the approval queue", `document.querySelector('`+row+` .queue-totals') !== null && document.getElementById("nav-queue-count") !== null`)
	check("the approval queue")
	(*b).Do(5*time.Second, browsertest.Press(row+" .queue-review"))
	waitShowing(t, *b, 60*time.Second, "the review from the queue", `document.querySelector('#review-verdict[data-match]') !== null && document.querySelector("#grid td[data-pos].cell-warning") !== null`)
	check("a review from the queue, with its grid")
}
