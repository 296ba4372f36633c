//go:build !js

package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

func TestConsoleAsksHowToReadAmountsThatDisagree(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	file := filepath.Join(t.TempDir(), "payroll.csv")
	if err := os.WriteFile(file, []byte(fixture.MixedUnitsCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))

	// The file is not reviewed at once: the step that shows how it is
	// read asks how its amounts are written.
	b.WaitFor(30*time.Second, "the question about the units", `document.getElementById("question-units") !== null`)
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("result") !== null`) {
		t.Error("the review is shown too")
	}
	if step := browsertest.Eval[string](b, 5*time.Second, `document.querySelector(".step-current").textContent`); !strings.Contains(step, "Check how it is read") {
		t.Errorf("the current step is %q", step)
	}
	now := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#question-units .reading-now").textContent`)
	if !strings.Contains(now, "amounts in minor units: 1050 is EUR 10.50.") {
		t.Errorf("the question says %q", now)
	}
	cells := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#question-units-cells tbody tr")].map(tr => [...tr.children].map(c => c.textContent).join(" | "))`)
	// The header, the API's own path, says minor units too.
	if len(cells) != 6 || !strings.HasPrefix(cells[0], "G6 | 30.50 | major units") || !strings.HasPrefix(cells[1], "G1 | destinationAmount.amount | minor units") {
		t.Errorf("the cells behind the question: %q", cells)
	}
	choices := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#question-units .reading-choices button")].map(b => b.id)`)
	if strings.Join(choices, " ") != "choose-units-minor choose-units-major" {
		t.Errorf("choices %q", choices)
	}
	// The preview of the file's own cells starts with the one that
	// disagrees.
	first := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#examples tbody tr").textContent`)
	if !strings.HasPrefix(first, "G6") || !strings.Contains(first, "30.50") || !strings.Contains(first, "Error") {
		t.Errorf("the first example is %q", first)
	}
	if marked := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#examples tr.example-disagrees th")].map(th => th.textContent)`); strings.Join(marked, ",") != "G6 disagrees" {
		t.Errorf("the examples marked as disagreeing: %q, want G6's only", marked)
	}
	if said := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("announcer").textContent`); !strings.Contains(said, "does not say how to read it") {
		t.Errorf("the live region says %q", said)
	}
	b.ShootElement("#read", "reading-step.png")

	// Going on as it is: the review, where 30.50 is an error at its cell
	// and the header says the amounts are read in minor units.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("validate")))
	b.WaitFor(30*time.Second, "the review", browsertest.ReviewShown)
	if got := counts(b); got["count-elements"] != "5" || got["count-invalid"] != "1" {
		t.Errorf("summary = %v", got)
	}
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length === 5`)
	id := browsertest.Eval[string](b, 5*time.Second, cellWith("30.50"))
	if id == "" || !browsertest.Eval[bool](b, 5*time.Second, `document.getElementById(`+browsertest.JSString(id)+`).classList.contains("cell-error")`) {
		t.Errorf("the cell of 30.50 (%q) is not an error", id)
	}
	units := `document.querySelector('#review-reading li[data-name="units"]')`
	if got := browsertest.Eval[string](b, 5*time.Second, units+`.textContent`); !strings.HasPrefix(got, "Check: amounts in minor units: 1050 is EUR 10.50. The file does not say") {
		t.Errorf("the review's header says %q", got)
	}
	if !browsertest.Eval[bool](b, 5*time.Second, units+`.classList.contains("reading-marked")`) {
		t.Error("the undecided units are not marked in the review")
	}
	b.ShootElement("#result", "reading-review.png")

	// Major units instead: 30.50 reads, the rest are large sums, and the
	// header marks it.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("change-reading")))
	b.WaitFor(10*time.Second, "the step again", `document.getElementById("choose-units-major") !== null`)
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("choose-units-major")))
	b.WaitFor(30*time.Second, "the choice to apply", `document.getElementById("question-units") === null && document.getElementById("amounts-major").checked`)
	b.WaitFor(5*time.Second, "the focus on the answer", browsertest.ActiveElement+` === "#amounts-major"`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#read-reading .reading-marked")?.textContent ?? ""`); got != "Check: amounts in MAJOR units: 10.50 is EUR 10.50, not EUR 0.10, as you chose." {
		t.Errorf("the step says %q", got)
	}
	b.ShootElement("#read", "reading-step-major.png")
	if first := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#examples tbody tr").textContent`); !strings.Contains(first, "EUR 30.50") {
		t.Errorf("the first example in major units is %q", first)
	}
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("validate")))
	b.WaitFor(30*time.Second, "the review in major units", browsertest.ReviewShown+` && document.getElementById("count-invalid").textContent === "0"`)
	if got := browsertest.Eval[string](b, 5*time.Second, units+`.textContent`); got != "Check: amounts in MAJOR units: 10.50 is EUR 10.50, not EUR 0.10, as you chose." {
		t.Errorf("the review's header says %q", got)
	}
	if !browsertest.Eval[bool](b, 5*time.Second, units+`.classList.contains("reading-marked")`) {
		t.Error("major units are not marked in the review")
	}
	if total := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#totals tbody td.amount").textContent`); total != "EUR 677,104.50" {
		t.Errorf("total %q", total)
	}
	b.ShootElement("#result", "reading-review-major.png")

	// The confirmation before the submission says it again.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("submit-file")))
	confirm := `document.querySelector('#confirm-reading li[data-name="units"]')`
	b.WaitFor(30*time.Second, "the confirmation", confirm+` !== null`)
	if got := browsertest.Eval[string](b, 5*time.Second, confirm+`.textContent`); !strings.HasPrefix(got, "Check: amounts in MAJOR units") {
		t.Errorf("the confirmation says %q", got)
	}
	if !browsertest.Eval[bool](b, 5*time.Second, confirm+`.classList.contains("reading-marked")`) {
		t.Error("major units are not marked in the confirmation")
	}
	b.ShootElement("#submission", "reading-confirm.png")
	b.AssertNoErrors()
}

func TestConsoleWritesALowerCaseCurrencyColumnInCapitals(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	file := writeTransfersXLSX(t, "payroll.xlsx", fixture.Rows.List(30, 2, 17))
	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)
	if got := counts(b)["count-invalid"]; got != "2" {
		t.Fatalf("invalid = %s, want 2", got)
	}
	// The reading of a file in minor units, all whole numbers, is stated
	// without a mark.
	if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector('#review-reading li[data-name="units"]').outerHTML`); strings.Contains(got, "reading-marked") || !strings.Contains(got, "amounts in minor units") {
		t.Errorf("the units statement: %s", got)
	}
	fix := `document.querySelector("#fixes button")`
	if got := browsertest.Eval[string](b, 5*time.Second, fix+`?.textContent ?? ""`); got != "Write every currency of column F (destinationAmount.currency) in capitals (eur → EUR)" {
		t.Errorf("the fix is %q", got)
	}
	b.ShootElement(".toolbar", "currency-fix.png")
	b.Do(5*time.Second, chromedp.Click(chromedp.CSS("#fixes button")))
	b.WaitFor(10*time.Second, "every row valid", `document.getElementById("count-invalid").textContent === "0"`)
	if browsertest.Eval[bool](b, 5*time.Second, fix+` !== null`) {
		t.Error("the fix is still offered")
	}
	if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#totals tbody tr").textContent`); !strings.Contains(got, "30") {
		t.Errorf("totals row = %q, want the 30 elements in EUR", got)
	}
	b.AssertNoErrors()
}
