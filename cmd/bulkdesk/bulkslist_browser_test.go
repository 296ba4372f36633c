//go:build !js

package main

import (
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// fileCut is JavaScript: what hides part of the file's name in the row
// of the bulk list for the bulk id, with the list scrolled to its left
// edge: the list's box, or the cell's own edge; or that the list does not
// fit its box, its last columns out of sight.
func fileCut(id string) string {
	return `(() => {
  const box = document.querySelector("#bulk-list .table-scroll");
  box.scrollLeft = 0;
  const c = document.querySelector('#bulk-list tr[data-bulk=' + JSON.stringify(` + browsertest.JSString(id) + `) + '] .bulk-source');
  if (!c) return "no file cell";
  const r = c.getBoundingClientRect(), b = box.getBoundingClientRect();
  const right = Math.min(b.left + box.clientLeft + box.clientWidth, window.innerWidth);
  if (r.right > right + 1) return "the cell ends at " + Math.round(r.right) + ", the list at " + Math.round(right);
  if (c.scrollWidth > c.clientWidth + 1) return "the name is " + c.scrollWidth + " px wide in a cell of " + c.clientWidth;
  if (box.scrollWidth > box.clientWidth + 1) return "the list is " + box.scrollWidth + " px wide in a box of " + box.clientWidth;
  return "";
})()`
}

// TestTheBulksListShowsTheWholeFileName: at 1024×768 in German and
// French, a bulk submitted from a file with a long name is listed with
// that name whole, wrapped inside the list's box, which holds every
// column without scrolling sideways.
func TestTheBulksListShowsTheWholeFileName(t *testing.T) {
	browsertest.SkipShort(t)
	const name = "Lohnabrechnung-Dezember-2026-Verwaltung-und-Vertrieb-endgueltig.json"
	// Its tags short, as the API wants them, whatever the file is called.
	file := browsertest.WriteFile(t, name, fixture.Salary("lohn.json").Body(12))
	for _, l := range []string{"de", "fr"} {
		t.Run(l, func(t *testing.T) {
			// A sandbox of its own: the same file again would be a
			// repeat to answer for first.
			serve := startServe(t, "-sandbox")
			b := consoleIn(t, serve.URL, l)
			loadFile(t, b, "transfers", file)
			waitShowing(t, b, 30*time.Second, "Submit enabled", `document.getElementById("confirm-submit")?.disabled === false`)
			b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
			waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
			id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#submitted-bulks a[data-bulk]").dataset.bulk`)

			b.Do(10*time.Second, browsertest.Press(`nav a[href="/bulks"]`))
			row := `#bulk-list tr[data-bulk="` + id + `"]`
			waitShowing(t, b, 60*time.Second, "the list with the bulk's totals", `document.querySelector('`+row+` .bulk-totals[data-loaded="true"]') !== null`)
			if got := text(b, row+" .bulk-source"); got != name {
				t.Errorf("the list names the file %q, want %q", got, name)
			}
			b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("bulk-list").scrollIntoView({block: "start"})`))
			if cut := browsertest.Eval[string](b, 5*time.Second, fileCut(id)); cut != "" {
				b.Shoot("bulks-" + l + "-cut.png")
				t.Errorf("the file's name is cut: %s", cut)
			}
			b.Shoot("bulks-" + l + ".png")
			b.AssertAccessible("the list of bulks with a long file name (" + l + ")")
			b.AssertNoErrors()
		})
	}
}
