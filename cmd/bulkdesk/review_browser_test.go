//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
)

// makersReceipt is the receipt of a file of transfers submitted as bulk
// id in one chunk, as the maker's CLI writes it.
func makersReceipt(t testing.TB, file, id string) *bulkreview.Receipt {
	t.Helper()
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := fixture.Receipt(body, id)
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// TestConsoleReviewsASubmittedBulkAgainstTheReceipt submits a file, opens
// its bulk and reviews it as a second operator would: the bulk read back
// from the API shows the file's count and totals, matches the maker's
// receipt, and a wrong control count is named.
func TestConsoleReviewsASubmittedBulkAgainstTheReceipt(t *testing.T) {
	base := startServe(t, "-sandbox").URL
	b := browsertest.New(t)
	b.Do(10*time.Second, chromedp.EmulateViewport(1280, 1400))
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	// Every page says the sandbox is in use.
	if got := text(b, "#sandbox-banner"); !strings.HasPrefix(got, "Sandbox.") {
		t.Errorf("the Import page's sandbox banner reads %q", got)
	}

	file, total := writeTransfersFile(t, "salaries-april.json", 300)
	eur := fmt.Sprintf("EUR %s.%02d", thousands(total/100), total%100)
	loadFile(t, b, "transfers", file)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)
	openBulk(t, b, id)

	waitShowing(t, b, 30*time.Second, "the review section", `document.getElementById("run-review") !== null`)
	b.Do(5*time.Second, browsertest.Press("#run-review"))
	waitShowing(t, b, 60*time.Second, "the review", `document.getElementById("review-result") !== null`)
	if got := text(b, "#review-elements"); got != "300" {
		t.Errorf("the review counts %q elements", got)
	}
	if got := text(b, `#review-totals li[data-currency="EUR"] .total-amount`); got != eur {
		t.Errorf("the review's EUR total reads %q, want %q", got, eur)
	}
	if got := text(b, "#review-verdict"); !strings.HasPrefix(got, "Nothing compared") {
		t.Errorf("with nothing to compare the verdict reads %q", got)
	}
	if n := browsertest.Eval[int](b, 5*time.Second, `document.querySelectorAll("#review-sources tbody tr").length`); n == 0 {
		t.Error("no totals per source")
	}
	waitShowing(t, b, 60*time.Second, "the look-up of its elements in other bulks", `document.querySelector('#review-repeats[data-count="0"]') !== null`)

	rc := makersReceipt(t, file, id)
	data, err := rc.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	receipt := browsertest.WriteFile(t, "salaries-april.receipt.json", data)
	b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("review-receipt"), []string{receipt}))
	waitShowing(t, b, 60*time.Second, "the verdict against the receipt", `document.querySelector('#review-verdict[data-match]') !== null`)
	if got := text(b, "#review-verdict"); got != "Matches the receipt" {
		t.Errorf("the verdict reads %q: %s", got, text(b, "#review-differences"))
	}
	if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#review-hash code").title`); got != rc.Chunks[0].SHA256 {
		t.Errorf("the body hash is %q, the receipt's %q", got, rc.Chunks[0].SHA256)
	}
	b.Shoot("review-matches.png")

	// A control count the bulk does not have is named.
	b.Do(5*time.Second, chromedp.SendKeys(chromedp.ID("review-count"), "299"), browsertest.Press("#run-review"))
	waitShowing(t, b, 60*time.Second, "the verdict against the count", `document.querySelector('#review-verdict[data-match="false"]') !== null`)
	if got := text(b, "#review-verdict"); got != "Does not match" {
		t.Errorf("the verdict reads %q", got)
	}
	if got := text(b, "#review-differences"); !strings.Contains(got, "The control count is 299; bulk "+id+" holds 300 operations") {
		t.Errorf("the differences read %q", got)
	}
	b.Shoot("review-differs.png")

	// The same file submitted again by another program: its review says
	// that executing it would send every element a second time.
	k, _ := schema.Lookup("transfers")
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	again, err := sandboxClient(t, base).Submit(context.Background(), k, body, "")
	if err != nil {
		t.Fatal(err)
	}
	// The checker is handed its id.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/bulks"]`))
	waitShowing(t, b, 30*time.Second, "the Bulks page", `document.getElementById("open-bulk-id") !== null && document.getElementById("sandbox-banner") !== null`)
	b.Do(10*time.Second, chromedp.SendKeys(chromedp.ID("open-bulk-id"), again.BulkID), browsertest.Press("#open-bulk-button"))
	waitShowing(t, b, 30*time.Second, "the review section", `document.querySelector('#bulk[data-bulk="`+again.BulkID+`"]') !== null && document.getElementById("run-review") !== null`)
	b.Do(5*time.Second, browsertest.Press("#run-review"))
	waitShowing(t, b, 60*time.Second, "the review of the repeat", `document.getElementById("review-result") !== null`)
	waitShowing(t, b, 60*time.Second, "the look-up of its elements in other bulks", `document.querySelector("#review-repeats[data-count]") !== null`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("review-repeats")?.dataset.count ?? ""`); got != "300" {
		t.Errorf("the review of the same file again names %q repeated elements", got)
	}
	if got := text(b, "#review-repeats"); !strings.Contains(got, "300 of the 300 elements are in another bulk too ("+id+")") {
		t.Errorf("the repeats read %q", got)
	}
	b.Shoot("review-repeats.png")
	b.AssertNoErrors()
}
