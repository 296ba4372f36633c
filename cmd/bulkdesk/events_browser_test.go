//go:build !js

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
)

// browserKey signs the events of the browser tests.
const browserKey = "browser-test-webhook-key"

// submitBulk submits a bulk of two card blocks and returns its id.
func submitBulk(t *testing.T, client *bulkapi.Client, ref string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := client.Submit(ctx, kind, []byte(`[{"pathParams":{"_id_":"1"}},{"pathParams":{"_id_":"2"}}]`), ref)
	if err != nil {
		t.Fatal(err)
	}
	return receipt.BulkID
}

// executeBulk executes a bulk; the sandbox ends it and sends its
// end-of-bulk event to the server's receiver.
func executeBulk(t *testing.T, client *bulkapi.Client, bulkID string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := client.Execute(ctx, bulkID, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// runBulk submits a bulk of two card blocks through the console's API
// proxy and executes it. It returns the bulk's id.
func runBulk(t *testing.T, base, ref string) string {
	t.Helper()
	client := sandboxClient(t, base)
	id := submitBulk(t, client, ref)
	executeBulk(t, client, id)
	return id
}

// sendEvent posts an event signed with browserKey to the server's receiver.
func sendEvent(t testing.TB, base, eventType, body string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := &webhook.Sender{Key: webhook.NewKey(browserKey)}
	if err := s.Send(ctx, base+"webhooks", webhook.Delivery{Type: eventType, Body: []byte(body), CallRef: "browser-test"}); err != nil {
		t.Fatal(err)
	}
}

// shownTypes lists the types of the events the page shows, top first.
func shownTypes(b *browsertest.Browser) []string {
	return browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#events li.event")].map(li => li.dataset.type)`)
}

// chooseType picks an event type in the filter, as the select reports it.
func chooseType(path string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => {
  const s = document.getElementById("event-type");
  s.value = ` + browsertest.JSString(path) + `;
  s.dispatchEvent(new Event("change", {bubbles: true}));
})()`)
}

// The sandbox executes a bulk and its end-of-bulk event appears on the
// events page, live, with its bulk linked; other events arrive beside it,
// the filter keeps one type, a payload opens on demand, and the verifier
// takes an event from the list.
func TestEventsPageShowsEventsLive(t *testing.T) {
	srv := startServe(t, "-sandbox", "-webhook-key", browserKey)
	b := openPage(t, srv.URL+"feed")
	b.WaitFor(15*time.Second, "the live stream", browsertest.FeedLive)
	if got := text(b, "#feed-status"); !strings.Contains(got, srv.URL+"webhooks/bulk_process_end/watch") {
		t.Errorf("the status does not give the receiver's URL: %q", got)
	}
	b.WaitFor(5*time.Second, "the empty list", `document.getElementById("events-empty") !== null`)

	bulkID := runBulk(t, srv.URL, "browser-events-1")
	b.WaitFor(30*time.Second, "the end-of-bulk event", `document.querySelector('#events li.event[data-type="/bulk_process_end/watch"]') !== null`)
	ev := `#events li.event[data-type="/bulk_process_end/watch"]`
	if got := text(b, ev+" .event-title"); got != "Bulk process ended" {
		t.Errorf("title %q", got)
	}
	if got := text(b, ev+" .event-status"); got != "Completed" {
		t.Errorf("status %q", got)
	}
	fields := text(b, ev+" .event-fields")
	if !strings.Contains(fields, "bulk"+bulkID) || !strings.Contains(fields, "submitted2") || !strings.Contains(fields, "2 completed") {
		t.Errorf("fields %q, want the bulk id, 2 submitted and 2 completed", fields)
	}
	if href := browsertest.Eval[string](b, 5*time.Second, `document.querySelector(`+browsertest.JSString(ev+" a.bulk-link")+`).getAttribute("href")`); href != "/bulk?id="+bulkID {
		t.Errorf("the bulk links to %q", href)
	}

	// Another event arrives above it.
	sendEvent(t, srv.URL, "/transfers/watch", `{"eventType":"COMPLETED","transfer":{"id":{"id":"9001"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":1250}}}`)
	b.WaitFor(10*time.Second, "the transfer event on top", `document.querySelector("#events li.event")?.dataset.type === "/transfers/watch"`)
	if got := text(b, "#events li.event .event-fields"); !strings.Contains(got, "transfer9001") || !strings.Contains(got, "EUR 12.50") {
		t.Errorf("transfer fields %q", got)
	}

	// The filter keeps one type, and says so in the URL.
	b.Do(5*time.Second, chooseType("/bulk_process_end/watch"))
	b.WaitFor(5*time.Second, "the filtered list", `document.querySelectorAll("#events li.event").length === 1`)
	if got := shownTypes(b); len(got) != 1 || got[0] != "/bulk_process_end/watch" {
		t.Errorf("filtered list %v", got)
	}
	if q := browsertest.Eval[string](b, 5*time.Second, `location.search`); q != "?type=%2Fbulk_process_end%2Fwatch" {
		t.Errorf("the URL's query is %q", q)
	}
	b.Do(5*time.Second, chooseType(""))
	b.WaitFor(5*time.Second, "both events", `document.querySelectorAll("#events li.event").length === 2`)

	// The raw payload, on demand.
	b.Do(5*time.Second, chromedp.Click(chromedp.CSS(ev+" .payload-toggle")))
	b.WaitFor(5*time.Second, "the payload", `document.querySelector(`+browsertest.JSString(ev+" .event-body")+`) !== null`)
	body := text(b, ev+" .event-body")
	if !strings.Contains(body, `"bulkId":"`+bulkID+`"`) {
		t.Errorf("payload %q", body)
	}
	if got := text(b, ev+" .event-headers"); !strings.Contains(got, "signature-v2: ") || !strings.Contains(got, "request-ref: sbx-bulk-end-"+bulkID) {
		t.Errorf("headers %q", got)
	}
	if exp := browsertest.Eval[string](b, 5*time.Second, `document.querySelector(`+browsertest.JSString(ev+" .payload-toggle")+`).getAttribute("aria-expanded")`); exp != "true" {
		t.Errorf("aria-expanded %q", exp)
	}

	// The verifier takes the event from the list and checks it with the key.
	b.Do(10*time.Second, chromedp.Click(chromedp.CSS(ev+" a.verify-link")))
	b.WaitFor(10*time.Second, "the verifier with the event", `document.getElementById("verify-source") !== null`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("verify-body").value`); got != body {
		t.Errorf("the verifier's body %q, want the event's %q", got, body)
	}
	b.Do(5*time.Second, chromedp.SendKeys(chromedp.ID("verify-key"), browserKey))
	b.WaitFor(5*time.Second, "the verdict", `document.querySelector('#verify-result[data-state="accepted"]') !== null`)
	sum := sha256.Sum256([]byte(body))
	if got := text(b, "#signed-body-sha256"); got != hex.EncodeToString(sum[:]) {
		t.Errorf("body hash %q", got)
	}

	// Opened by its address, the verifier waits for the console's events.
	verifyURL := browsertest.Eval[string](b, 5*time.Second, `location.href`)
	b.Do(30*time.Second, chromedp.Navigate(verifyURL))
	b.WaitFor(30*time.Second, "the verifier loaded with the event again", `document.getElementById("verify-body")?.value === `+browsertest.JSString(body))
	b.AssertNoErrors()
}

// The sandbox executes a bulk, run from outside the console, while the
// bulk page shows it: the page does not poll a bulk that is not running,
// so it is the bulk_process_end event that makes it read the bulk again.
// The events page then lists the event, linked to the same bulk.
func TestABulkEndUpdatesTheBulkPage(t *testing.T) {
	srv := startServe(t, "-sandbox", "-webhook-key", browserKey)
	client := sandboxClient(t, srv.URL)
	bulkID := submitBulk(t, client, "browser-bulk-page-1")
	b := openPage(t, srv.URL+"bulk?id="+bulkID)
	b.WaitFor(20*time.Second, "the bulk, submitted", `document.querySelector('#bulk[data-status="SUBMITTED"]') !== null`)

	executeBulk(t, client, bulkID)
	b.WaitFor(20*time.Second, "the bulk page to show the bulk ended", `document.querySelector('#bulk[data-status="COMPLETED"]') !== null`)
	if got := text(b, "#bulk-completed"); got != "2" {
		t.Errorf("completed operations shown: %q", got)
	}

	b.Do(10*time.Second, chromedp.Click(chromedp.CSS(`nav a[href="/feed"]`)))
	link := `#events li.event[data-type="/bulk_process_end/watch"] a.bulk-link`
	b.WaitFor(20*time.Second, "the end-of-bulk event", `document.querySelector(`+browsertest.JSString(link)+`)?.textContent === `+browsertest.JSString(bulkID))
	b.Do(10*time.Second, chromedp.Click(chromedp.CSS(link)))
	b.WaitFor(20*time.Second, "the bulk page from the event's link", `document.querySelector('#bulk[data-status="COMPLETED"]')?.dataset.bulk === `+browsertest.JSString(bulkID))
	b.AssertNoErrors()
}

// When the stream drops, the browser resumes it from the last event it
// saw; events that left the receiver's memory meanwhile are listed from
// its events file, not named as a gap, and a receiver that starts a new
// numbering replaces the list.
func TestEventsPageResumesAfterARestart(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, "-sandbox", "-webhook-key", browserKey, "-events-dir", dir, "-events-ring", "3")
	b := openPage(t, srv.URL+"feed")
	b.WaitFor(15*time.Second, "the live stream", browsertest.FeedLive)
	for i := 1; i <= 2; i++ {
		sendEvent(t, srv.URL, "/transfers/watch", fmt.Sprintf(`{"transfer":{"id":{"id":"%d"}}}`, i))
	}
	b.WaitFor(10*time.Second, "two events", `document.querySelectorAll("#events li.event").length === 2`)

	// While the server is down, five more events are accepted: as if
	// another server had taken them into the same events file. Two of
	// them are past the ring of 3 when it starts again.
	srv.Stop(t)
	b.WaitFor(15*time.Second, "the page to see the stream drop", `!document.querySelector('#feed-status[data-state="live"]')`)
	appendEvents(t, dir, 3, 7)
	again := startServe(t, "-addr", srv.Addr, "-sandbox", "-webhook-key", browserKey, "-events-dir", dir, "-events-ring", "3")
	b.WaitFor(30*time.Second, "the stream to resume", browsertest.FeedLive+` && document.querySelectorAll("#events li.event").length === 7`)
	seqs := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#events li.event")].map(li => li.dataset.seq)`)
	if strings.Join(seqs, ",") != "7,6,5,4,3,2,1" {
		t.Errorf("events shown %v, want 7,6,5,4,3,2,1", seqs)
	}
	if got := text(b, ".feed-gap"); got != "" {
		t.Errorf("a gap is named though the events were listed: %q", got)
	}

	// A server without the events directory numbers events anew.
	again.Stop(t)
	b.WaitFor(15*time.Second, "the page to see the stream drop", `!document.querySelector('#feed-status[data-state="live"]')`)
	fresh := startServe(t, "-addr", srv.Addr, "-sandbox", "-webhook-key", browserKey)
	sendEvent(t, fresh.URL, "/send/watch", `{"send":{"id":{"id":"77"},"state":"COMPLETED"}}`)
	b.WaitFor(30*time.Second, "the new receiver's events", `document.getElementById("feed-restarted") !== null && document.querySelectorAll("#events li.event").length === 1`)
	if got := shownTypes(b); got[0] != "/send/watch" {
		t.Errorf("after the new numbering the page shows %v", got)
	}
	b.WaitFor(10*time.Second, "the live stream", browsertest.FeedLive)
	// While the server is down, a request of the page may fail.
	b.AssertNoErrors("net::ERR_CONNECTION_REFUSED", "net::ERR_FAILED")
}

// appendEvents writes signed events numbered from first to last to the
// receiver's events file, as a receiver accepting them would.
func appendEvents(t *testing.T, dir string, first, last uint64) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "events.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	key := webhook.NewKey(browserKey)
	verifier := webhook.Verifier{Key: key}
	for seq := first; seq <= last; seq++ {
		body := []byte(fmt.Sprintf(`{"transfer":{"id":{"id":"%d"}}}`, seq))
		h := webhook.Sign(key, "", body, time.Now())
		ev := webhook.NewEvent("/transfers/watch", h, body, verifier.Verify(h, body), time.Now())
		ev.Seq = seq
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
	}
}
