//go:build !js

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// currencyWords are what the console says of a file whose one warning is
// a currency that is not an ISO 4217 code, in one language.
type currencyWords struct {
	lang string
	// allValid is the sentence the page must not say; valid the one it
	// says instead.
	allValid, valid string
	message, kind   string
	accept          string
	// eud is the code as the language quotes it.
	eud string
}

// A file of three transfers, the third in EUD, in each of the console's
// languages: the review counts the warning, F8 and "Next problem" reach
// its cell (from the errors-only view too, which then shows every row),
// the page never says every element is valid, the invalid-currency total
// names EUD, and the confirmation lists the warning and keeps Submit
// disabled until the operator ticks that it was checked; then the bulk
// is submitted.
func TestTheConsoleNamesACurrencyThatDoesNotExist(t *testing.T) {
	browsertest.SkipShort(t)
	browsertest.NeedAxe(t)
	for _, w := range []currencyWords{
		{"en", "Every element is valid.", "Every element is valid; 1 warning to check",
			"EUD is not an ISO 4217 currency code (did you mean AUD or EUR?)", "Currencies that are not ISO 4217 codes: 1", "I have checked these warnings", `"EUD"`},
		{"de", "Alle Elemente sind gültig.", "Alle Elemente sind gültig; 1 Warnung zu prüfen",
			"EUD ist kein ISO-4217-Währungscode (meinten Sie AUD oder EUR?)", "Währungen, die keine ISO-4217-Codes sind: 1", "Ich habe diese Warnungen geprüft", "„EUD“"},
		{"fr", "Tous les éléments sont valides.", "Tous les éléments sont valides\u202f; 1 avertissement à vérifier",
			"EUD n’est pas un code de devise ISO 4217 (vouliez-vous dire AUD ou EUR\u202f?)", "Devises qui ne sont pas des codes ISO 4217\u202f: 1", "J’ai vérifié ces avertissements", "«\u202fEUD\u202f»"},
	} {
		t.Run(w.lang, func(t *testing.T) { currencyThatDoesNotExist(t, w) })
	}
}

// focusedID is a JavaScript expression: the focused element's id.
const focusedID = `(document.activeElement?.id ?? "")`

func currencyThatDoesNotExist(t *testing.T, w currencyWords) {
	serve := startServe(t, "-sandbox")
	api := sandboxClient(t, serve.URL)
	b := consoleIn(t, serve.URL, w.lang)

	csv := "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
		"110321,managed_accounts,1001,managed_cards,2001,EUR,2500\n" +
		"110321,managed_accounts,1001,managed_cards,2002,EUR,1800\n" +
		"110321,managed_accounts,1001,managed_cards,2003,EUD,1200\n"
	file := browsertest.WriteFile(t, "pay.csv", []byte(csv))
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)

	// The review: a warning, no error, and what is left to check said.
	if got := text(b, "#count-warnings"); got != "1" {
		t.Errorf("the warnings count reads %q", got)
	}
	if got := text(b, "#count-invalid"); got != "0" {
		t.Errorf("the invalid count reads %q", got)
	}
	main := text(b, "#main")
	if strings.Contains(main, w.allValid) {
		t.Errorf("the page says %q above a warning:\n%s", w.allValid, main)
	}
	if got := text(b, "#validity"); !strings.Contains(got, w.valid) || !strings.Contains(got, w.eud) {
		t.Errorf("the validity note reads %q, want %q and the code", got, w.valid)
	}
	if got := text(b, "#totals tr.invalid-currency"); !strings.Contains(got, w.eud) {
		t.Errorf("the invalid-currency total reads %q", got)
	}
	if got := text(b, "li.problem-warning"); !strings.Contains(got, w.message) {
		t.Errorf("the problem list reads %q, want %q", got, w.message)
	}
	b.ShootElement(".problem-list", "currency-"+w.lang+"-problems.png")

	// F8 from the first cell reaches the warning's cell, row 4's currency.
	const eud = "cell-2-5"
	b.Do(5*time.Second, chromedp.Click("#cell-0-0"))
	b.WaitFor(10*time.Second, "the focus on the first cell", focusedID+` === "cell-0-0"`)
	b.Do(5*time.Second, chromedp.KeyEvent(kb.F8))
	b.WaitFor(20*time.Second, "F8 to the currency of row 4", focusedID+` === "`+eud+`"`)
	if got := text(b, "#cell-detail"); !strings.Contains(got, w.message) {
		t.Errorf("at the warning the detail reads %q", got)
	}
	b.Shoot("currency-" + w.lang + "-review.png")
	b.AssertAccessible("a review with a currency warning (" + w.lang + ")")

	// In the errors-only view no error is left: "Next problem" shows
	// every row again and goes on to the warning.
	b.Do(5*time.Second, chromedp.Click("#errors-only"))
	waitShowing(t, b, 20*time.Second, "the empty errors-only view", `document.getElementById("cell-0-0") === null`)
	b.Do(5*time.Second, browsertest.Press("#next-error"))
	b.WaitFor(20*time.Second, "Next problem to the currency of row 4", focusedID+` === "`+eud+`"`)
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("errors-only").checked`) {
		t.Error("the errors-only filter still hides the warning's row")
	}
	// F8 in the empty errors-only view does the same.
	b.Do(5*time.Second, chromedp.Click("#errors-only"))
	waitShowing(t, b, 20*time.Second, "the empty errors-only view", `document.getElementById("cell-0-0") === null`)
	b.Do(5*time.Second, chromedp.Focus("#grid"), chromedp.KeyEvent(kb.F8))
	b.WaitFor(20*time.Second, "F8 to the currency of row 4", focusedID+` === "`+eud+`"`)

	// The confirmation lists the warning; Submit waits for the tick.
	b.Do(5*time.Second, browsertest.Press("#submit-file"))
	waitShowing(t, b, 60*time.Second, "the confirmation step", `document.querySelector('#submission[data-step="confirm"]') !== null`)
	box := text(b, "#warnings-to-accept")
	for _, want := range []string{w.kind, w.message, "4"} {
		if !strings.Contains(box, want) {
			t.Errorf("the warnings to accept read %q, want %q in them", box, want)
		}
	}
	disabled := `document.getElementById("confirm-submit").disabled`
	if !browsertest.Eval[bool](b, 5*time.Second, disabled) {
		t.Fatal("Submit is enabled before the warnings are accepted")
	}
	if got := text(b, `label[for="accept-warnings"]`); got != w.accept {
		t.Errorf("the acceptance reads %q, want %q", got, w.accept)
	}
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	if n := len(mustList(t, api)); n != 0 {
		t.Fatalf("a disabled Submit sent %d bulks", n)
	}
	b.ShootElement("main", "currency-"+w.lang+"-confirm.png")
	b.AssertAccessible("a confirmation with warnings to accept (" + w.lang + ")")
	b.Do(5*time.Second, chromedp.Click("#accept-warnings"))
	waitShowing(t, b, 10*time.Second, "Submit enabled", "!"+disabled)
	b.Do(5*time.Second, browsertest.Press("#confirm-submit"))
	waitShowing(t, b, 60*time.Second, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
	if bulks := mustList(t, api); len(bulks) != 1 || bulks[0].SubmittedItemsCount != 3 {
		t.Errorf("the sandbox holds %+v", bulks)
	}
	b.AssertNoErrors()
}
