//go:build !js

package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/xuri/excelize/v2"
)

// germanWorkbook is a month's transfers as a German operator's workbook
// has them: wide (a long purpose, a reference), the amounts number cells
// formatted #,##0.00 under "Betrag (EUR)", stored as 12500 and 1234.56.
func germanWorkbook(t *testing.T) []byte {
	t.Helper()
	x := excelize.NewFile()
	rows := [][]any{{"profileId", "source.type", "source.id", "destination.type", "destination.id", "description", "tag", "destinationAmount.currency", "Betrag (EUR)"}}
	amounts := []float64{12500, 1234.56, 3480.5, 2875}
	for i := range 24 {
		rows = append(rows, []any{"110321", "managed_accounts", "1001", "managed_cards", fmt.Sprint(2001 + i),
			fmt.Sprintf("Lohn Dezember 2026 Mitarbeiterin Nummer %d, Abteilung Buchhaltung", i+1), fmt.Sprintf("REF-2026-12-%03d", i+1), "EUR", amounts[i%len(amounts)]})
	}
	for r, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, r+1)
		if err := x.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	style, err := x.NewStyle(&excelize.Style{NumFmt: 4}) // #,##0.00
	if err != nil {
		t.Fatal(err)
	}
	if err := x.SetCellStyle("Sheet1", "I2", fmt.Sprintf("I%d", len(rows)), style); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// shownValue is JavaScript: the value the cell with the id shows, without
// the words only screen readers hear (", warning").
func shownValue(id string) string {
	return `(c => c ? (c.firstElementChild ?? c).textContent : "")(document.getElementById(` + browsertest.JSString(id) + `))`
}

// settle is JavaScript: a promise that resolves once the table's scroll
// position has stood still for 20 frames (the snap that follows a turn
// of the wheel waits for the wheel to stop), or after three seconds.
const settle = `new Promise(done => {
  const g = document.getElementById("grid");
  let last = -1, still = 0, frames = 0;
  const tick = () => {
    still = g.scrollLeft === last ? still + 1 : 0;
    last = g.scrollLeft;
    if (still >= 20 || ++frames > 180) { done(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`

// partlyPinned is JavaScript: the headers of the columns that stand
// partly under the pinned ones (the row numbers and the payee), with the
// table's sideways scroll position.
const partlyPinned = `(() => {
  const g = document.getElementById("grid");
  const edge = g.querySelector("thead .grid-pinned").getBoundingClientRect().right;
  const out = [];
  for (const th of g.querySelectorAll("thead th:not(.grid-pinned):not(.grid-rowhead)")) {
    const r = th.getBoundingClientRect();
    if (r.left < edge - 1 && r.right > edge + 1) out.push(th.textContent + " " + Math.round(r.left) + "<" + Math.round(edge) + " at scrollLeft " + g.scrollLeft);
  }
  return out;
})()`

// activeHidden is JavaScript: what hides the cell in focus, if anything:
// the pinned columns over its left edge, or the table's right edge.
const activeHidden = `(() => {
  const g = document.getElementById("grid"), c = document.activeElement;
  if (!c || c.tagName !== "TD") return "the focus is not on a cell: " + (c?.id ?? "none");
  if (c.classList.contains("grid-pinned")) return "";
  const edge = g.querySelector("thead .grid-pinned").getBoundingClientRect().right;
  const box = g.getBoundingClientRect(), right = box.left + g.clientLeft + g.clientWidth;
  const r = c.getBoundingClientRect();
  if (r.left < edge - 1) return c.id + " " + c.textContent + " under the pinned columns: " + Math.round(r.left) + "<" + Math.round(edge);
  if (r.right > right + 1 && r.width <= right - edge) return c.id + " past the table's right edge: " + Math.round(r.right) + ">" + Math.round(right);
  return "";
})()`

// TestNoColumnHidesUnderThePinnedOnes: at 1024×768 in German and French,
// a workbook's amounts (number cells) are written as the language writes
// numbers, and as the table scrolls sideways, by the scroll bar, by the
// wheel or by the keys, no column ever stands partly under the pinned
// row numbers and payee: an amount is never cut to "2500".
func TestNoColumnHidesUnderThePinnedOnes(t *testing.T) {
	browsertest.SkipShort(t)
	serve := startServe(t, "-sandbox")
	file := browsertest.WriteFile(t, "loehne-dezember.xlsx", germanWorkbook(t))
	for _, tc := range []struct{ lang, big, small, edited string }{
		{"de", "12.500", "1.234,56", "1.234,57"},
		{"fr", "12\u202f500", "1\u202f234,56", "1\u202f234,57"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			b := consoleIn(t, serve.URL, tc.lang)
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			waitShowing(t, b, 60*time.Second, "the reading step", `document.getElementById("validate") !== null`)
			b.Do(5*time.Second, browsertest.Press("#validate"))
			waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
			waitShowing(t, b, 10*time.Second, "the table's rows", `document.querySelector("#grid tbody td.grid-amount") !== null`)
			b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("grid").scrollIntoView({block: "start"})`))

			first, second := browsertest.Eval[string](b, 5*time.Second, cellOf(0, "grid-amount")), browsertest.Eval[string](b, 5*time.Second, cellOf(1, "grid-amount"))
			if got := browsertest.Eval[string](b, 5*time.Second, shownValue(first)); got != tc.big {
				t.Errorf("row 2's amount reads %q, want %q", got, tc.big)
			}
			if got := browsertest.Eval[string](b, 5*time.Second, shownValue(second)); got != tc.small {
				t.Errorf("row 3's amount reads %q, want %q", got, tc.small)
			}

			b.ShootElement(".grid-box", "pinned-"+tc.lang+"-amounts.png")

			// The amount shown, typed back unchanged, changes nothing; one
			// typed as the language writes it is stored as that number.
			editCell(t, b, first, tc.big)
			b.WaitFor(10*time.Second, "the focus on the next row", focusedID+` === `+browsertest.JSString(second))
			editCell(t, b, second, tc.edited)
			waitShowing(t, b, 20*time.Second, "the amount edited", shownValue(second)+` === `+browsertest.JSString(tc.edited)+` && document.getElementById(`+browsertest.JSString(second)+`).classList.contains("cell-edited")`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById(`+browsertest.JSString(second)+`).getAttribute("aria-description")`); !strings.HasSuffix(got, tc.small) {
				t.Errorf("the edited amount's description reads %q, want its earlier value as shown, %q", got, tc.small)
			}
			if got := browsertest.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("#grid td.cell-edited, #grid td.cell-error")].map(c => c.id + " " + c.className).join("; ")`); got != second+" grid-amount cell-edited" {
				t.Errorf("after the edits the cells marked are %q, want only %s edited", got, second)
			}

			// By the scroll bar: every position it can be left at.
			width := browsertest.Eval[int](b, 5*time.Second, `(g => g.scrollWidth - g.clientWidth)(document.getElementById("grid"))`)
			if width < 200 {
				t.Fatalf("the table scrolls only %d px sideways: too narrow to test", width)
			}
			for x := 0; x <= width; x += 23 {
				cut := browsertest.Eval[[]string](b, 5*time.Second, fmt.Sprintf(`(document.getElementById("grid").scrollLeft = %d, %s).then(() => %s)`, x, settle, partlyPinned))
				if len(cut) > 0 {
					b.Shoot(fmt.Sprintf("pinned-%s-scrolled-%d.png", tc.lang, x))
					t.Fatalf("scrolled to %d px: %q", x, cut)
				}
			}

			// By the wheel, sideways, a notch at a time.
			box := browsertest.Eval[[]float64](b, 5*time.Second, `(r => [r.left + r.width / 2, r.top + r.height / 2])(document.getElementById("grid").getBoundingClientRect())`)
			b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("grid").scrollLeft = 0`))
			for notch := range 12 {
				b.Do(5*time.Second, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, box[0], box[1], func(p *input.DispatchMouseEventParams) {
					// The protocol wants both deltas, and leaves out a zero.
					p.DeltaX, p.DeltaY = 53, 1e-9
				}))
				if cut := browsertest.Eval[[]string](b, 5*time.Second, settle+`.then(() => `+partlyPinned+`)`); len(cut) > 0 {
					b.Shoot(fmt.Sprintf("pinned-%s-wheel-%d.png", tc.lang, notch))
					t.Fatalf("after %d notches of the wheel: %q", notch+1, cut)
				}
			}

			if left := browsertest.Eval[float64](b, 5*time.Second, `document.getElementById("grid").scrollLeft`); left == 0 {
				t.Error("twelve notches of the wheel did not scroll the table sideways")
			}

			// By the keys: right to the last column and back, each cell
			// in focus shown whole.
			b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("grid").scrollLeft = 0`))
			payee := browsertest.Eval[string](b, 5*time.Second, cellOf(0, "grid-pinned"))
			b.Do(5*time.Second, chromedp.Click("#"+payee))
			b.WaitFor(10*time.Second, "the focus on the payee", focusedID+` === `+browsertest.JSString(payee))
			cols := browsertest.Eval[int](b, 5*time.Second, `document.querySelectorAll("#grid thead th").length`)
			for _, key := range []string{kb.ArrowRight, kb.ArrowLeft} {
				for step := range cols - 3 {
					from := browsertest.Eval[string](b, 5*time.Second, focusedID)
					b.Do(5*time.Second, chromedp.KeyEvent(key))
					b.WaitFor(5*time.Second, "the focus to move on from "+from, focusedID+` !== `+browsertest.JSString(from)+` && `+focusedID+`.startsWith("cell-")`)
					if hidden := browsertest.Eval[string](b, 5*time.Second, settle+`.then(() => `+activeHidden+`)`); hidden != "" {
						b.Shoot(fmt.Sprintf("pinned-%s-keys-%d.png", tc.lang, step))
						t.Fatalf("after %d presses: %s", step+1, hidden)
					}
				}
			}
			// Scrolled sideways, past the amounts: a screenshot to look at.
			browsertest.Eval[bool](b, 5*time.Second, `(document.getElementById("grid").scrollLeft = 140, `+settle+`).then(() => true)`)
			b.ShootElement(".grid-box", "pinned-"+tc.lang+"-sideways.png")
			b.AssertNoErrors()
		})
	}
}
