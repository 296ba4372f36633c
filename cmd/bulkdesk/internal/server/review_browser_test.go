//go:build !js

package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/xlsxbook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// writeTransfersXLSX writes rows as a workbook with one sheet, Transfers.
func writeTransfersXLSX(t testing.TB, name string, rows []fixture.Transfer) string {
	t.Helper()
	return browsertest.WriteFile(t, name, xlsxbook.Transfers("Transfers", rows))
}

// requestBodyOf is the request body rows make, as the console sends it:
// compact, keys sorted.
func requestBodyOf(t testing.TB, rows []fixture.Transfer) string {
	t.Helper()
	elements := make([]any, len(rows))
	for i, r := range rows {
		elements[i] = map[string]any{"requestBody": map[string]any{
			"profileId":         "110321",
			"source":            map[string]any{"type": "managed_accounts", "id": r.Source},
			"destination":       map[string]any{"type": "managed_cards", "id": r.Destination},
			"destinationAmount": map[string]any{"currency": r.Currency, "amount": r.Amount},
			"description":       r.Description,
		}}
	}
	b, err := json.Marshal(elements)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cellWith is a JavaScript expression: the id of the review table's first
// cell whose text is text, or "".
func cellWith(text string) string {
	return `([...document.querySelectorAll("#grid td[id^=cell-]")].find(td => td.textContent.startsWith(` + browsertest.JSString(text) + `)) || {id: ""}).id`
}

func TestConsoleReviewsAWorkbookWithErrors(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	rows := fixture.Rows.List(40, 1, 3, 30)
	file := writeTransfersXLSX(t, "payroll.xlsx", rows)

	b.Do(30*time.Second, chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	downloads := b.AllowDownloads()
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)

	want := map[string]string{"count-elements": "40", "count-valid": "37", "count-invalid": "3", "count-errors": "3", "count-warnings": "0", "count-duplicates": "0"}
	if got := counts(b); !mapsEqual(got, want) {
		t.Errorf("summary = %v, want %v", got, want)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#totals tbody tr").textContent`); !strings.Contains(got, "EUR") || !strings.Contains(got, "37") {
		t.Errorf("totals row = %q", got)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("review-reading").textContent`); !strings.Contains(got, `sheet "Transfers"`) || !strings.Contains(got, "headers on row 1") || !strings.Contains(got, "amounts in minor units") {
		t.Errorf("read as %q", got)
	}

	// The invalid cells in view are highlighted, each with its message.
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 5`)
	marked := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#grid td.cell-error")].map(td => td.textContent + " | " + td.title)`)
	if len(marked) != 2 || !strings.HasPrefix(marked[0], "eur") || !strings.Contains(marked[0], "destinationAmount.currency") {
		t.Errorf("highlighted cells = %q, want rows 3 and 5's currency", marked)
	}

	// A problem in the list shows its cell, out of view until then.
	b.Do(5*time.Second, chromedp.Click(chromedp.CSS("#problems li:nth-child(3) button")))
	b.WaitFor(10*time.Second, "row 32's currency in focus", `document.activeElement.matches("#grid td.cell-error") && document.activeElement.closest("tr").querySelector("th").textContent === "32"`)

	// Fixing a cell in place validates its row at once.
	id := browsertest.Eval[string](b, 5*time.Second, cellWith("eur"))
	if id == "" {
		t.Fatal("no cell holds eur")
	}
	b.Do(10*time.Second, chromedp.DoubleClick(chromedp.ID(id)))
	b.WaitFor(5*time.Second, "the cell editor", browsertest.ActiveElement+` === "#cell-editor"`)
	b.Do(5*time.Second, chromedp.KeyEvent("EUR"), chromedp.KeyEvent(kb.Enter))
	b.WaitFor(10*time.Second, "the count to drop", `document.getElementById("count-invalid").textContent === "2"`)
	rows[30].Currency = "EUR"

	// The filter shows the rows with errors only.
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("errors-only")))
	b.WaitFor(10*time.Second, "the two rows with errors", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length === 2`)
	if labels := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#grid tbody tr[aria-rowindex] th")].map(th => th.textContent)`); strings.Join(labels, ",") != "3,5" {
		t.Errorf("rows with errors: %q, want rows 3 and 5", labels)
	}

	// Find and replace fixes the rest.
	b.Do(10*time.Second,
		chromedp.Click(chromedp.CSS(".replace summary")),
		chromedp.SetValue(chromedp.ID("replace-column"), "5"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("replace-column").dispatchEvent(new Event("change", {bubbles: true}))`),
		chromedp.SendKeys(chromedp.ID("replace-find"), "eur"),
		chromedp.SendKeys(chromedp.ID("replace-with"), "EUR"),
		chromedp.Click(chromedp.ID("replace-case")),
		chromedp.Click(chromedp.ID("replace-all")),
	)
	b.WaitFor(10*time.Second, "every row valid", `document.getElementById("count-invalid").textContent === "0"`)
	rows[1].Currency, rows[3].Currency = "EUR", "EUR"

	// The request body is exactly what would be sent. The buttons are
	// pressed as a keyboard or assistive technology does: a mouse click at
	// coordinates measured while the review below the fold still settles
	// can land beside them.
	b.WaitFor(30*time.Second, "every job's answer", `document.documentElement.dataset.jobsInFlight === "0"`)
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("export-request").click()`))
	body := b.Downloaded(30*time.Second, downloads, "payroll.request.json")
	if got, want := string(body), requestBodyOf(t, rows); got != want {
		t.Errorf("exported body:\n%.300s\nwant\n%.300s", got, want)
	}
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("export-manifest").click()`))
	if m := string(b.Downloaded(30*time.Second, downloads, "payroll.manifest.csv")); !strings.Contains(m, "count,invalid,,0,,") {
		t.Errorf("manifest:\n%s", m)
	}
	b.AssertNoErrors()

	// Offline, the same file is read and reviewed again.
	reopenOffline(t, b, srv)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(60*time.Second, "the review offline", browsertest.ReviewShown)
	if got := counts(b); !mapsEqual(got, want) {
		t.Errorf("offline summary = %v, want %v", got, want)
	}
	b.AssertNoErrors("net::ERR_FAILED", "net::ERR_CONNECTION_REFUSED")
}

func TestConsoleReviewTableRendersOnlyTheRowsInView(t *testing.T) {
	b := browsertest.New(t)
	srv := startConsole(t, "/")
	file := writeTransfers(t, "big.json", 10000, 9998)
	b.Do(30*time.Second, browsertest.Instrument(), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(60*time.Second, "the review table", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)

	rendered := `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length`
	if n := browsertest.Eval[int](b, 5*time.Second, rendered); n > 60 {
		t.Errorf("%d rows rendered for a view of a dozen", n)
	}
	if n := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#grid table").getAttribute("aria-rowcount")`); n != "10001" {
		t.Errorf("aria-rowcount = %s", n)
	}
	// Scrolling through the table, by steps and then to the end.
	for _, top := range []int{2000, 40000, 180000} {
		b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById("grid").scrollTop = %d`, top)))
		want := top / 36
		b.WaitFor(10*time.Second, fmt.Sprintf("row %d in view", want+2), fmt.Sprintf(`[...document.querySelectorAll("#grid tbody tr[aria-rowindex] th")].some(th => th.textContent === "#%d")`, want))
	}
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("grid").scrollTop = 1e9`))
	b.WaitFor(10*time.Second, "the last row", `[...document.querySelectorAll("#grid tbody tr[aria-rowindex] th")].some(th => th.textContent === "#9999")`)
	if n := browsertest.Eval[int](b, 5*time.Second, rendered); n > 60 {
		t.Errorf("%d rows rendered at the end", n)
	}
	// The invalid element near the end is marked there.
	if cls := browsertest.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("#grid tbody tr")].find(tr => tr.querySelector("th")?.textContent === "#9998").className`); !strings.Contains(cls, "row-error") {
		t.Errorf("row #9998 has classes %q", cls)
	}
	b.AssertNoErrors()
}

// tabTo presses Tab until the element with the id has the focus, as a
// keyboard user does, and fails if it is not reached.
func tabTo(t *testing.T, b *browsertest.Browser, id string) {
	t.Helper()
	for range 60 {
		if browsertest.Eval[string](b, 5*time.Second, browsertest.ActiveElement) == "#"+id {
			return
		}
		b.Do(5*time.Second, chromedp.KeyEvent(kb.Tab))
	}
	t.Fatalf("Tab never reached #%s; the focus is on %s", id, browsertest.Eval[string](b, 5*time.Second, browsertest.ActiveElement))
}

func TestConsoleWholeFlowFromTheKeyboard(t *testing.T) {
	b := openConsole(t)
	downloads := b.AllowDownloads()
	// A CSV whose amount column has a header the console does not know, so
	// that the columns need checking; row 3's currency is wrong.
	csv := "profileId;source.type;source.id;destination.type;destination.id;currency;Summe 1\n" +
		"110321;managed_accounts;1001;managed_cards;2001;EUR;1050\n" +
		"110321;managed_accounts;1001;managed_cards;2002;eur;2000\n" +
		"110321;managed_accounts;1002;managed_cards;2003;EUR;300\n"
	file := filepath.Join(t.TempDir(), "run.csv")
	if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}

	// Load the file first: the headers suggest the kind.
	tabTo(t, b, "request-file")
	b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the columns to check", `document.getElementById("read") !== null`)
	b.WaitFor(5*time.Second, "the focus on the step", browsertest.ActiveElement+` === "#step-title"`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("kind").value`); got != "transfers" {
		t.Errorf("suggested kind %q", got)
	}

	// Confirm the kind, then map the amount column with the arrow keys.
	tabTo(t, b, "confirm-kind")
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	b.WaitFor(10*time.Second, "the suggestion confirmed", `document.getElementById("confirm-kind") === null`)
	tabTo(t, b, "map-6")
	for browsertest.Eval[string](b, 5*time.Second, `document.getElementById("map-6").value`) != "destinationAmount.amount" {
		b.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowDown))
		if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("map-6").selectedIndex === document.getElementById("map-6").length - 1`) {
			t.Fatal("the arrow keys went through every field without finding destinationAmount.amount")
		}
	}
	b.WaitFor(10*time.Second, "column G mapped", `document.getElementById("mapping-summary").textContent.includes("1 chosen")`)
	b.WaitFor(5*time.Second, "the focus to stay on the menu", browsertest.ActiveElement+` === "#map-6"`)

	// Validate, and land on the review.
	tabTo(t, b, "validate")
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	b.WaitFor(30*time.Second, "the review", browsertest.ReviewShown)
	b.WaitFor(5*time.Second, "the focus on the review", browsertest.ActiveElement+` === "#result-title"`)
	if got := counts(b)["count-invalid"]; got != "1" {
		t.Errorf("invalid = %s, want 1", got)
	}
	if said := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("announcer").textContent`); !strings.Contains(said, "1 invalid") {
		t.Errorf("the live region says %q", said)
	}

	// Into the table: F8 goes to the error, Enter edits it.
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length === 3`)
	for range 80 {
		if browsertest.Eval[bool](b, 5*time.Second, `document.activeElement.matches("#grid td")`) {
			break
		}
		b.Do(5*time.Second, chromedp.KeyEvent(kb.Tab))
	}
	if !browsertest.Eval[bool](b, 5*time.Second, `document.activeElement.matches("#grid td")`) {
		t.Fatal("Tab never reached the table")
	}
	b.Do(5*time.Second, chromedp.KeyEvent(kb.F8))
	b.WaitFor(10*time.Second, "the invalid cell in focus", `document.activeElement.textContent.startsWith("eur")`)
	if detail := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("cell-detail").textContent`); !strings.Contains(detail, "Row 3, Currency (destinationAmount.currency):") {
		t.Errorf("the detail line says %q", detail)
	}
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	b.WaitFor(5*time.Second, "the cell editor", browsertest.ActiveElement+` === "#cell-editor"`)
	b.Do(5*time.Second, chromedp.KeyEvent("EUR"), chromedp.KeyEvent(kb.Enter))
	b.WaitFor(10*time.Second, "the count to drop", `document.getElementById("count-invalid").textContent === "0"`)
	b.WaitFor(5*time.Second, "the news", `document.getElementById("announcer").textContent.includes("Row 3 is valid")`)

	// Arrow keys move between cells.
	before := browsertest.Eval[string](b, 5*time.Second, browsertest.ActiveElement)
	b.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowLeft))
	b.WaitFor(5*time.Second, "the focus on the cell to the left", browsertest.ActiveElement+` !== `+browsertest.JSString(before)+` && `+browsertest.ActiveElement+`.startsWith("#cell-")`)

	// The filter and the export, by keyboard.
	tabTo(t, b, "errors-only")
	b.Do(5*time.Second, chromedp.KeyEvent(" "))
	b.WaitFor(10*time.Second, "no row with errors", `document.querySelector(".grid-box .all-clear") !== null`)
	tabTo(t, b, "export-request")
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	body := string(b.Downloaded(30*time.Second, downloads, "run.request.json"))
	if !strings.Contains(body, `"destinationAmount":{"amount":2000,"currency":"EUR"}`) {
		t.Errorf("exported body %s", body)
	}
	tabTo(t, b, "submit-file")
	b.AssertNoErrors()
}
