//go:build !js

package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// gridFile is a CSV of 10,000 transfers under every field's header (ten
// columns, wider than a small screen), with problems in A46 and G46, in
// J300 and in H9999.
func gridFile(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("profileId,tag,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount,description,scheduledTimestamp\n")
	for row := 2; row <= 10001; row++ {
		profile, currency, amount, scheduled := "110321", "EUR", fmt.Sprint(1000+row%50), ""
		switch row {
		case 46:
			profile, currency = "x46", "eur1"
		case 300:
			scheduled = "tomorrow"
		case 9999:
			amount = "ten"
		}
		fmt.Fprintf(&b, "%s,t%d,managed_accounts,%d,managed_cards,%d,%s,%s,Salary for the month of November %d,%s\n",
			profile, row, 100000+row, 200000+row, currency, amount, row, scheduled)
	}
	return browsertest.WriteFile(t, "grid.csv", []byte(b.String()))
}

// activeCell is a JavaScript expression: the focused element's id.
const activeCell = `(document.activeElement?.id ?? "")`

// cellInView is a JavaScript expression: whether the cell with the id is
// wholly inside the table's scroll box, below its header and right of the
// pinned row numbers.
func cellInView(id string) string {
	return `(() => {
  const c = document.getElementById(` + browsertest.JSString(id) + `), g = document.getElementById("grid");
  if (!c) return false;
  const r = c.getBoundingClientRect(), b = g.getBoundingClientRect();
  const head = g.querySelector("thead th").getBoundingClientRect().bottom;
  let pin = g.querySelector("tbody tr[aria-rowindex] .grid-rowhead").getBoundingClientRect().right;
  const pinned = c.closest("tr").querySelector(".grid-pinned");
  if (pinned && pinned !== c && g.scrollLeft > 0 && pinned.getBoundingClientRect().left < r.left) pin = Math.max(pin, pinned.getBoundingClientRect().right);
  return r.left >= pin - 1 && r.right <= b.left + g.clientLeft + g.clientWidth + 1 && r.top >= head - 1 && r.bottom <= b.top + g.clientTop + g.clientHeight + 1;
})()`
}

// The review table of 10,000 rows at 1024 and 1366 px: the page never
// overflows sideways, the keys that jump far keep the focus on a cell,
// F8 visits every marked cell in row order, a row's cells in the order
// shown, and shows it whole with its message, and the row numbers stay in place when the table scrolls
// sideways.
func TestTheGridKeepsItsPlace(t *testing.T) {
	browsertest.SkipShort(t)
	file := gridFile(t)
	for _, width := range []int{1024, 1366} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b := browsertest.New(t)
			srv := startConsole(t, "/")
			b.Do(30*time.Second, chromedp.EmulateViewport(int64(width), 768), chromedp.Navigate(srv.URL))
			b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			// J300's "tomorrow" is taken for a date that waits for a time
			// zone: the file stops at "Check how it is read", validated as
			// it is.
			b.WaitFor(60*time.Second, "the review table or the reading", `document.getElementById("cell-0-0") !== null || document.getElementById("validate") !== null`)
			if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("validate") !== null`) {
				b.Do(5*time.Second, browsertest.Press("#validate"))
			}
			b.WaitFor(60*time.Second, "the review table", `document.getElementById("cell-0-0") !== null`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("request-file-current").textContent`); got != "Loaded: grid.csv" {
				t.Errorf("the file field reads %q", got)
			}
			if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("sandbox-banner") !== null`) {
				t.Error("a console without a sandbox shows the sandbox banner")
			}
			overflow := `document.documentElement.scrollWidth - document.documentElement.clientWidth`
			if n := browsertest.Eval[int](b, 5*time.Second, overflow); n > 0 {
				t.Errorf("the page overflows sideways by %d px", n)
			}
			b.Shoot(fmt.Sprintf("grid-%d.png", width))

			// Far jumps keep the focus on a cell, and the keys after them
			// still move it.
			b.WaitFor(10*time.Second, "the focus on the result", activeCell+` === "result-title"`)
			b.Do(5*time.Second, chromedp.Click("#cell-0-0"))
			b.WaitFor(10*time.Second, "the focus on the first cell", activeCell+` === "cell-0-0"`)
			b.Do(5*time.Second, chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(2))) // Ctrl
			b.WaitFor(20*time.Second, "the focus on the last row", activeCell+` === "cell-9999-9"`)
			b.Do(5*time.Second, chromedp.KeyEvent(kb.ArrowUp))
			b.WaitFor(10*time.Second, "the focus a row up", activeCell+` === "cell-9998-9"`)
			// Ctrl+Home goes to the first column shown: the payee's id (F),
			// before the amount and currency (see gridOrder).
			b.Do(5*time.Second, chromedp.KeyEvent(kb.Home, chromedp.KeyModifiers(2)))
			b.WaitFor(20*time.Second, "the focus on the first cell", activeCell+` === "cell-0-5"`)
			for range 3 {
				b.Do(5*time.Second, chromedp.KeyEvent(kb.PageDown))
			}
			b.WaitFor(10*time.Second, "the focus on a cell after Page Down", activeCell+`.startsWith("cell-") && `+activeCell+` !== "cell-0-5"`)
			b.Do(5*time.Second, chromedp.KeyEvent(kb.PageUp))
			b.WaitFor(10*time.Second, "the focus on a cell after Page Up", activeCell+`.startsWith("cell-")`)

			// F8 from the first cell, a row's cells left to right as shown
			// (F, H, G, then A…): G46, A46, J300, H9999, then round.
			b.Do(5*time.Second, chromedp.KeyEvent(kb.Home, chromedp.KeyModifiers(2)))
			b.WaitFor(20*time.Second, "the focus on the first cell", activeCell+` === "cell-0-5"`)
			for _, stop := range []struct{ id, message string }{
				{"cell-44-6", "destinationAmount.currency"}, {"cell-44-0", "profileId"}, {"cell-298-9", "scheduledTimestamp"}, {"cell-9997-7", "destinationAmount.amount"}, {"cell-44-6", "destinationAmount.currency"},
			} {
				b.Do(5*time.Second, chromedp.KeyEvent(kb.F8))
				b.WaitFor(20*time.Second, "F8 to "+stop.id, activeCell+` === `+browsertest.JSString(stop.id))
				b.WaitFor(10*time.Second, stop.id+" wholly in view", cellInView(stop.id))
				detail := `document.getElementById("cell-detail")`
				if got := browsertest.Eval[string](b, 5*time.Second, detail+`.textContent`); !strings.Contains(got, stop.message) {
					t.Errorf("at %s the message reads %q", stop.id, got)
				}
				if !browsertest.Eval[bool](b, 5*time.Second, `(() => { const r = `+detail+`.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight + 1; })()`) {
					t.Errorf("at %s the cell's message is out of the window: %s", stop.id, browsertest.Eval[string](b, 5*time.Second, `JSON.stringify({d: `+detail+`.getBoundingClientRect(), h: window.innerHeight, sy: window.scrollY, box: document.querySelector(".grid-box").getBoundingClientRect()})`))
				}
			}
			b.Shoot(fmt.Sprintf("grid-%d-f8.png", width))

			// Sideways, the row numbers stay where they are.
			b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("grid").scrollLeft = 1e6`))
			pinned := `(() => {
  const g = document.getElementById("grid"), row = g.querySelector("tbody tr[aria-rowindex]");
  const th = row.querySelector(".grid-rowhead"), id = row.querySelector(".grid-pinned");
  return Math.abs(th.getBoundingClientRect().left - g.getBoundingClientRect().left) <= 2 && id !== null && id.dataset.col === "5" &&
    Math.abs(id.getBoundingClientRect().left - th.getBoundingClientRect().right) <= 2;
})()`
			b.WaitFor(5*time.Second, "the row numbers and the payee's id (F) pinned", pinned)
			b.Shoot(fmt.Sprintf("grid-%d-sideways.png", width))
			// The last column's header: the columns before it may stand
			// under the pinned ones, wholly, at the end of the scroll.
			onTop := `(() => { const th = [...document.querySelectorAll("#grid thead th")].at(-1); const r = th.getBoundingClientRect(); return th.contains(document.elementFromPoint(r.left + 20, r.top + 10)); })()`
			if !browsertest.Eval[bool](b, 5*time.Second, onTop) {
				t.Error("scrolled sideways, a column's header is under the rows")
			}
			if n := browsertest.Eval[int](b, 5*time.Second, overflow); n > 0 {
				t.Errorf("scrolled sideways, the page overflows by %d px: %s", n, browsertest.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth).slice(0, 5).map(e => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join(", ")`))
			}
			b.AssertNoErrors()
		})
	}
}
