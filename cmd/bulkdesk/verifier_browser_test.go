//go:build !js

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// verdictOf reads the status a verdict row gives a header.
func verdictOf(b *browsertest.Browser, header string) string {
	return browsertest.Eval[string](b, 5*time.Second, `document.querySelector('#verdicts tr[data-header=`+browsertest.JSString(header)+`]')?.dataset.status ?? ""`)
}

// A server without a receiver says so on the events page; the verifier
// works without one: an event pasted with a wrong key shows the mismatch
// and what was signed, the right key accepts it, and a body that lost its
// last newline is named as such. The key stays in the page's memory.
func TestVerifierShowsWhatWasSigned(t *testing.T) {
	srv := startServe(t)
	b := openPage(t, srv.URL+"feed")
	b.WaitFor(15*time.Second, "the events page to say there is no receiver", `document.querySelector('#feed-status[data-state="no-receiver"]') !== null`)
	if got := text(b, "#feed-status"); !strings.Contains(got, "-webhook-key") || !strings.Contains(got, "-sandbox") {
		t.Errorf("no-receiver notice %q", got)
	}
	b.Do(10*time.Second, chromedp.Click(chromedp.CSS(`nav a[href="/webhooks"]`)))
	b.WaitFor(10*time.Second, "the verifier", `document.title === "Webhook verifier · Bulkdesk"`)

	const key = "integrator-key-5f3a"
	at := time.Now().Add(-3 * time.Hour) // captured a while ago
	body := "{\"transfer\":{\"id\":{\"id\":\"42\"},\"state\":\"COMPLETED\"},\"note\":\"café au lait\"}\n"
	h := webhook.Sign(webhook.NewKey(key), "ref-7", []byte(body), at)
	ts := webhook.FormatTimestamp(at)
	// As curl -v shows the request.
	headers := fmt.Sprintf("> POST /hooks/transfers HTTP/1.1\n> Host: integrator.example\n> call-ref: ref-7\n> published-timestamp: %s\n> signature: %s\n> signature-v2: %s\n> Content-Type: application/json\n>\n",
		ts, h.Get("signature"), h.Get("signature-v2"))

	b.Do(5*time.Second, fill("verify-headers", "this is not a header"))
	b.WaitFor(5*time.Second, "the headers' error", `document.querySelector('#verify-result[data-state="bad-headers"]') !== null`)
	if got := text(b, "#verify-result"); !strings.Contains(got, "line 1") {
		t.Errorf("headers error %q", got)
	}

	b.Do(5*time.Second, fill("verify-headers", headers), fill("verify-body", body))
	b.WaitFor(5*time.Second, "the request for a key", `document.querySelector('#verify-result[data-state="waiting"]')?.textContent.includes("key")`)
	// Typed key by key, it is checked once the typing pauses.
	wrongV2 := webhook.SignatureV2(webhook.NewKey("integrator-key-5f3b"), "ref-7", []byte(body), ts)
	b.Do(5*time.Second, chromedp.SendKeys(chromedp.ID("verify-key"), "integrator-key-5f3b"))
	b.WaitFor(5*time.Second, "the verdict on the whole key", `document.querySelector('#verify-result[data-state="rejected"] #verdicts tr[data-header="signature-v2"] .verdict-expected')?.textContent.includes(`+browsertest.JSString(wrongV2)+`)`)
	if got := verdictOf(b, "signature-v2"); got != "mismatch" {
		t.Errorf("signature-v2 verdict %q", got)
	}
	if got := verdictOf(b, "published-timestamp"); got != "unchecked" {
		t.Errorf("published-timestamp verdict %q: an event captured earlier is not compared with the clock unless asked", got)
	}
	sum := sha256.Sum256([]byte(body))
	facts := map[string]string{
		"#signed-callref":     "ref-7 (5 characters)",
		"#signed-body-length": fmt.Sprintf("%d bytes", len(body)),
		"#signed-body-sha256": hex.EncodeToString(sum[:]),
		"#signed-timestamp":   ts,
		"#signed-message":     "ref-7" + body + ts,
	}
	for sel, want := range facts {
		if got := text(b, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	if got := text(b, "#signed-quoted"); !strings.Contains(got, `café au lait\"}\n`+ts+`"`) {
		t.Errorf("the escaped message %q does not show the newline before the timestamp", got)
	}
	if !browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("verify-signed").open`) {
		t.Error("what was signed is folded away on a mismatch")
	}

	// The right key, then a body that lost its final newline on the way.
	b.Do(5*time.Second, fill("verify-key", key))
	b.WaitFor(5*time.Second, "acceptance", `document.querySelector('#verify-result[data-state="accepted"]') !== null`)
	if got := verdictOf(b, "signature"); got != "valid" {
		t.Errorf("deprecated signature verdict %q", got)
	}
	b.Do(5*time.Second, fill("verify-body", strings.TrimSuffix(body, "\n")))
	b.WaitFor(5*time.Second, "the rejection of the trimmed body", `document.querySelector('#verify-result[data-state="rejected"]') !== null`)
	if got := text(b, `#verdicts tr[data-header="signature-v2"] .hints`); !strings.Contains(got, "newline added at the end") {
		t.Errorf("hints %q", got)
	}
	// Compared with the clock, a three-hour-old event is outside the window.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("verify-clock")))
	b.WaitFor(5*time.Second, "the clock's verdict", `document.querySelector('#verdicts tr[data-header="published-timestamp"]')?.dataset.status === "outside-window"`)

	// A body with CRLF line endings: pasted, the browser makes them LF and
	// the hint says so; loaded from its file, its exact bytes match.
	crlf := "{\r\n  \"bulkId\": \"118231498219765760\",\r\n  \"status\": \"COMPLETED\"\r\n}\r\n"
	h = webhook.Sign(webhook.NewKey(key), "", []byte(crlf), at)
	file := filepath.Join(t.TempDir(), "captured-body.json")
	if err := os.WriteFile(file, []byte(crlf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("verify-clock")),
		fill("verify-headers", "published-timestamp: "+ts+"\nsignature-v2: "+h.Get("signature-v2")+"\n"), fill("verify-body", crlf))
	b.WaitFor(5*time.Second, "the hint on line endings", `document.querySelector('#verdicts tr[data-header="signature-v2"] .hints')?.textContent.includes("LF line endings turned into CRLF")`)
	b.Do(5*time.Second, chromedp.SetUploadFiles(chromedp.ID("verify-body-file"), []string{file}))
	b.WaitFor(5*time.Second, "the file's body accepted", `document.querySelector('#verify-result[data-state="accepted"]') !== null`)
	if got := text(b, "#verify-body-size"); got != fmt.Sprintf("%d bytes from captured-body.json, exactly as in the file.", len(crlf)) {
		t.Errorf("body size %q", got)
	}

	// The key is in no URL, storage, cookie or attribute of the page.
	leak := browsertest.Eval[string](b, 5*time.Second, `(() => {
  const places = {href: location.href, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage),
    cookie: document.cookie, html: document.documentElement.outerHTML, history: JSON.stringify(history.state)};
  return Object.entries(places).filter(([, v]) => (v || "").includes(`+browsertest.JSString(key)+`)).map(([k]) => k).join(",");
})()`)
	if leak != "" {
		t.Errorf("the key is in: %s", leak)
	}
	if typ := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("verify-key").type + " " + document.getElementById("verify-key").autocomplete`); typ != "password off" {
		t.Errorf("key field: %s", typ)
	}
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("verify-forget")))
	b.WaitFor(5*time.Second, "the key forgotten", `document.getElementById("verify-key").value === "" && document.querySelector('#verify-result[data-state="waiting"]')?.textContent.includes("key")`)
	b.AssertNoErrors()
}
