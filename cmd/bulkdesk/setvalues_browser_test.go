//go:build !js

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// bankExportFile is a bank's export of transfers, semicolon-separated: it
// has no column for the profile or the source's type.
const bankExportFile = "source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount\n" +
	"1001;managed_cards;2001;EUR;25000\n" +
	"1002;managed_cards;2002;EUR;1999\n" +
	"1003;managed_cards;2003;EUR;500\n"

// setValueWords are what the mapping step says of that file in one
// language.
type setValueWords struct {
	lang string
	// missing names the profile as the alert does; profile and source
	// the two fields' labels; account the source type's choice.
	missing, profile, source, account string
	// amount is the label of the amount's field in the column's menu.
	amount string
	// readAs starts what a value set reads as; badge marks the review's
	// columns of values set for every row.
	readAs, badge string
}

// TestTheMappingStepGivesAFieldAValueForEveryRow: a file lacking the
// profile and the source's type stops at "Check how it is read", which
// names both and offers each a value for every row (the source's type
// from the contract's choices, in the operator's words), the fields'
// menus naming each field in the operator's language before its path,
// none cut off at 1024×768. In German the operator gives both (which a
// reload keeps), validates, sees them as columns of their own, marked,
// that no cell edit changes (Enter goes back to where they are set), and
// submits to the sandbox, which receives them in every element.
func TestTheMappingStepGivesAFieldAValueForEveryRow(t *testing.T) {
	browsertest.SkipShort(t)
	browsertest.NeedAxe(t)
	for _, w := range []setValueWords{
		{"de", "Profil-ID (profileId)", "Profil-ID — profileId (Pflichtfeld)", "Instrumenttyp — source.type (Pflichtfeld)", "Verwaltetes Konto",
			"Betrag — destinationAmount.amount (Pflichtfeld)", "Gelesen als: ", "Gleich in allen Zeilen"},
		{"en", "Profile id (profileId)", "Profile id — profileId (required)", "Instrument type — source.type (required)", "Managed account",
			"Amount — destinationAmount.amount (required)", "Read as: ", "Same for every row"},
		{"fr", "Identifiant de profil (profileId)", "Identifiant de profil — profileId (obligatoire)", "Type d’instrument — source.type (obligatoire)", "Compte géré",
			"Montant — destinationAmount.amount (obligatoire)", "Lu comme\u202f: ", "Identique pour toutes les lignes"},
	} {
		t.Run(w.lang, func(t *testing.T) { valueForEveryRow(t, w, w.lang == "de") })
	}
}

func valueForEveryRow(t *testing.T, w setValueWords, submit bool) {
	serve := startServe(t, "-sandbox")
	b := consoleIn(t, serve.URL, w.lang)

	file := browsertest.WriteFile(t, "bank.csv", []byte(bankExportFile))
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	waitShowing(t, b, 60*time.Second, "the mapping step", `document.getElementById("set-values") !== null`)

	if got := text(b, "#missing-fields"); !strings.Contains(got, w.missing) {
		t.Errorf("the missing fields read %q, want %q in them", got, w.missing)
	}
	labels := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#set-values .set-value label")].map(l => l.textContent)`)
	if len(labels) != 2 || labels[0] != w.profile || labels[1] != w.source {
		t.Errorf("the fields offered a value for every row: %q", labels)
	}
	choices := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#set-1 option")].map(o => o.value + "=" + o.textContent)`)
	if len(choices) != 3 || choices[2] != "managed_accounts="+w.account {
		t.Errorf("source.type's choices: %q", choices)
	}
	// The fields' menus name each field in the operator's language, then
	// its path, and show the whole of it.
	if got := browsertest.Eval[string](b, 5*time.Second, `(s => s.options[s.selectedIndex].textContent)(document.getElementById("map-4"))`); got != w.amount {
		t.Errorf("column E's field reads %q, want %q", got, w.amount)
	}
	if cut := browsertest.Eval[[]string](b, 5*time.Second, cutSelects); len(cut) > 0 {
		t.Errorf("menus that cut off what they show: %q", cut)
	}
	if over := browsertest.Eval[int](b, 5*time.Second, `(s => s.scrollWidth - s.clientWidth)(document.querySelector(".mapping-scroll"))`); over > 0 {
		t.Errorf("the columns' table is %dpx wider than the page at 1024×768", over)
	}
	b.ShootElement("#read", "setvalues-"+w.lang+"-mapping.png")
	b.AssertAccessible("the mapping step with fields to set (" + w.lang + ")")
	if !submit {
		return
	}

	// Both given: read at once, missing no more.
	b.Do(5*time.Second, browsertest.Pick("set-0", "110321"))
	waitShowing(t, b, 30*time.Second, "the profile read", `document.getElementById("set-0-read")?.textContent === `+browsertest.JSString(w.readAs+"110321"))
	b.Do(5*time.Second, browsertest.Pick("set-1", "managed_accounts"))
	waitShowing(t, b, 30*time.Second, "the source type read", `document.getElementById("set-1-read")?.textContent === `+browsertest.JSString(w.readAs+w.account+" (managed_accounts)"))
	if got := text(b, "#missing-fields"); got != "" {
		t.Errorf("still missing: %q", got)
	}
	b.ShootElement("#set-values", "setvalues-"+w.lang+"-set.png")
	b.AssertAccessible("the mapping step with values set (" + w.lang + ")")

	// The draft keeps them: a reload brings them back.
	b.Do(30*time.Second, chromedp.Reload())
	waitShowing(t, b, 60*time.Second, "the mapping step after a reload", `document.getElementById("set-1-read")?.textContent === `+browsertest.JSString(w.readAs+w.account+" (managed_accounts)"))
	if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("set-0").value`); got != "110321" {
		t.Errorf("after a reload the profile reads %q", got)
	}

	b.Do(5*time.Second, browsertest.Press("#validate"))
	waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
	if got := text(b, "#count-invalid"); got != "0" {
		t.Errorf("invalid elements: %q", got)
	}
	waitShowing(t, b, 10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex] td").length > 0`)
	heads := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#grid thead th.grid-set")].map(th => th.textContent)`)
	if len(heads) != 2 || heads[0] != w.missing+w.badge || !strings.HasSuffix(heads[1], "(source.type)"+w.badge) {
		t.Errorf("the columns marked as set: %q", heads)
	}
	cells := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#grid tbody tr[aria-rowindex] td.grid-set[aria-readonly=true]")].map(td => td.textContent)`)
	if len(cells) != 6 || cells[0] != "110321" || cells[1] != "managed_accounts" {
		t.Errorf("the set cells: %q", cells)
	}
	// The values set for every row are the table's last columns.
	browsertest.Eval[bool](b, 5*time.Second, `(document.getElementById("grid").scrollLeft = 1e6, true)`)
	b.ShootElement(".grid-box", "setvalues-"+w.lang+"-review.png")
	b.AssertAccessible("the review with values set for every row (" + w.lang + ")")

	// A set value's cell is not edited in the table: Enter goes to where
	// it is set.
	setCell := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#grid tbody td.grid-set").id`)
	b.Do(5*time.Second, chromedp.Click("#"+setCell))
	b.WaitFor(10*time.Second, "the focus on the set cell", focusedID+` === `+browsertest.JSString(setCell))
	waitShowing(t, b, 10*time.Second, "the set cell's detail", `document.getElementById("cell-detail").textContent.includes("110321")`)
	if got := text(b, "#cell-detail"); !strings.Contains(got, w.missing) {
		t.Errorf("the set cell's detail reads %q", got)
	}
	b.Do(5*time.Second, chromedp.KeyEvent(kb.Enter))
	b.WaitFor(10*time.Second, "the profile's value in the mapping step", focusedID+` === "set-0"`)
	b.Do(5*time.Second, browsertest.Press("#step-review"))
	waitShowing(t, b, 30*time.Second, "the review again", browsertest.ReviewShown)

	// Submitted to the sandbox, every element carries both.
	b.Do(5*time.Second, browsertest.Press("#submit-file"))
	waitShowing(t, b, 60*time.Second, "the confirmation step", `document.querySelector('#submission[data-step="confirm"]') !== null`)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	api := sandboxClient(t, serve.URL)
	bulks := mustList(t, api)
	if len(bulks) != 1 || bulks[0].SubmittedItemsCount != 3 {
		t.Fatalf("the sandbox holds %+v", bulks)
	}
	ops, err := api.AllOperations(context.Background(), bulks[0].BulkID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		if !strings.Contains(op.RequestPayload, `"profileId":"110321"`) || !strings.Contains(op.RequestPayload, `"managed_accounts"`) {
			t.Errorf("operation %d was sent %s", op.Sequence, op.RequestPayload)
		}
	}
	b.AssertNoErrors()
}

// cutSelects is a JavaScript expression: the ids of the menus of the
// mapping step too narrow for the option they show.
const cutSelects = `[...document.querySelectorAll("#read select")].filter(s => {
  if (s.selectedIndex < 0) return false;
  const cs = getComputedStyle(s);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = cs.font;
  const text = ctx.measureText(s.options[s.selectedIndex].textContent).width;
  return text + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) > s.clientWidth - 16;
}).map(s => s.id)`
