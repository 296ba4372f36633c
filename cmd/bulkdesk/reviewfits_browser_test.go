//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// payrollExport is a month's payroll as a bank's export has it: 200
// transfers under the API's own headers, wide (a reference and a cost
// centre no field takes, which stops the file at "Check how it is read"),
// the amount and its currency last; row 3's currency is in lower case.
func payrollExport() []byte {
	var b strings.Builder
	b.WriteString("profileId;tag;source.type;source.id;destination.type;destination.id;description;Kostenstelle;destinationAmount.currency;destinationAmount.amount\n")
	for row := 2; row <= 201; row++ {
		currency := "EUR"
		if row == 3 {
			currency = "eur"
		}
		fmt.Fprintf(&b, "110321;LD-2026-12-%03d;managed_accounts;1001;managed_cards;%d;Lohn Dezember 2026 Mitarbeiterin Nummer %d;KST-4711-Verwaltung;%s;%d\n",
			row, 2000+row, row, currency, 250000+row)
	}
	return []byte(b.String())
}

// fitWords are what the review says of an edited cell in one language.
type fitWords struct {
	lang string
	// was starts an edited cell's description, before its old value.
	was string
}

// TestTheReviewFitsTheWork: at 1024×768 in English, German and French a
// bank's payroll export goes through the import with each step starting
// at the top of the window, the first step folded to one line; the
// review shows the row number, the payee, the amount and the currency
// without scrolling sideways (and at 1366×768); an edited cell is marked,
// for screen readers too, and Ctrl+Z puts it back and validates its row
// again; a find-and-replace is undone in one, with the Undo button; and a
// reload keeps what is left to undo, and what was undone undone.
func TestTheReviewFitsTheWork(t *testing.T) {
	browsertest.SkipShort(t)
	browsertest.NeedAxe(t)
	serve := startServe(t, "-sandbox")
	file := browsertest.WriteFile(t, "lohn-dezember.csv", payrollExport())
	for _, w := range []fitWords{{"en", "edited, was: "}, {"de", "geändert, war: "}, {"fr", "modifiée, était\u202f: "}} {
		t.Run(w.lang, func(t *testing.T) { reviewFits(t, serve, file, w) })
	}
}

// atTop is a JavaScript expression: whether the element with the id has
// the focus and stands at the top of the window.
func atTop(id string) string {
	return `(el => el !== null && document.activeElement === el && Math.abs(el.getBoundingClientRect().top) <= 2)(document.getElementById(` + browsertest.JSString(id) + `))`
}

// cellOf is a JavaScript expression: the id of row pos's cell in the
// column of the class given (grid-pinned, grid-amount, grid-currency).
func cellOf(pos int, class string) string {
	return fmt.Sprintf(`document.querySelector('#grid tbody tr[aria-rowindex="%d"] td.%s')?.id ?? ""`, pos+2, class)
}

// cellText is a JavaScript expression: the text of the cell with the id.
func cellText(id string) string {
	return `(document.getElementById(` + browsertest.JSString(id) + `)?.textContent ?? "")`
}

func reviewFits(t *testing.T, serve *liveServe, file string, w fitWords) {
	b := consoleIn(t, serve.URL, w.lang)
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))

	// Read: the first step is one line, the second starts at the top.
	waitShowing(t, b, 60*time.Second, "the reading step at the top", atTop("step-title"))
	if n := browsertest.Eval[int](b, 5*time.Second, `document.getElementById("chosen-line").getBoundingClientRect().height`); n > 40 {
		t.Errorf("the first step, folded, is %d px high: more than a line", n)
	}
	if got := text(b, "#chosen-file"); got != "lohn-dezember.csv" {
		t.Errorf("the folded step names %q", got)
	}
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("kind").checkVisibility()`) {
		t.Error("the kind's menu is still shown once the file is read")
	}
	b.Shoot("fits-" + w.lang + "-read.png")
	b.AssertAccessible("the reading step with the first step folded (" + w.lang + ")")

	// "Change" unfolds it, and gives the kind's menu the focus.
	b.Do(5*time.Second, browsertest.Press("#change-chosen"))
	waitShowing(t, b, 10*time.Second, "the kind's menu", `document.activeElement?.id === "kind"`)
	b.Do(5*time.Second, browsertest.Press("#change-chosen"))
	waitShowing(t, b, 10*time.Second, "the first step folded again", `!document.getElementById("kind").checkVisibility()`)

	// Validate: the review starts at the top.
	b.Do(5*time.Second, browsertest.Press("#validate"))
	waitShowing(t, b, 60*time.Second, "the review at the top", browsertest.ReviewShown+` && `+atTop("result-title"))
	if got := text(b, "#count-invalid"); got != "1" {
		t.Fatalf("invalid: %q, want 1", got)
	}
	waitShowing(t, b, 10*time.Second, "the table's rows", `document.querySelector("#grid tbody td.grid-currency") !== null`)

	// Who receives how much, without scrolling sideways, at 1024 and
	// 1366 pixels.
	for _, width := range []int64{1024, 1366} {
		b.Do(5*time.Second, chromedp.EmulateViewport(width, 768))
		b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("grid").scrollIntoView({block: "start"})`))
		if cut := browsertest.Eval[[]string](b, 5*time.Second, fourColumnsCut); len(cut) > 0 {
			t.Errorf("at %d px, cells of the row number, payee, amount and currency out of sight or cut: %q", width, cut)
		}
		b.Shoot(fmt.Sprintf("fits-%s-review-%d.png", w.lang, width))
	}
	b.Do(5*time.Second, chromedp.EmulateViewport(1024, 768))
	if got := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll('#grid thead th')].slice(0, 4).map(th => th.className)`); len(got) != 4 ||
		!strings.Contains(got[1], "grid-pinned") || !strings.Contains(got[2], "grid-amount") || !strings.Contains(got[3], "grid-currency") {
		t.Errorf("the first columns are %q", got)
	}

	// An edit of row 3's currency: marked, said, and undone with Ctrl+Z,
	// which validates the row again.
	cur := browsertest.Eval[string](b, 5*time.Second, cellOf(1, "grid-currency"))
	b.Do(5*time.Second, chromedp.Click("#"+cur))
	b.WaitFor(10*time.Second, "the focus on row 3's currency", focusedID+` === `+browsertest.JSString(cur))
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	b.WaitFor(5*time.Second, "the cell editor", focusedID+` === "cell-editor"`)
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("cell-editor").select()`), chromedp.KeyEvent("EUR"), chromedp.KeyEvent(kb.Enter))
	waitShowing(t, b, 20*time.Second, "the row valid", `document.getElementById("count-invalid").textContent === "0"`)
	edited := `document.getElementById(` + browsertest.JSString(cur) + `)`
	waitShowing(t, b, 10*time.Second, "the edited cell marked", edited+`?.classList.contains("cell-edited")`)
	if got := browsertest.Eval[string](b, 5*time.Second, edited+`.getAttribute("aria-description")`); got != w.was+"eur" {
		t.Errorf("the edited cell's description reads %q, want %q", got, w.was+"eur")
	}
	b.ShootElement(".grid-box", "fits-"+w.lang+"-edited.png")
	b.AssertAccessible("the review with an edited cell (" + w.lang + ")")
	b.Do(5*time.Second, chromedp.KeyEvent("z", chromedp.KeyModifiers(2))) // Ctrl
	waitShowing(t, b, 20*time.Second, "the edit undone", `document.getElementById("count-invalid").textContent === "1" && `+cellText(cur)+`.startsWith("eur")`)
	waitShowing(t, b, 10*time.Second, "the undone cell in focus, unmarked", focusedID+` === `+browsertest.JSString(cur)+` && !`+edited+`.classList.contains("cell-edited")`)
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("undo").disabled`) != true {
		t.Error("Undo is still offered with nothing to undo")
	}

	// A find-and-replace in every row, undone in one with the button.
	desc := browsertest.Eval[int](b, 5*time.Second, `Number([...document.querySelectorAll("#replace-column option")].find(o => o.textContent.includes("description")).value)`)
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector("details.replace").open = true`))
	b.Do(5*time.Second, browsertest.Pick("replace-column", fmt.Sprint(desc)), fill("replace-find", "Lohn"), fill("replace-with", "Gehalt"), browsertest.Press("#replace-all"))
	first := fmt.Sprintf("cell-0-%d", desc)
	waitShowing(t, b, 20*time.Second, "the descriptions replaced", cellText(first)+`.startsWith("Gehalt")`)
	b.Do(5*time.Second, browsertest.Press("#undo"))
	waitShowing(t, b, 20*time.Second, "the replacement undone", cellText(first)+`.startsWith("Lohn")`)
	if n := browsertest.Eval[int](b, 5*time.Second, `document.querySelectorAll("#grid td.cell-edited").length`); n != 0 {
		t.Errorf("%d cells still marked edited", n)
	}

	// Two edits, the second undone; a reload keeps the first, marked, to
	// undo still, and the second undone.
	payee := browsertest.Eval[string](b, 5*time.Second, cellOf(0, "grid-pinned"))
	editCell(t, b, cur, "EUR")
	waitShowing(t, b, 20*time.Second, "the row valid", `document.getElementById("count-invalid").textContent === "0"`)
	editCell(t, b, payee, "9999")
	waitShowing(t, b, 20*time.Second, "the payee edited", cellText(payee)+` === "9999" && document.getElementById(`+browsertest.JSString(payee)+`).classList.contains("cell-edited")`)
	b.Do(5*time.Second, chromedp.KeyEvent("z", chromedp.KeyModifiers(2)))
	waitShowing(t, b, 20*time.Second, "the payee back", cellText(payee)+` === "2002"`)
	b.Do(30*time.Second, chromedp.Reload())
	waitShowing(t, b, 60*time.Second, "the review after a reload", browsertest.ReviewShown+` && document.getElementById(`+browsertest.JSString(cur)+`) !== null`)
	if got := text(b, "#count-invalid"); got != "0" {
		t.Errorf("after a reload, invalid: %q", got)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, cellText(payee)+` + (document.getElementById(`+browsertest.JSString(payee)+`).classList.contains("cell-edited") ? " marked" : "")`); got != "2002" {
		t.Errorf("after a reload, the payee undone reads %q", got)
	}
	if got := browsertest.Eval[string](b, 5*time.Second, edited+`.getAttribute("aria-description")`); got != w.was+"eur" {
		t.Errorf("after a reload, the currency's description reads %q", got)
	}
	b.Do(5*time.Second, browsertest.Press("#undo"))
	waitShowing(t, b, 20*time.Second, "the first edit undone after the reload", `document.getElementById("count-invalid").textContent === "1" && document.getElementById("undo").disabled`)
	b.Do(30*time.Second, chromedp.Reload())
	waitShowing(t, b, 60*time.Second, "the review after a second reload", browsertest.ReviewShown+` && document.getElementById(`+browsertest.JSString(cur)+`) !== null`)
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("count-invalid").textContent + " " + document.querySelectorAll("#grid td.cell-edited").length + " " + document.getElementById("undo").disabled`); got != "1 0 true" {
		t.Errorf("after undoing everything and a reload: invalid, cells marked, Undo disabled = %q", got)
	}
	b.AssertNoErrors()
}

// editCell types text into the cell with the id, as an operator does.
func editCell(t *testing.T, b *browsertest.Browser, id, text string) {
	t.Helper()
	b.Do(5*time.Second, chromedp.Click("#"+id))
	b.WaitFor(10*time.Second, "the focus on "+id, focusedID+` === `+browsertest.JSString(id))
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	b.WaitFor(5*time.Second, "the cell editor", focusedID+` === "cell-editor"`)
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("cell-editor").select()`), chromedp.KeyEvent(text), chromedp.KeyEvent(kb.Enter))
}

// fourColumnsCut is a JavaScript expression: the cells of the first rows
// in view — row number, pinned payee, amount, currency — that reach past
// the table's box or the window, or cut their text, with the table
// scrolled to its left edge.
const fourColumnsCut = `(() => {
  const g = document.getElementById("grid");
  if (g.scrollLeft !== 0) return ["the table is scrolled sideways"];
  const box = g.getBoundingClientRect(), right = Math.min(box.left + g.clientLeft + g.clientWidth, window.innerWidth);
  const out = [];
  for (const tr of [...g.querySelectorAll("tbody tr[aria-rowindex]")].slice(0, 3)) {
    for (const sel of [".grid-rowhead", ".grid-pinned", ".grid-amount", ".grid-currency"]) {
      const c = tr.querySelector(sel);
      if (!c) { out.push(sel + " missing"); continue; }
      const r = c.getBoundingClientRect();
      if (r.right > right + 1 || c.scrollWidth > c.clientWidth + 1) out.push(sel + " " + c.textContent + " " + Math.round(r.right) + ">" + Math.round(right));
    }
  }
  return out;
})()`

// jargon is a JavaScript regular expression of the technical terms an
// operator's screen keeps under "Details", in the three languages.
const jargon = `/request[ -]?body|corps de (la )?requête|requête|anfragekörper|anfrage\b|back-?office|sha-256|indexeddb|\bcors\b|idempoten|localstorage|sessionstorage|json pointer|\bpost \/|\/bulks/i`

// plainText is a JavaScript expression: the terms of jargon that the
// element a CSS selector finds shows (closed "Details" shows nothing).
func plainText(selector string) string {
	return `(el => el ? (el.innerText.match(new RegExp(` + jargon + `, "gi")) ?? []) : ["no ` + selector + `"])(document.querySelector(` + browsertest.JSString(selector) + `))`
}

// TestTheScreensSayItInTheOperatorsWords: in English, German and French,
// the Import page, the reading step, the review, the submission's
// confirmation and its result, and Settings where it speaks of storage
// say in plain words what they say; the request body, the back-office
// API, the API's path, idempotency-refs, SHA-256 and the browser's
// storage are under a "Details" disclosure beside them, closed.
func TestTheScreensSayItInTheOperatorsWords(t *testing.T) {
	browsertest.SkipShort(t)
	file := browsertest.WriteFile(t, "lohn-dezember.csv", payrollExport())
	for _, l := range []string{"en", "de", "fr"} {
		t.Run(l, func(t *testing.T) {
			// A sandbox of its own: the same file submitted in another
			// language would be a repeat to answer for first.
			serve := startServe(t, "-sandbox")
			b := consoleIn(t, serve.URL, l)
			plain := func(state, selector string) {
				t.Helper()
				if terms := browsertest.Eval[[]string](b, 5*time.Second, plainText(selector)); len(terms) > 0 {
					t.Errorf("%s (%s) shows %q outside Details", state, l, terms)
				}
			}
			detailed := func(id, term string) {
				t.Helper()
				got := browsertest.Eval[string](b, 5*time.Second, `(d => d && d.tagName === "DETAILS" && !d.open ? d.textContent : "")(document.getElementById(`+browsertest.JSString(id)+`))`)
				if !strings.Contains(got, term) {
					t.Errorf("#%s (%s), closed, holds %q, want %q in it", id, l, got, term)
				}
			}
			b.Do(5*time.Second, browsertest.Pick("kind", "transfers"))
			waitShowing(t, b, 10*time.Second, "the back-office choice", `document.getElementById("backoffice") !== null`)
			plain("the Import page", "#main")
			detailed("request-file-details", `"requestBody"`)
			detailed("backoffice-details", "API")
			b.Shoot("words-" + l + "-import.png")

			b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			waitShowing(t, b, 60*time.Second, "the reading step", `document.getElementById("validate") !== null`)
			plain("the reading step", "#main")
			b.Do(5*time.Second, browsertest.Press("#validate"))
			waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
			plain("the review", "#main")
			detailed("export-details", "API")

			b.Do(5*time.Second, browsertest.Press("#submit-file"))
			waitShowing(t, b, 60*time.Second, "the confirmation", `document.querySelector('#submission[data-step="confirm"]') !== null`)
			// The valid elements, then the warning about the cost centre
			// accepted.
			for _, id := range []string{"valid-only", "accept-warnings"} {
				waitShowing(t, b, 30*time.Second, "#"+id, `document.getElementById(`+browsertest.JSString(id)+`) !== null`)
				b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(b => { if (!b.checked) { b.checked = true; b.dispatchEvent(new Event("change", {bubbles: true})); } })(document.getElementById(`+browsertest.JSString(id)+`))`))
			}
			waitShowing(t, b, 30*time.Second, "the valid elements to send", `document.getElementById("confirm-submit")?.disabled === false`)
			plain("the confirmation", "#main")
			detailed("submit-call", "POST /bulks/transfers")
			b.ShootElement("#submission", "words-"+l+"-confirm.png")
			b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
			waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null && document.getElementById("journal-details") !== null`)
			plain("the submission's result", "#main")
			detailed("receipt-details", "SHA-256")
			detailed("journal-details", "idempotency-ref")
			b.ShootElement("#main", "words-"+l+"-done.png")

			b.Do(30*time.Second, chromedp.Navigate(serve.URL+"settings"))
			waitShowing(t, b, 30*time.Second, "Settings", browsertest.Interactive+` && document.getElementById("keep-for-tab") !== null`)
			plain("Settings on the credentials kept", "#main .lead")
			plain("Settings on keeping them for the tab", "#keep-for-tab-hint")
			detailed("credentials-details", "sessionStorage")
			b.AssertNoErrors()
		})
	}
}
