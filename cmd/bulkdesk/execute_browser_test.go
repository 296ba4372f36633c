//go:build !js

package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// confirmOpen is true while the confirmation of Execute is open.
const confirmOpen = `(document.getElementById("execute-confirm") || {}).open === true`

// confirmExecute presses Execute on a bulk's page and executes it through
// its confirmation.
func confirmExecute(t testing.TB, b *browsertest.Browser) {
	t.Helper()
	b.Do(5*time.Second, browsertest.Press("#action-execute"))
	waitShowing(t, b, 60*time.Second, "the confirmation of Execute with the bulk's totals", confirmOpen+` && !document.getElementById("confirm-execute").disabled`)
	b.Do(5*time.Second, browsertest.Press("#confirm-execute"))
	waitShowing(t, b, 10*time.Second, "the confirmation to close", "!"+confirmOpen)
}

// TestConsoleConfirmsExecutionAndTellsBulksApart submits a file, opens
// its bulk, and checks that Execute asks first, showing the kind, the
// count, the totals and what happens when an operation fails; that
// Escape and Cancel leave the bulk alone; that only the confirmation's
// own button executes; and that the list of bulks shows each bulk's
// state in words, submission time, file and totals, or that it was
// submitted elsewhere.
func TestConsoleConfirmsExecutionAndTellsBulksApart(t *testing.T) {
	base := startServe(t, "-sandbox").URL
	api := sandboxClient(t, base)
	b := browsertest.New(t)
	b.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)

	// A bulk the console did not submit: another program sent it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	k, _ := schema.Lookup("transfers")
	other, err := api.Submit(ctx, k, []byte(`[{"pathParams":{},"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000001"},"destination":{"type":"managed_cards","id":"2000000001"},"destinationAmount":{"currency":"GBP","amount":2500}}}]`), "")
	if err != nil {
		t.Fatal(err)
	}

	file, total := writeTransfersFile(t, "payroll-march.json", 300)
	eur := fmt.Sprintf("EUR %s.%02d", thousands(total/100), total%100)
	loadFile(t, b, "transfers", file)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	if got := text(b, "#submit-outcome"); !strings.HasPrefix(got, "Submitted: 1 bulk made.") {
		t.Errorf("the submission says %q", got)
	}
	id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)
	openBulk(t, b, id)

	// The bulk's page tells it apart.
	waitShowing(t, b, 60*time.Second, "the bulk's totals", `document.querySelector('#bulk-totals[data-loaded="true"]') !== null`)
	if got := text(b, "#bulk-status"); got != "Awaiting approval: submitted, not executed yet" {
		t.Errorf("the state reads %q", got)
	}
	if got := text(b, "#bulk-source"); got != "payroll-march.json" {
		t.Errorf("the file reads %q", got)
	}
	if got := text(b, "#bulk-submitted"); !strings.HasPrefix(got, time.Now().Format("2006-01-02")) {
		t.Errorf("the submission time reads %q", got)
	}
	if got := text(b, "#bulk-totals"); got != eur {
		t.Errorf("the totals read %q, want %q", got, eur)
	}

	// Execute asks first; Escape leaves the bulk as it is.
	b.Do(5*time.Second, browsertest.Pick("execute-mode", "ON_FAILURE_STOP"), browsertest.Press("#action-execute"))
	waitShowing(t, b, 10*time.Second, "the confirmation of Execute", confirmOpen+` && document.querySelector('#confirm-totals[data-loaded="true"]') !== null`)
	if got := text(b, "#confirm-kind"); !strings.Contains(strings.ToLower(got), "transfer") {
		t.Errorf("the confirmation's kind reads %q", got)
	}
	if got := text(b, "#confirm-count"); got != "300" {
		t.Errorf("the confirmation's count reads %q", got)
	}
	if got := text(b, `#confirm-totals li[data-currency="EUR"] .total-amount`); got != eur {
		t.Errorf("the confirmation's EUR total reads %q, want %q", got, eur)
	}
	// The page shows the mode chosen at its next frame.
	waitShowing(t, b, 5*time.Second, "the mode chosen in the confirmation", `document.getElementById("confirm-mode").textContent.includes("the bulk stops there")`)
	b.Shoot("exec-confirm.png")
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Escape))
	waitShowing(t, b, 10*time.Second, "Escape to close the confirmation", "!"+confirmOpen)

	// Cancel too; the mode chosen now is the one the confirmation says.
	b.Do(5*time.Second, browsertest.Pick("execute-mode", "ON_FAILURE_CONTINUE"), browsertest.Press("#action-execute"))
	waitShowing(t, b, 10*time.Second, "the confirmation again", confirmOpen)
	waitShowing(t, b, 5*time.Second, "the mode chosen in the confirmation", `document.getElementById("confirm-mode").textContent.includes("the others still run")`)
	b.Do(5*time.Second, browsertest.Press("#cancel-execute"))
	waitShowing(t, b, 10*time.Second, "Cancel to close the confirmation", "!"+confirmOpen)
	// An execution would go through the worker: once no job awaits its
	// answer, none was asked for.
	waitShowing(t, b, 30*time.Second, "every job's answer", `document.documentElement.dataset.jobsInFlight === "0"`)
	if bp, err := api.Get(ctx, id); err != nil || bp.Status != bulkapi.Submitted {
		t.Fatalf("after Escape and Cancel the bulk is %+v (%v)", bp, err)
	}

	// Executed through the confirmation, it runs to the end.
	confirmExecute(t, b)
	waitShowing(t, b, 60*time.Second, "the bulk to complete", `document.getElementById("bulk").dataset.status === "COMPLETED"`)
	if got := text(b, "#bulk-status"); got != "Completed: all 300 done" {
		t.Errorf("the state reads %q", got)
	}
	b.Shoot("exec-bulk.png")
	if bp, _ := api.Get(ctx, id); bp.Mode != bulkapi.OnFailureContinue {
		t.Errorf("the bulk ran in mode %q", bp.Mode)
	}

	// The list: time, file and totals of each bulk.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/bulks"]`))
	waitShowing(t, b, 60*time.Second, "the list with its totals", `document.querySelectorAll("#bulk-list tr[data-bulk]").length === 2 && document.querySelectorAll('#bulk-list .bulk-totals[data-loaded="true"]').length === 2`)
	row := func(bulk, cell string) string {
		return text(b, `#bulk-list tr[data-bulk="`+bulk+`"] .`+cell)
	}
	if got := row(id, "bulk-source"); got != "payroll-march.json" {
		t.Errorf("the list's file reads %q", got)
	}
	if got := row(id, "bulk-totals"); got != eur {
		t.Errorf("the list's totals read %q, want %q", got, eur)
	}
	if got := row(id, "bulk-submitted"); !strings.HasPrefix(got, time.Now().Format("2006-01-02")) {
		t.Errorf("the list's submission time reads %q", got)
	}
	if got := row(id, "bulk-state"); got != "Completed: all 300 done" {
		t.Errorf("the list's state reads %q", got)
	}
	if got := row(id, "bulk-elements"); got != "300" {
		t.Errorf("the list's count reads %q", got)
	}
	if got := row(other.BulkID, "bulk-source") + " · " + row(other.BulkID, "bulk-submitted"); got != "submitted elsewhere · unknown" {
		t.Errorf("a bulk the journal does not know comes from %q", got)
	}
	if got := row(other.BulkID, "bulk-totals"); got != "GBP 25.00" {
		t.Errorf("the other bulk's totals read %q", got)
	}
	if got := row(other.BulkID, "bulk-state"); got != "Awaiting approval: submitted, not executed yet" {
		t.Errorf("the other bulk's state reads %q", got)
	}
	b.Shoot("exec-bulks.png")
	b.AssertNoErrors()

	// The same file from another browser (a journal of its own): the
	// repeat check names the earlier bulk first; sent again on purpose,
	// the API answers with the bulk it made, which the console names with
	// its state instead of counting it as made.
	b2 := browsertest.New(t)
	b2.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	b2.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b2, 60*time.Second, "the console to start in the other browser", browsertest.Interactive)
	loadFile(t, b2, "transfers", file)
	waitShowing(t, b2, 60*time.Second, "the repeats found", `document.querySelector('#repeats-again') !== null`)
	if got := text(b2, "#repeats"); !strings.Contains(got, id) {
		t.Errorf("the repeats do not name bulk %s: %q", id, got)
	}
	b2.Do(5*time.Second, browsertest.Press("#repeats-again"))
	waitShowing(t, b2, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	if got := text(b2, "#submit-outcome"); strings.Contains(got, "bulk made") || !strings.Contains(got, "no new bulk was made") {
		t.Errorf("a submission answered with an earlier bulk says %q", got)
	}
	if got := text(b2, `#existing-bulks li[data-bulk="`+id+`"]`); !strings.Contains(got, "completed: all 300 done") {
		t.Errorf("the earlier bulk is named as %q", got)
	}
	if n := len(mustList(t, api)); n != 2 {
		t.Errorf("the sandbox holds %d bulks, want 2", n)
	}
	b2.Shoot("exec-existing.png")
	b2.AssertNoErrors()
}
