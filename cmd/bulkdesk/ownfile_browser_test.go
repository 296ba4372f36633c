//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/xuri/excelize/v2"
)

// TestAnOperatorsOwnFileToACompletedBulk: a German and a French operator
// each drop a list of transfers between their managed accounts, as their
// bank or spreadsheet program wrote it (CSV and xlsx), on the Import page
// of the console in their language, and take it to a completed bulk in
// the sandbox without editing the file outside Bulkdesk. The headers
// suggest transfers and fill their fields; the amounts are read in major
// units with the language's separators and the dates at 00:00 in the
// zone chosen while reading; the profile and the accounts' types, which
// the file lacks, are given the same value for every row; the references
// the contract refuses are retyped in the review; the control total typed
// as the language writes it matches; the confirmation says how the file
// was read and when the transfers are scheduled. The sandbox receives
// every transfer as the file meant it, the bulk runs to its end, and its
// result workbook downloads.
func TestAnOperatorsOwnFileToACompletedBulk(t *testing.T) {
	browsertest.SkipShort(t)
	for _, f := range ownFiles {
		t.Run(f.name, func(t *testing.T) { takeOwnFileToTheEnd(t, f) })
	}
}

func takeOwnFileToTheEnd(t *testing.T, f anOwnFile) {
	serve := startServe(t, "-sandbox")
	b := consoleIn(t, serve.URL, f.lang)
	downloads := b.AllowDownloads()
	shots := 0
	// shoot takes the operator's view at 1024×768 once the element
	// selector finds is scrolled to the top.
	shoot := func(selector, step string) {
		t.Helper()
		browsertest.Eval[bool](b, 5*time.Second, `(document.querySelector(`+browsertest.JSString(selector)+`)?.scrollIntoView({block: "start"}), true)`)
		shots++
		b.Shoot(fmt.Sprintf("ownfile-%s-%s-%02d-%s.png", f.lang, f.name[strings.LastIndexByte(f.name, '.')+1:], shots, step))
	}
	idle := `document.documentElement.dataset.jobsInFlight === "0" && document.querySelector("#status.status-busy") === null`

	// Dropped without a kind chosen: the headers suggest transfers.
	shoot("main", "import")
	file := browsertest.WriteFile(t, f.name, f.data(t))
	b.Do(10*time.Second, browsertest.DropFiles(".drop-zone", file))
	waitShowing(t, b, 60*time.Second, "the reading step", `document.getElementById("read") !== null && `+idle)
	// The first step may fold into a line once the file is read: the
	// kind's menu is then gone, and what the file is read as is its
	// fields (below) and, in the end, the bulk the sandbox makes.
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("kind")?.value ?? "transfers"`); got != "transfers" {
		t.Fatalf("the kind suggested is %q", got)
	}
	if !browsertest.Eval[bool](b, 5*time.Second, `document.querySelector("#suggestion.callout #confirm-kind") !== null`) {
		t.Error("the kind is not said to be suggested by the headers")
	}
	shoot("main", "suggested")
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("confirm-kind") !== null`) {
		b.Do(5*time.Second, browsertest.Press("#confirm-kind"))
		waitShowing(t, b, 30*time.Second, "the kind confirmed", `document.getElementById("confirm-kind") === null && `+idle)
	}
	columns := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#read select[id^='map-']")].map(s => s.value)`)
	if want := []string{"source.id", "destination.id", "destinationAmount.amount", "destinationAmount.currency", "description", "scheduledTimestamp"}; !slices.Equal(columns, want) {
		t.Errorf("the columns fill %q, want %q", columns, want)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("header-row")?.value ?? ""`); got != fmt.Sprint(f.headerRow) {
		t.Errorf("the header row is %q, want %d", got, f.headerRow)
	}

	// What the file lacks: the same value for every row.
	setField := func(field, value string) {
		t.Helper()
		id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector('#set-values [data-field="`+field+`"]')?.id ?? ""`)
		if id == "" {
			t.Fatalf("%s is not offered a value for every row; the step offers %q", field,
				browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#set-values [data-field]")].map(e => e.dataset.field)`))
		}
		b.Do(5*time.Second, browsertest.Pick(id, value))
		waitShowing(t, b, 30*time.Second, field+" set for every row", `(s => s !== null && s.value === `+browsertest.JSString(value)+` && !document.getElementById(s.id + "-read").classList.contains("status-warn"))(document.querySelector('#set-values [data-field="`+field+`"]')) && `+idle)
	}
	shoot("#missing-fields", "missing")
	setField("profileId", "110321")
	setField("source.type", "managed_accounts")
	setField("destination.type", "managed_accounts")
	if got := text(b, "#missing-fields"); got != "" {
		t.Errorf("still missing: %q", got)
	}
	shoot("#set-values", "set")

	// The dates wait for a time zone: none is guessed.
	waitShowing(t, b, 10*time.Second, "the question of the time zone", `document.getElementById("question-timeZone") !== null`)
	shoot("#question-timeZone", "zone-question")
	b.Do(5*time.Second, browsertest.Pick("question-time-zone", f.zone))
	waitShowing(t, b, 30*time.Second, "the zone chosen", `document.getElementById("question-timeZone") === null && document.getElementById("time-zone")?.value === `+browsertest.JSString(f.zone)+` && `+idle)
	examples := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("examples")?.textContent ?? ""`)
	if !strings.Contains(examples, f.firstDate) {
		t.Errorf("the values read do not show %q:\n%s", f.firstDate, examples)
	}
	shoot("#examples", "read")
	if want := fmt.Sprint(len(f.transfers)); !strings.Contains(text(b, "#validate"), want) {
		t.Errorf("the button says %q, want %s rows", text(b, "#validate"), want)
	}

	// The review: every transfer, the references the contract refuses at
	// their cells, the total as the language writes it.
	b.Do(5*time.Second, browsertest.Press("#validate"))
	waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
	if got := text(b, "#count-elements"); got != fmt.Sprint(len(f.transfers)) {
		t.Errorf("%s elements, want %d", got, len(f.transfers))
	}
	if got := text(b, "#count-invalid"); got != fmt.Sprint(len(f.fixed)) {
		t.Errorf("%s invalid, want %d (the references with accents)", got, len(f.fixed))
	}
	if got := spaced(text(b, "#totals")); !strings.Contains(got, f.total) {
		t.Errorf("the totals read %q, want %s", got, f.total)
	}
	if got := text(b, "#review-schedule"); !strings.Contains(got, f.firstDate) {
		t.Errorf("the review's schedule says %q, want %q", got, f.firstDate)
	}
	shoot("#result", "review")
	waitShowing(t, b, 10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)
	shoot(".grid-box", "grid")
	// An invalid cell's text ends with the word for its error, for
	// screen readers.
	for bad, good := range f.fixed {
		cell := browsertest.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("#grid tbody td")].find(td => td.textContent.startsWith(`+browsertest.JSString(bad)+`))?.id ?? ""`)
		if cell == "" {
			t.Fatalf("no cell of the table holds %q: %q", bad, browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#grid tbody td")].map(td => td.id + "=" + td.textContent)`))
		}
		b.Do(10*time.Second, chromedp.DoubleClick(chromedp.ID(cell)))
		waitShowing(t, b, 5*time.Second, "the cell editor", browsertest.ActiveElement+` === "#cell-editor"`)
		b.Do(5*time.Second, chromedp.KeyEvent(good), chromedp.KeyEvent(kb.Enter))
		waitShowing(t, b, 10*time.Second, "the reference "+good, `[...document.querySelectorAll("#grid tbody td")].some(td => td.textContent.startsWith(`+browsertest.JSString(good)+`)) && `+idle)
	}
	waitShowing(t, b, 10*time.Second, "every element valid", `document.getElementById("count-invalid").textContent === "0"`)
	b.Do(10*time.Second,
		chromedp.SendKeys(chromedp.ID("expected-count"), fmt.Sprint(len(f.transfers))),
		chromedp.SendKeys(chromedp.ID("expected-total-EUR"), f.total),
	)
	for _, id := range []string{"count-check", "total-check-EUR"} {
		waitShowing(t, b, 10*time.Second, id+" to match", `document.querySelector("#`+id+`.control-ok") !== null`)
	}
	shoot("#expected-count", "control-totals")

	// The confirmation: what is sent, how the file was read, when.
	b.Do(5*time.Second, browsertest.Press("#submit-file"))
	waitShowing(t, b, 60*time.Second, "the confirmation", `document.querySelector('#submission[data-step="confirm"]') !== null`)
	if got := text(b, "#confirm-sending"); got != fmt.Sprint(len(f.transfers)) {
		t.Errorf("the confirmation sends %q", got)
	}
	if got := spaced(text(b, `#control-totals tr[data-currency="EUR"] .total-amount`)); !strings.Contains(got, f.total) {
		t.Errorf("the confirmation's total reads %q, want %s", got, f.total)
	}
	if got := text(b, "#confirm-schedule"); !strings.Contains(got, f.firstDate) {
		t.Errorf("the confirmation's schedule says %q, want %q", got, f.firstDate)
	}
	if got := text(b, "#confirm-reading"); !strings.Contains(got, f.zone) {
		t.Errorf("the confirmation's reading says %q", got)
	}
	// The row adding the rows up is said with the reading, matching
	// them: no warning to accept every month.
	if got := spaced(text(b, "#confirm-reading")); f.totalRow != "" && (!strings.Contains(got, f.totalRow) || !strings.Contains(got, f.total)) {
		t.Errorf("the confirmation's reading does not say the %q row and its %s: %q", f.totalRow, f.total, got)
	}
	if f.totalRow != "" && browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("warnings-to-accept") !== null`) {
		t.Errorf("the total row that matches is a warning to accept: %q", text(b, "#warnings-to-accept"))
	}
	shoot("#submission", "confirm")
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("accept-warnings") !== null`) {
		shoot("#warnings-to-accept", "warnings")
		b.Do(5*time.Second, browsertest.Press("#accept-warnings"))
		waitShowing(t, b, 5*time.Second, "Submit enabled", `!document.getElementById("confirm-submit").disabled`)
	}
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	shoot("#submission", "submitted")

	// The sandbox received every transfer as the file meant it.
	id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]")?.dataset.bulk ?? ""`)
	api := sandboxClient(t, serve.URL)
	if bulks := mustList(t, api); len(bulks) != 1 || bulks[0].BulkID != id || bulks[0].SubmittedItemsCount != len(f.transfers) {
		t.Fatalf("the sandbox holds %+v, want bulk %s of %d", bulks, id, len(f.transfers))
	}
	if bp, err := api.Get(context.Background(), id); err != nil || bp.Operation != "POST /transfers" {
		t.Errorf("the sandbox made bulk %+v (%v), want one of transfers", bp, err)
	}
	ops, err := api.AllOperations(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := receivedTransfers(t, ops), sentTransfers(t, f); !slices.Equal(got, want) {
		t.Errorf("the sandbox received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Executed, it completes; the bulk's page and the list say so, and
	// the result workbook downloads.
	openBulk(t, b, id)
	waitShowing(t, b, 60*time.Second, "the bulk's totals", `document.querySelector('#bulk-totals[data-loaded="true"]') !== null`)
	if got := spaced(text(b, "#bulk-totals")); !strings.Contains(got, f.total) {
		t.Errorf("the bulk's totals read %q, want %s", got, f.total)
	}
	shoot("#bulk", "bulk")
	b.Do(5*time.Second, browsertest.Press("#action-execute"))
	waitShowing(t, b, 60*time.Second, "the confirmation of Execute", confirmOpen+` && !document.getElementById("confirm-execute").disabled`)
	shoot("#execute-confirm", "execute-confirm")
	b.Do(5*time.Second, browsertest.Press("#confirm-execute"))
	waitShowing(t, b, 10*time.Second, "the confirmation to close", "!"+confirmOpen)
	waitShowing(t, b, 60*time.Second, "the bulk to complete", `document.getElementById("bulk").dataset.status === "COMPLETED"`)
	shoot("#bulk", "completed")
	b.Do(5*time.Second, browsertest.Press("#result-workbook"))
	// Named in the operator's language, the file's own name kept.
	results := strings.TrimSuffix(f.name, f.name[strings.LastIndexByte(f.name, '.'):]) + map[string]string{"de": "-ergebnisse.xlsx", "fr": "-resultats.xlsx"}[f.lang]
	checkResultWorkbook(t, b.Downloaded(60*time.Second, downloads, results), f)
	shoot(".workbook", "result-workbook")
	b.Do(10*time.Second, browsertest.Press(`nav a[href="/bulks"]`))
	row := `#bulk-list tr[data-bulk="` + id + `"]`
	waitShowing(t, b, 60*time.Second, "the list with the bulk's totals", `document.querySelector('`+row+` .bulk-totals[data-loaded="true"]') !== null`)
	if got := text(b, row+" .bulk-elements"); got != fmt.Sprint(len(f.transfers)) {
		t.Errorf("the list counts %q elements", got)
	}
	if got := text(b, row+" .bulk-source"); got != f.name {
		t.Errorf("the list names the file %q, want %q", got, f.name)
	}
	shoot("main", "bulks")
	b.AssertNoErrors()
}

// spaced writes the spaces a language puts inside numbers (no-break,
// narrow no-break) as plain ones, as an operator types them.
func spaced(s string) string {
	return strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)
}

// checkResultWorkbook reads the result workbook of a completed bulk: a
// row for every transfer, each naming the operator's file.
func checkResultWorkbook(t *testing.T, data []byte, f anOwnFile) {
	wb, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the result workbook: %v", err)
	}
	defer wb.Close()
	most := 0
	var rows [][]string
	for _, sheet := range wb.GetSheetList() {
		r, _ := wb.GetRows(sheet)
		if len(r) > most {
			most, rows = len(r), r
		}
	}
	if len(rows) != len(f.transfers)+1 {
		t.Fatalf("the result workbook's longest sheet has %d rows, want a header and %d", len(rows), len(f.transfers))
	}
	for _, r := range rows[1:] {
		if !slices.Contains(r, f.name) || !slices.Contains(r, "COMPLETED") {
			t.Errorf("a result row does not name the file and its completion: %q", r)
		}
	}
}
