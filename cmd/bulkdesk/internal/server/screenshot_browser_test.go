//go:build !js

package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// screenshotEnv names the PNG file TestReviewScreenshot writes.
const screenshotEnv = "BULKDESK_SCREENSHOT"

// TestReviewScreenshot makes the picture of the review screen that the
// README shows: a payroll workbook of 200 transfers with a few problems,
// reviewed at a desktop size, with the control totals filled in. It is a
// tool rather than a test, run by "make screenshot"; it checks what it
// shows before it takes the picture.
func TestReviewScreenshot(t *testing.T) {
	out := os.Getenv(screenshotEnv)
	if out == "" {
		t.Skipf("makes the README's picture of the review screen: run \"make screenshot\", or set %s=path/to/review.png", screenshotEnv)
	}
	b := browsertest.New(t)
	srv := startConsole(t, "/")

	// Rows 4 and 11 have a lower-case currency, row 7 no amount, and row
	// 9 repeats row 8.
	rows := fixture.Rows.List(200, 2, 9)
	rows[7] = rows[6]
	file := writeTransfersXLSX(t, "payroll-june.xlsx", rows)
	editCells(t, file, "Transfers", map[string]any{"G7": nil, "H9": "Salary 6"})

	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)
	want := map[string]string{"count-elements": "200", "count-valid": "197", "count-invalid": "3", "count-errors": "3", "count-warnings": "1", "count-duplicates": "1"}
	if got := counts(b); !mapsEqual(got, want) {
		t.Fatalf("summary = %v, want %v", got, want)
	}

	// The control totals as the payment instruction gives them: the count
	// matches, the total does not, for the missing amount.
	total := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#totals tbody td.amount").textContent`)
	b.Do(10*time.Second,
		chromedp.SendKeys(chromedp.ID("expected-count"), "200"),
		chromedp.SendKeys(chromedp.ID("expected-total-EUR"), expectedTotal(t, total, rows[5].Amount)),
	)
	b.WaitFor(10*time.Second, "the count to match", `document.querySelector("#count-check.control-ok") !== null`)
	b.WaitFor(10*time.Second, "the total to differ", `document.querySelector("#total-check-EUR.control-bad") !== null`)

	// The first problem in focus, its message under the table.
	b.WaitFor(10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 10`)
	b.Do(5*time.Second, chromedp.Click(chromedp.ID("next-error")))
	b.WaitFor(10*time.Second, "the first invalid cell in focus", `document.activeElement.matches("#grid td.cell-error")`)
	if n := browsertest.Eval[int](b, 5*time.Second, `document.querySelectorAll("#grid td.cell-error").length`); n != 3 {
		t.Errorf("%d cells highlighted in view, want 3", n)
	}
	// The table scrolled to the currency, the amount and the description,
	// the row numbers staying in view.
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(() => {
  const grid = document.getElementById("grid");
  const rowhead = grid.querySelector("thead .grid-rowhead");
  grid.scrollLeft = document.activeElement.offsetLeft - rowhead.offsetWidth;
})()`))
	b.WaitFor(5*time.Second, "the missing amount in view", `(() => {
  const grid = document.getElementById("grid").getBoundingClientRect();
  const cells = [...document.querySelectorAll("#grid td.cell-error")].map(td => td.getBoundingClientRect());
  return cells.length === 3 && cells.every(r => r.left >= grid.left && r.right <= grid.right + 1);
})()`)
	b.AssertNoErrors()

	png := b.ShootClip(reviewClip)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", out, len(png))
}

// reviewClip is the review's panel from its title to the bottom of the
// table.
const reviewClip = `(() => {
  const panel = document.getElementById("result").getBoundingClientRect();
  const bottom = document.querySelector(".grid-box").getBoundingClientRect().bottom;
  const x = Math.floor(panel.left) - 12, y = Math.floor(panel.top + scrollY) - 12;
  return {x, y, width: Math.ceil(panel.width) + 24, height: Math.ceil(bottom + scrollY) + 16 - y, scale: 1};
})()`

// expectedTotal is the total the console shows ("EUR 12,345.67") with
// minor units added, as an operator would type it.
func expectedTotal(t *testing.T, shown string, addMinor int) string {
	t.Helper()
	var cur, digits string
	if _, err := fmt.Sscan(shown, &cur, &digits); err != nil {
		t.Fatalf("total %q: %v", shown, err)
	}
	var minor int64
	for _, r := range digits {
		if r >= '0' && r <= '9' {
			minor = minor*10 + int64(r-'0')
		}
	}
	minor += int64(addMinor)
	return fmt.Sprintf("%d.%02d", minor/100, minor%100)
}

// editCells sets cells of a sheet of the workbook at path; nil empties one.
func editCells(t *testing.T, path, sheet string, cells map[string]any) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, v := range cells {
		if err := f.SetCellValue(sheet, cell, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
}
