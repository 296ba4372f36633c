//go:build !js

package server_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ui"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// mixedUnitsEurCSV is fixture.MixedUnitsCSV with one lower-case currency, on
// row 3: read in major units, it is the one invalid row.
var mixedUnitsEurCSV = strings.Replace(fixture.MixedUnitsCSV, "2003,EUR", "2003,eur", 1)

// fixCell double-clicks the first cell that starts with from and types to.
func fixCell(t *testing.T, b *browsertest.Browser, from, to string) {
	t.Helper()
	id := browsertest.Eval[string](b, 5*time.Second, cellWith(from))
	if id == "" {
		t.Fatalf("no cell holds %q", from)
	}
	b.Do(10*time.Second, chromedp.DoubleClick(chromedp.ID(id)))
	b.WaitFor(5*time.Second, "the cell editor", browsertest.ActiveElement+` === "#cell-editor"`)
	b.Do(5*time.Second, chromedp.KeyEvent(to), chromedp.KeyEvent(kb.Enter))
}

// draftStatus is what the page says of the import in progress.
const draftStatus = `(document.getElementById("draft-status")?.textContent ?? "")`

func TestConsoleBringsBackTheFileItsReadingAndAFixedCellAfterAReload(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	file := filepath.Join(t.TempDir(), "payroll.csv")
	if err := os.WriteFile(file, []byte(mixedUnitsEurCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))

	// The operator reads the amounts in major units, validates, and
	// fixes the one invalid cell.
	b.WaitFor(30*time.Second, "the question about the units", `document.getElementById("choose-units-major") !== null`)
	b.WaitFor(10*time.Second, "the draft to be kept", draftStatus+`.startsWith("payroll.csv is kept in this browser")`)
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("choose-units-major")))
	b.WaitFor(30*time.Second, "the choice to apply", `document.getElementById("question-units") === null && document.getElementById("amounts-major").checked`)
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("validate")))
	b.WaitFor(30*time.Second, "the review", browsertest.ReviewShown+` && document.getElementById("count-invalid").textContent === "1"`)
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length === 5`)
	fixCell(t, b, "eur", "EUR")
	b.WaitFor(10*time.Second, "the edit to be saved", `document.getElementById("count-invalid").textContent === "0" && `+draftStatus+`.includes("1 edit saved")`)
	before := reviewState(b)

	// A reload asks first, then brings back the same review.
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the review brought back", browsertest.ReviewShown+` && `+draftStatus+`.includes("1 edit saved")`)
	if d := b.Dialogs(); !slices.Contains(d, "beforeunload") {
		t.Errorf("the reload did not ask first: dialogs %q", d)
	}
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length === 5`)
	after := reviewState(b)
	if after != before {
		t.Errorf("the review after the reload:\n%s\nbefore:\n%s", after, before)
	}
	for _, want := range []string{"payroll.csv", "Check: amounts in MAJOR units: 10.50 is EUR 10.50, not EUR 0.10, as you chose.", "invalid=0", "row 4: 2003 1999 EUR 110321 managed_accounts 1002 managed_cards"} {
		if !strings.Contains(after, want) {
			t.Errorf("the review brought back lacks %q:\n%s", want, after)
		}
	}
	if said := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("announcer").textContent`); !strings.Contains(said, "as you left it, with 1 edit") {
		t.Errorf("the live region says %q", said)
	}
	b.ShootElement("main", "drafts-reload.png")

	// The step that shows how it is read is the operator's too.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("step-read")))
	b.WaitFor(10*time.Second, "the reading step", `document.getElementById("amounts-major")?.checked === true`)
	b.ShootElement("main", "drafts-read.png")
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("step-review")))
	b.WaitFor(10*time.Second, "the review again", browsertest.ReviewShown)

	// "Start over" discards it: a reload neither asks nor brings it back.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("start-over")))
	b.WaitFor(10*time.Second, "the first step", `document.getElementById("result") === null && document.getElementById("draft-status") === null`)
	b.WaitFor(10*time.Second, "the draft to be discarded", `document.getElementById("announcer").textContent.startsWith("Started over")`)
	asked := len(b.Dialogs())
	b.Do(30*time.Second, chromedp.Reload())
	b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
	b.WaitFor(30*time.Second, "the worker to answer", `document.querySelector("#status.status-busy") === null`)
	b.WaitFor(30*time.Second, "every job's answer", `document.documentElement.dataset.jobsInFlight === "0"`)
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("result") !== null || document.getElementById("read") !== null`) {
		t.Error("a discarded file came back")
	}
	if n := len(b.Dialogs()); n != asked {
		t.Errorf("the reload after starting over asked first: %q", b.Dialogs())
	}
	b.AssertNoErrors()
}

// reviewState is what the review shows: the file, how it is read, the
// counts, the draft and the rows in view.
func reviewState(b *browsertest.Browser) string {
	return browsertest.Eval[string](b, 5*time.Second, `(() => {
  const out = [document.getElementById("result-title").textContent];
  for (const li of document.querySelectorAll("#review-reading li")) out.push(li.textContent);
  for (const dd of document.querySelectorAll(".summary dd")) out.push(dd.id.replace("count-", "") + "=" + dd.textContent);
  out.push(document.getElementById("draft-status")?.textContent ?? "no draft");
  for (const tr of document.querySelectorAll("#grid tbody tr[aria-rowindex]")) out.push("row " + [...tr.children].map(c => c.textContent).join(" ").replace(" ", ": "));
  return out.join("\n");
})()`)
}

func TestConsoleKeepsTheFileAcrossPagesAndBackFromTheSubmission(t *testing.T) {
	b := browsertest.New(t)
	// A sandbox connection, ready without settings: the confirmation then
	// offers "Back to the file".
	srv := startConsoleWith(t, server.Options{API: ui.APIConfig{Proxy: true, Sandbox: &ui.SandboxConfig{Path: "sandbox/multi", Proxied: true, APIKey: "key", Token: "token"}}})
	file := writeTransfersXLSX(t, "payroll.xlsx", fixture.Rows.List(30, 2))
	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown+` && document.getElementById("count-invalid").textContent === "1"`)
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 5`)
	fixCell(t, b, "eur", "EUR")
	b.WaitFor(10*time.Second, "the edit to be saved", `document.getElementById("count-invalid").textContent === "0" && `+draftStatus+`.includes("1 edit saved")`)
	before := reviewState(b)

	back := func(what string) {
		t.Helper()
		b.WaitFor(30*time.Second, "the review brought back "+what, browsertest.ReviewShown+` && `+draftStatus+`.includes("1 edit saved")`)
		b.WaitFor(10*time.Second, "the table's rows "+what, `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 5`)
		if after := reviewState(b); after != before {
			t.Errorf("the review %s:\n%s\nbefore:\n%s", what, after, before)
		}
	}

	// Import → Bulks → Import.
	b.Do(10*time.Second, chromedp.Click(chromedp.CSS(`nav.nav a[href$="/bulks"]`)))
	b.WaitFor(10*time.Second, "the bulks page", `location.pathname.endsWith("/bulks") && document.getElementById("result") === null`)
	b.Do(10*time.Second, chromedp.Click(chromedp.CSS(`nav.nav a[href="/"]`)))
	back("after the bulks page")

	// Submit… → Back to the file.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("submit-file")))
	backLink := `[...document.querySelectorAll("#submission a")].find(a => a.textContent === "Back to the file")`
	b.WaitFor(30*time.Second, "the confirmation", backLink+` !== undefined`)
	b.Do(5*time.Second,
		chromedp.Evaluate[chromedp.Void](backLink+`.dataset.test = "back"`),
		chromedp.Click(chromedp.CSS(`a[data-test="back"]`)))
	back("back from the submission")
	b.ShootElement("main", "drafts-back.png")
	b.AssertNoErrors()
}
