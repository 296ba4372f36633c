//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// The browser tests of submission run "bulkdesk serve -sandbox" as
// "make run" does, with the built console, on a loopback port.

// sandboxClient calls the server's sandbox through its proxy.
func sandboxClient(t testing.TB, base string) *bulkapi.Client {
	t.Helper()
	c, err := bulkapi.New(bulkapi.Config{BaseURL: base + "api", BackOfficeURL: base + "backoffice", APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// armFaults makes the sandbox misbehave (POST /sandbox/faults).
func armFaults(t *testing.T, base, body string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"sandbox/sandbox/faults", strings.NewReader(body))
	req.Header.Set("api-key", sandbox.DefaultAPIKey)
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("arming faults %s: %d", body, res.StatusCode)
	}
}

// writeTransfersFile writes n transfers of 1.00 to 1.99 EUR (amount 100 + i%100
// cents) to a file; the elements listed in failing carry the text the
// sandbox declines.
func writeTransfersFile(t testing.TB, name string, n int, failing ...int) (path string, totalMinor int) {
	t.Helper()
	run := fixture.Salary(name).Failing(failing...)
	return browsertest.WriteFile(t, name, run.Body(n)), run.Total(n)
}

// waitShowing waits for expr like Browser.WaitFor; when it times out, the
// failure also shows the text of the main content, which says why.
func waitShowing(t testing.TB, b *browsertest.Browser, timeout time.Duration, what, expr string) {
	t.Helper()
	if !eventually.Until(timeout, func() bool { return browsertest.Eval[bool](b, 10*time.Second, "Boolean("+expr+")") }) {
		t.Fatalf("waited %v for %s, in vain; the page shows:\n%s\nand reported %q; its workers wrote %q", timeout, what,
			browsertest.Eval[string](b, 10*time.Second, `document.getElementById("main")?.innerText || document.body.innerText`), b.Problems(), lastLines(b.WorkerLog(), 20))
	}
}

// lastLines are the last n of lines.
func lastLines(lines []string, n int) []string { return lines[max(0, len(lines)-n):] }

// loadFile validates a JSON request of kind on the Import page and opens
// its submission.
func loadFile(t testing.TB, b *browsertest.Browser, kind, path string) {
	b.Do(10*time.Second, browsertest.Pick("kind", kind), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{path}))
	waitShowing(t, b, 60*time.Second, "the validation of "+filepath.Base(path), browsertest.ReviewShown+` && document.getElementById("result-title").textContent === `+browsertest.JSString(filepath.Base(path)))
	b.Do(5*time.Second, browsertest.Press("#submit-file"))
	waitShowing(t, b, 60*time.Second, "the confirmation step", `document.querySelector('#submission[data-step="confirm"]') !== null`)
}

// openBulk follows the link to a bulk and waits for its page.
func openBulk(t testing.TB, b *browsertest.Browser, id string) {
	b.Do(5*time.Second, browsertest.Press(`a[data-bulk="`+id+`"]`))
	waitShowing(t, b, 30*time.Second, "the page of bulk "+id, `document.querySelector('#bulk[data-bulk="`+id+`"]') !== null`)
}

func TestConsoleSubmitsRunsAndMapsFailuresToTheFile(t *testing.T) {
	base := startServe(t, "-sandbox").URL
	api := sandboxClient(t, base)
	b := browsertest.New(t)
	downloads := b.AllowDownloads()
	b.Do(30*time.Second, chromedp.Navigate(base+"settings"))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)

	// The sandbox's connection is prefilled and says it is the sandbox.
	waitShowing(t, b, 10*time.Second, "the sandbox notice", `document.getElementById("sandbox-notice") !== null`)
	if key := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("api-key").value`); key != sandbox.DefaultAPIKey {
		t.Errorf("the api-key field holds %q", key)
	}
	b.Do(5*time.Second, browsertest.Press("#test-connection"))
	waitShowing(t, b, 30*time.Second, "the connection test", `document.getElementById("test-result") !== null`)
	// Nothing of the credentials is kept beyond the page's memory.
	if kept := browsertest.Eval[int](b, 5*time.Second, `localStorage.length + sessionStorage.length`); kept != 0 {
		t.Errorf("the browser's storage holds %d items after the settings page", kept)
	}

	// A valid request of 1,000 transfers: confirmed, submitted, executed,
	// watched to COMPLETED.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/"]`))
	waitShowing(t, b, 10*time.Second, "the Import page", `document.getElementById("request-file") !== null`)
	good, total := writeTransfersFile(t, "payroll.json", 1000)
	loadFile(t, b, "transfers", good)
	if got := text(b, "#confirm-sending"); got != "1,000" {
		t.Errorf("the confirmation sends %q elements", got)
	}
	if got, want := text(b, `#control-totals tr[data-currency="EUR"] .total-amount`), fmt.Sprintf("%s.%02d", thousands(total/100), total%100); got != want {
		t.Errorf("the EUR control total is %q, want %q", got, want)
	}
	if !strings.Contains(text(b, "#submit-target"), "Sandbox") {
		t.Errorf("the confirmation does not say it goes to the sandbox: %q", text(b, "#submit-target"))
	}
	if n := len(mustList(t, api)); n != 0 {
		t.Fatalf("the sandbox holds %d bulks before the confirmation", n)
	}
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	bulks := mustList(t, api)
	if len(bulks) != 1 || bulks[0].SubmittedItemsCount != 1000 {
		t.Fatalf("the sandbox holds %+v", bulks)
	}
	openBulk(t, b, bulks[0].BulkID)
	if got := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#bulk-actions button")].map(b => b.id)`); !slices.Equal(got, []string{"action-execute", "action-cancel"}) {
		t.Errorf("a SUBMITTED bulk offers %v", got)
	}
	confirmExecute(t, b)
	waitShowing(t, b, 30*time.Second, "the bulk to run", `["RUNNING", "COMPLETED"].includes(document.getElementById("bulk").dataset.status)`)
	waitShowing(t, b, 60*time.Second, "the bulk to complete", `document.getElementById("bulk").dataset.status === "COMPLETED"`)
	if done := browsertest.Eval[int](b, 5*time.Second, `document.getElementById("bulk-progress").value`); done != 1000 {
		t.Errorf("the progress bar of a completed bulk stands at %d", done)
	}
	if n := browsertest.Eval[int](b, 5*time.Second, `document.querySelectorAll("#bulk-actions button").length`); n != 0 {
		t.Errorf("a COMPLETED bulk offers %d actions", n)
	}

	// A request with two elements the sandbox declines ends
	// PARTIALLY_COMPLETED, its failed operations shown at their elements.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/"]`))
	waitShowing(t, b, 10*time.Second, "the Import page", `document.getElementById("request-file") !== null`)
	mixed, _ := writeTransfersFile(t, "mixed.json", 40, 7, 31)
	loadFile(t, b, "transfers", mixed)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)
	openBulk(t, b, id)
	b.Do(5*time.Second, browsertest.Pick("execute-mode", "ON_FAILURE_CONTINUE"))
	confirmExecute(t, b)
	waitShowing(t, b, 60*time.Second, "the bulk to end", `document.getElementById("bulk").dataset.status === "PARTIALLY_COMPLETED"`)
	b.Do(5*time.Second, browsertest.Pick("operation-status", "FAILED"))
	waitShowing(t, b, 30*time.Second, "the failed operations", `document.querySelectorAll('#operations-table tbody tr').length === 2 && [...document.querySelectorAll('#operations-table tbody tr')].every(tr => tr.dataset.status === "FAILED")`)
	places := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#operations-table .operation-place")].map(td => td.textContent)`)
	if !slices.Equal(places, []string{"element 7", "element 31"}) {
		t.Errorf("the failed operations are placed at %q", places)
	}
	if e := text(b, "#operations-table .operation-error"); !strings.Contains(e, "SANDBOX_DECLINED") {
		t.Errorf("a failed operation's error reads %q", e)
	}
	// Each names its payment: whom, how much, with what reference.
	keys := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#operations-table tbody tr")].map(tr =>
		[".operation-receiver", ".operation-amount", ".operation-reference"].map(c => tr.querySelector(c).textContent).join(" | "))`)
	if !slices.Equal(keys, []string{"managed_cards 200000007 | EUR 1.07 | Salary 7 " + fixture.FailMarker, "managed_cards 200000031 | EUR 1.31 | Salary 31 " + fixture.FailMarker}) {
		t.Errorf("the failed operations' key fields read %q", keys)
	}

	// The result workbook: every element with its file, bulk, state and
	// whom it paid, the failed ones first, ready to fix.
	b.Do(5*time.Second, browsertest.Press("#result-workbook"))
	data := b.Downloaded(60*time.Second, downloads, "mixed-results.xlsx")
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	failedRows, _ := f.GetRows("Failed rows")
	results, _ := f.GetRows("Results")
	if len(failedRows) != 3 || !strings.Contains(strings.Join(failedRows[1], " "), "mixed-7") || len(results) != 41 ||
		results[1][0] != "mixed.json" || results[1][1] != "7" || results[1][2] != id || results[1][4] != "FAILED" || results[2][1] != "31" || results[3][4] != "COMPLETED" ||
		results[0][5] != "Paid to" || !strings.HasPrefix(results[1][5], "managed_cards ") || results[1][7] != "EUR" {
		t.Errorf("the result workbook holds failed rows %q and results %q…", failedRows, results[:min(len(results), 10)])
	}
	b.AssertNoErrors()
}

// TestConsoleResumesAfterAReloadWithoutDuplicates reloads the tab while
// the first of two chunks waits for an answer that never came, resumes
// from the journal, and checks that the sandbox holds one bulk per chunk.
// Loading the file again then warns, naming the bulks, and only a
// deliberate "submit again as a new bulk" makes new ones.
func TestConsoleResumesAfterAReloadWithoutDuplicates(t *testing.T) {
	base := startServe(t, "-sandbox").URL
	api := sandboxClient(t, base)
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	file, _ := writeTransfersFile(t, "big.json", 12000)
	loadFile(t, b, "transfers", file)
	if got := text(b, "#confirm-bulks"); got != "2" {
		t.Fatalf("12,000 elements make %q bulks", got)
	}

	// The first submission is acted on but its answer is lost; the
	// retries are told to wait. Before it, the repeat check lists the
	// bulks (it read them all for the confirmation) and the console counts
	// the identity's bulks, to tell a bulk made before from a new one:
	// those reads pass.
	armFaults(t, base, `{"pass": 2, "drop": 1}`)
	armFaults(t, base, `{"rateLimit": 5}`)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "a retry with the same ref", `(document.getElementById("submit-detail") || {}).textContent?.includes("trying again")`)
	b.Do(30*time.Second, chromedp.Reload())
	waitShowing(t, b, 60*time.Second, "the console to start again", browsertest.Interactive)

	// The journal survived the reload and offers to resume.
	waitShowing(t, b, 30*time.Second, "the interrupted submission", `document.querySelector('#journal tr[data-interrupted="true"] button[id^="resume-"]') !== null`)
	armFaults(t, base, `{"clear": true}`)
	if n := len(mustList(t, api)); n != 1 {
		t.Fatalf("before resuming the sandbox holds %d bulks, want the one the lost answer made", n)
	}
	b.Do(5*time.Second, browsertest.Press(`#journal tr[data-interrupted="true"] button[id^="resume-"]`))
	waitShowing(t, b, 60*time.Second, "the resumed submission", `document.querySelector('#journal tr[data-state="submitted"]') !== null && document.querySelector('#journal tr[data-interrupted="true"]') === null`)
	bulks := mustList(t, api)
	var sizes []int
	for _, bp := range bulks {
		sizes = append(sizes, bp.SubmittedItemsCount)
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{2000, 10000}) {
		t.Fatalf("the sandbox holds bulks of %v elements, want one per chunk: 10,000 and 2,000", sizes)
	}

	// The bulk of the first chunk runs long enough to pause, resume and
	// cancel it; each state offers only what it allows.
	var big string
	for _, bp := range bulks {
		if bp.SubmittedItemsCount == 10000 {
			big = bp.BulkID
		}
	}
	openBulk(t, b, big)
	actions := func() []string {
		return browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#bulk-actions button")].map(b => b.id)`)
	}
	confirmExecute(t, b)
	waitShowing(t, b, 30*time.Second, "the bulk to run", `document.getElementById("bulk").dataset.status === "RUNNING"`)
	if got := actions(); !slices.Equal(got, []string{"action-pause", "action-cancel"}) {
		t.Errorf("a RUNNING bulk offers %v", got)
	}
	b.Do(5*time.Second, browsertest.Press("#action-pause"))
	waitShowing(t, b, 30*time.Second, "the bulk to pause", `document.getElementById("bulk").dataset.status === "PAUSED"`)
	if got := actions(); !slices.Equal(got, []string{"action-resume", "action-cancel"}) {
		t.Errorf("a PAUSED bulk offers %v", got)
	}
	b.Do(5*time.Second, browsertest.Press("#action-resume"))
	waitShowing(t, b, 30*time.Second, "the bulk to run again", `document.getElementById("bulk").dataset.status === "RUNNING"`)
	// Cancelling asks first; the operator agrees.
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`), browsertest.Press("#action-cancel"))
	waitShowing(t, b, 30*time.Second, "the bulk to be cancelled", `document.getElementById("bulk").dataset.status === "CANCELLED"`)
	if got := actions(); len(got) != 0 {
		t.Errorf("a CANCELLED bulk offers %v", got)
	}
	// The list of bulks, filtered by state.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/bulks"]`))
	waitShowing(t, b, 30*time.Second, "the list of bulks", `document.querySelectorAll("#bulk-list tr[data-bulk]").length === 2`)
	b.Do(5*time.Second, browsertest.Pick("bulk-status", "CANCELLED"))
	waitShowing(t, b, 30*time.Second, "the cancelled bulks", `document.querySelectorAll("#bulk-list tr[data-bulk]").length === 1 && document.querySelector("#bulk-list tr[data-bulk]").dataset.bulk === `+browsertest.JSString(big))

	// The same file again: a warning names the earlier bulks before
	// anything is sent, and sending is only offered as new bulks.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/"]`))
	waitShowing(t, b, 10*time.Second, "the Import page", `document.getElementById("request-file") !== null`)
	loadFile(t, b, "transfers", file)
	warning := text(b, "#priors")
	for _, bp := range bulks {
		if !strings.Contains(warning, "bulk "+bp.BulkID) {
			t.Errorf("the warning does not name bulk %s: %q", bp.BulkID, warning)
		}
	}
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("confirm-submit") !== null`) {
		t.Error("a file submitted before is offered for sending as it is")
	}
	b.Do(5*time.Second, browsertest.Press("#submit-new-bulk"))
	waitShowing(t, b, 60*time.Second, "the new-bulk confirmation", `(document.getElementById("confirm-submit") || {}).textContent?.includes("again as 2 new bulks")`)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the new submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	if n := len(mustList(t, api)); n != 4 {
		t.Errorf("after a deliberate new submission the sandbox holds %d bulks, want 4", n)
	}
	b.AssertNoErrors("status of 429", "net::ERR_EMPTY_RESPONSE", "Failed to fetch", "net::ERR_FAILED")
}

func mustList(t testing.TB, c *bulkapi.Client) []bulkapi.BulkProcess {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	all, err := c.ListAll(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// thousands writes n with commas, as the console does.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestConsoleBackOfficeAndRefusals obtains a back-office token for an
// identity, submits and runs a back-office bulk with it, and shows a 409
// and a 401 as the operator sees them: the class, the code and the
// request-ref.
func TestConsoleBackOfficeAndRefusals(t *testing.T) {
	base := startServe(t, "-sandbox").URL
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.Navigate(base+"settings"))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	if id := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("identity").value`); id != "CORPORATE:1001" {
		t.Errorf("the identity is prefilled with %q", id)
	}
	b.Do(5*time.Second, browsertest.Press("#obtain-token"))
	waitShowing(t, b, 30*time.Second, "the back-office token", `document.getElementById("backoffice-token").textContent.includes("token for CORPORATE:1001 is held")`)

	b.Do(10*time.Second, browsertest.Press(`nav a[href="/"]`))
	waitShowing(t, b, 10*time.Second, "the Import page", `document.getElementById("request-file") !== null`)
	file, _ := writeTransfersFile(t, "office.json", 20)
	b.Do(5*time.Second, browsertest.Pick("kind", "transfers"))
	waitShowing(t, b, 10*time.Second, "the back-office choice", `document.getElementById("backoffice") !== null`)
	b.Do(5*time.Second, browsertest.Press("#backoffice"))
	loadFile(t, b, "transfers", file)
	if kind := text(b, "#confirm-kind"); !strings.Contains(kind, "(on behalf of an identity)") {
		t.Errorf("the confirmation's kind reads %q", kind)
	}
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	link := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").getAttribute("href")`)
	id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)
	if !strings.HasSuffix(link, "&api=backoffice") {
		t.Errorf("the bulk's link %q does not name the back-office API", link)
	}
	openBulk(t, b, id)

	// The bulk is cancelled behind the page's back: executing it from the
	// stale page is refused with a 409, shown with its code.
	office, err := sandboxClient(t, base).BackOffice()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tok, err := office.AccessToken(ctx, sandbox.DefaultIdentity)
	if err != nil {
		t.Fatal(err)
	}
	if err := office.WithToken(tok.Token).Cancel(ctx, id); err != nil {
		t.Fatal(err)
	}
	confirmExecute(t, b)
	waitShowing(t, b, 30*time.Second, "the refusal", `document.querySelector('#bulk-failure[data-class="conflict"]') !== null`)
	failure := text(b, "#bulk-failure")
	if !strings.Contains(failure, "HTTP 409") || !strings.Contains(failure, "code INVALID_STATE") || text(b, "#bulk-failure .request-ref") == "" {
		t.Errorf("the 409 reads %q", failure)
	}
	waitShowing(t, b, 30*time.Second, "the bulk's state read again", `document.getElementById("bulk").dataset.status === "CANCELLED"`)

	// A wrong api-key: the connection test says so, with the request-ref.
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/settings"]`))
	waitShowing(t, b, 10*time.Second, "the settings", `document.getElementById("api-key") !== null`)
	b.Do(5*time.Second, fill("api-key", "not-the-key"), browsertest.Press("#test-connection"))
	waitShowing(t, b, 30*time.Second, "the refusal", `document.querySelector('#test-failure[data-class="credentials"]') !== null`)
	if f := text(b, "#test-failure"); !strings.Contains(f, "HTTP 401") || text(b, "#test-failure .request-ref") == "" {
		t.Errorf("the 401 reads %q", f)
	}
	// The operator keeps the credentials for the tab: sessionStorage holds
	// them, localStorage never does.
	b.Do(5*time.Second, fill("api-key", sandbox.DefaultAPIKey), browsertest.Press("#keep-for-tab"))
	waitShowing(t, b, 10*time.Second, "the credentials kept for the tab", `sessionStorage.getItem("bulkdesk.connection") !== null`)
	if browsertest.Eval[bool](b, 5*time.Second, `JSON.stringify(Object.assign({}, localStorage)).includes("sandbox-")`) {
		t.Error("localStorage holds a credential")
	}
	b.Do(30*time.Second, chromedp.Reload())
	waitShowing(t, b, 60*time.Second, "the settings again", `document.getElementById("api-key")?.value === `+browsertest.JSString(sandbox.DefaultAPIKey)+` && document.getElementById("keep-for-tab").checked`)
	b.AssertNoErrors("status of 401", "status of 409")
}
