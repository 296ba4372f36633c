//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// gridCell is a JavaScript expression: the value in the grid's cell of
// the element at position pos of the view, in the column headed head.
func gridCell(pos int, head string) string {
	return fmt.Sprintf(`(() => {
  const heads = [...document.querySelectorAll("#grid thead th")].map(th => th.textContent);
  const col = heads.indexOf(%s) - 1;
  const cell = document.getElementById("cell-%d-" + col);
  // A marked cell says its severity to screen readers after its value.
  return (cell?.querySelector("span") ?? cell)?.textContent ?? "";
})()`, browsertest.JSString(head), pos)
}

// TestACheckerApprovesFromTheQueue runs serve -four-eyes behind a portal
// for two operators, each in a browser of their own: alice submits 10,000
// transfers from a file; bob finds the bulk in the approval queue at the
// top of Bulks, counted in the navigation, opens its review from there,
// reads its elements in the grid (to the last with Ctrl+End, a
// beneficiary searched, the invalid ones and those above an amount), sees
// it compared with the receipt the server kept, with no file passed, and
// executes it; the queue empties; alice, in a fresh profile, sees her
// bulk's file, time and maker in the list.
func TestACheckerApprovesFromTheQueue(t *testing.T) {
	browsertest.SkipShort(t)
	srv := startServe(t, "-sandbox", "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", t.TempDir())
	maker, checker := portalFor(t, srv.URL, "alice"), portalFor(t, srv.URL, "bob")

	m := openPage(t, maker)
	m.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	file, total := writeTransfersFile(t, "payroll-april.json", 10000)
	loadFile(t, m, "transfers", file)
	m.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, m, 2*time.Minute, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	id := browsertest.Eval[string](m, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)
	// The maker's own bulk is not in her queue.
	m.Do(30*time.Second, chromedp.Navigate(maker+"bulks"))
	waitShowing(t, m, 30*time.Second, "the maker's empty queue", `document.getElementById("queue-empty") !== null`)
	if browsertest.Eval[bool](m, 5*time.Second, `document.getElementById("nav-queue-count") !== null`) {
		t.Errorf("the maker's navigation counts %q bulks to approve", text(m, "#nav-queue-count"))
	}

	c := openPage(t, checker+"bulks")
	c.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	row := `#approval-queue tr[data-bulk="` + id + `"]`
	waitShowing(t, c, 30*time.Second, "the bulk in the checker's queue", `document.querySelector('`+row+`') !== null`)
	want := fmt.Sprintf("EUR %s.%02d", thousands(total/100), total%100)
	for sel, want := range map[string]string{
		row + " .queue-maker": "alice", row + " .queue-file": "payroll-april.json", row + " .queue-kind": "Create transfers",
		row + " .queue-elements": "10,000", row + " .queue-totals": want, "#nav-queue-count": "1",
	} {
		if got := text(c, sel); got != want {
			t.Errorf("%s reads %q, want %q", sel, got, want)
		}
	}
	if got := text(c, row+" .queue-submitted"); !strings.HasPrefix(got, time.Now().Format("2006-01-02")) && !strings.Contains(got, time.Now().Format("2006")) {
		t.Errorf("the queue says the bulk was submitted %q", got)
	}
	c.Shoot("queue-en.png")

	// From the queue to the review, which starts by itself and compares
	// the bulk with the receipt the server kept.
	c.Do(10*time.Second, browsertest.Press(row+" .queue-review"))
	waitShowing(t, c, 2*time.Minute, "the verdict", `document.querySelector('#review-verdict[data-match]') !== null`)
	if got := text(c, "#review-verdict"); got != "Matches the receipt the server kept" {
		t.Errorf("the checker's verdict reads %q: %s", got, text(c, "#review-differences"))
	}
	if got := text(c, "#review-compared-with"); !strings.Contains(got, "alice submitted payroll-april.json") || !strings.HasSuffix(got, "no file was needed.") {
		t.Errorf("the review says it compared with %q", got)
	}
	if n := browsertest.Eval[int](c, 5*time.Second, `document.getElementById("review-receipt").files.length`); n != 0 {
		t.Errorf("%d receipt files were loaded", n)
	}
	if got := text(c, "#review-shown"); got != "All 10,000 elements shown" {
		t.Errorf("the grid says %q", got)
	}
	if got := browsertest.Eval[string](c, 5*time.Second, gridCell(0, "Paid to")); got != "managed_cards 200000000" {
		t.Errorf("the first element pays %q", got)
	}
	if got := browsertest.Eval[string](c, 5*time.Second, gridCell(0, "Amount")); got != "EUR 1.00" {
		t.Errorf("the first element's amount reads %q", got)
	}
	c.ShootElement("#bulk-review", "review-grid-en.png")

	// The keyboard goes to the last element.
	c.Do(5*time.Second, browsertest.Press("#cell-0-0"))
	waitShowing(t, c, 10*time.Second, "the first cell focused", `document.activeElement?.id === "cell-0-0"`)
	c.Do(5*time.Second, chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(2))) // Ctrl
	waitShowing(t, c, 10*time.Second, "the last element focused", `document.activeElement?.closest("tr")?.querySelector("th")?.textContent === "#9,999"`)
	if got := browsertest.Eval[string](c, 5*time.Second, gridCell(9999, "Reference")); got != "Salary 9999" {
		t.Errorf("the last element's reference reads %q", got)
	}

	// A beneficiary searched, the invalid ones, those above an amount.
	c.Do(5*time.Second, fill("review-search", "200004321"))
	waitShowing(t, c, 10*time.Second, "the search", `document.getElementById("review-shown").textContent === "1 of 10,000 elements shown"`)
	if got := browsertest.Eval[string](c, 5*time.Second, `document.querySelector("#grid tbody tr[aria-rowindex] th").textContent`); got != "#4,321" {
		t.Errorf("the search shows %q", got)
	}
	c.Do(5*time.Second, fill("review-search", ""), browsertest.Pick("review-show", "invalid"))
	waitShowing(t, c, 10*time.Second, "no invalid element", `document.getElementById("review-shown").textContent === "0 of 10,000 elements shown"`)
	c.Do(5*time.Second, browsertest.Pick("review-show", ""), fill("review-above", "1.98"))
	waitShowing(t, c, 10*time.Second, "the elements above 1.98", `document.getElementById("review-shown").textContent === "100 of 10,000 elements shown"`)
	if got := browsertest.Eval[string](c, 5*time.Second, gridCell(0, "Amount")); got != "EUR 1.99" {
		t.Errorf("the first element above 1.98 reads %q", got)
	}
	c.ShootElement("#review-every-element", "review-filtered-en.png")

	confirmExecute(t, c)
	waitShowing(t, c, 3*time.Minute, "the bulk to complete", `document.getElementById("bulk-status")?.textContent === "Completed: all 10,000 done"`)
	waitShowing(t, c, 30*time.Second, "the approval", `(document.getElementById("four-eyes-approval")?.textContent ?? "").startsWith("Four eyes: submitted by alice, approved and executed by bob on ")`)
	// Executed, the bulk leaves the queue and its count.
	waitShowing(t, c, 30*time.Second, "the count to go", `document.getElementById("nav-queue-count") === null`)
	c.Do(30*time.Second, chromedp.Navigate(checker+"bulks"))
	waitShowing(t, c, 30*time.Second, "the empty queue", `document.getElementById("queue-empty") !== null`)

	// In a fresh profile, the journal knows nothing: the server's record
	// names the file, the time and the maker.
	fresh := openPage(t, maker+"bulks")
	fresh.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	listed := `#bulk-list tr[data-bulk="` + id + `"]`
	waitShowing(t, fresh, 30*time.Second, "the bulk's record in the list", `document.querySelector('`+listed+` .bulk-submitted[data-recorded="true"]') !== null`)
	if got := text(fresh, listed+" .bulk-source"); got != "payroll-april.json" {
		t.Errorf("the list names the file %q", got)
	}
	if got := text(fresh, listed+" .bulk-submitted"); !strings.HasSuffix(got, " by alice") || strings.Contains(got, "unknown") {
		t.Errorf("the list says the bulk was submitted %q", got)
	}
	fresh.Do(30*time.Second, chromedp.Navigate(maker+"bulk?id="+id))
	waitShowing(t, fresh, 30*time.Second, "the bulk's file", `document.getElementById("bulk-source")?.textContent === "payroll-april.json"`)
	if got := text(fresh, "#bulk-submitted"); !strings.HasSuffix(got, " by alice") || strings.Contains(got, "unknown") {
		t.Errorf("the bulk's page says it was submitted %q", got)
	}
	fresh.Shoot("bulk-record-en.png")
	m.AssertNoErrors()
	c.AssertNoErrors()
	fresh.AssertNoErrors()
}

// TestTheReviewMarksTheElementsThatDifferFromALoadedReceipt reviews a bulk
// submitted elsewhere against a receipt loaded from a file that declares
// two other elements: the verdict names them by index, and the grid marks
// them and shows them alone when asked.
func TestTheReviewMarksTheElementsThatDifferFromALoadedReceipt(t *testing.T) {
	browsertest.SkipShort(t)
	base := startServe(t, "-sandbox").URL
	declared := []byte(strings.ReplaceAll(string(salaryBody(t, 300)), `"Salary 12"`, `"Salary twelve"`))
	declared = []byte(strings.ReplaceAll(string(declared), `"Salary 40"`, `"Salary forty"`))
	id := submitBody(t, base, salaryBody(t, 300))
	receipt := receiptFile(t, declared, id, "april.receipt.json")

	b := openPage(t, base+"bulk?id="+id)
	b.Do(10*time.Second, chromedp.EmulateViewport(1280, 900))
	waitShowing(t, b, 30*time.Second, "the review section", `document.getElementById("run-review") !== null`)
	b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("review-receipt"), []string{receipt}))
	waitShowing(t, b, 10*time.Second, "the receipt loaded", `document.getElementById("review-receipt-hint").textContent.startsWith("Loaded: ")`)
	b.Do(5*time.Second, browsertest.Press("#run-review"))
	waitShowing(t, b, 60*time.Second, "the verdict", `document.querySelector('#review-verdict[data-match]') !== null`)
	if got := text(b, "#review-verdict"); got != "Does not match" {
		t.Fatalf("the verdict reads %q", got)
	}
	diffs := text(b, "#review-differences")
	for _, want := range []string{"element 12 is not what the receipt declares there", "element 40 is not what the receipt declares there"} {
		if !strings.Contains(diffs, want) {
			t.Errorf("the differences %q do not say %q", diffs, want)
		}
	}
	if got := text(b, "#review-compared-with"); got != "Compared with the receipt loaded from april.receipt.json." {
		t.Errorf("the review says it compared with %q", got)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, gridCell(12, "Receipt")); got != "not what the receipt declares here" {
		t.Errorf("element 12's receipt cell reads %q", got)
	}
	b.Do(5*time.Second, browsertest.Pick("review-show", "differs"))
	waitShowing(t, b, 10*time.Second, "the differing elements", `document.getElementById("review-shown").textContent === "2 of 300 elements shown"`)
	rows := browsertest.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("#grid tbody tr[aria-rowindex] th")].map(th => th.textContent).join(" ")`)
	if rows != "#12 #40" {
		t.Errorf("the grid shows %q, want #12 #40", rows)
	}
	b.ShootElement("#bulk-review", "review-differs-en.png")
	b.AssertNoErrors()
}

// salaryBody is a salary run of n transfers as a request body.
func salaryBody(t testing.TB, n int) []byte {
	t.Helper()
	path, _ := writeTransfersFile(t, "salary.json", n)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// submitBody submits a request body of transfers to the sandbox at base,
// as another program would, and returns its bulk.
func submitBody(t testing.TB, base string, body []byte) string {
	t.Helper()
	k, _ := schema.Lookup("transfers")
	bulk, err := sandboxClient(t, base).Submit(context.Background(), k, body, "")
	if err != nil {
		t.Fatal(err)
	}
	return bulk.BulkID
}

// receiptFile writes the maker's receipt of body, submitted as bulk id,
// to a file called name.
func receiptFile(t testing.TB, body []byte, id, name string) string {
	t.Helper()
	rc, err := fixture.Receipt(body, id)
	if err != nil {
		t.Fatal(err)
	}
	data, err := rc.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	return browsertest.WriteFile(t, name, data)
}
