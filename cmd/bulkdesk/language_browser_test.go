//go:build !js

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// TestTheConsoleSpeaksTheOperatorsLanguage opens the console in a browser
// that asks for Swiss German: the console speaks German and writes numbers
// the German way. Settings switches it to French, which a reload keeps,
// and back to the browser's language.
func TestTheConsoleSpeaksTheOperatorsLanguage(t *testing.T) {
	browsertest.SkipShort(t)
	base := startServe(t, "-sandbox").URL
	b := browsertest.New(t, chromedp.Flag("lang", "de-CH"), chromedp.Flag("accept-lang", "de-CH,de"))
	b.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
	says := func(want, nav string) {
		t.Helper()
		if got := browsertest.Eval[string](b, 5*time.Second, `document.documentElement.lang`); got != want {
			t.Errorf("the page says it is in %q, want %q", got, want)
		}
		if got := text(b, "nav.nav"); !strings.Contains(got, nav) {
			t.Errorf("the navigation reads %q, want %q in it", got, nav)
		}
	}
	says("de", "Einstellungen")

	// 1,500 transfers, one with a currency in lower case: the counts and
	// totals are written with German separators, the problem in German
	// with the field's German name beside its path.
	transfers := fixture.Plain.List(1500, 7)
	file := browsertest.WriteFile(t, "lauf.csv", fixture.CSV(transfers))
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
	if got := text(b, "#count-elements"); got != "1.500" {
		t.Errorf("the element count reads %q, want 1.500", got)
	}
	eur := 0
	for _, tr := range transfers {
		if tr.Currency == "EUR" {
			eur += tr.Amount
		}
	}
	if total, want := text(b, "#totals tbody tr:first-child td.amount"), "EUR "+money.FormatWith(int64(eur), 2, money.Comma); total != want {
		t.Errorf("the EUR total reads %q, want %q", total, want)
	}
	problem := text(b, "li.problem")
	for _, want := range []string{"Zeile 9", "Währung (destinationAmount.currency)", "darf nur", "Großbuchstaben"} {
		if !strings.Contains(problem, want) {
			t.Errorf("the problem reads %q, want %q in it", problem, want)
		}
	}
	b.Do(5*time.Second, chromedp.EmulateViewport(1366, 900))
	b.ShootElement("main", "language-de-review.png")

	b.Do(30*time.Second, chromedp.Navigate(base+"settings"))
	waitShowing(t, b, 30*time.Second, "Settings", browsertest.Interactive+` && document.getElementById("language") !== null`)
	b.Do(5*time.Second, browsertest.Pick("language", "fr"))
	waitShowing(t, b, 30*time.Second, "the console in French", `document.documentElement.lang === "fr"`)
	says("fr", "Paramètres")
	b.Shoot("language-fr-settings.png")

	b.Do(30*time.Second, chromedp.Navigate(base+"bulks"))
	waitShowing(t, b, 60*time.Second, "the console to start again", browsertest.Interactive)
	says("fr", "Paramètres")

	b.Do(30*time.Second, chromedp.Navigate(base+"settings"))
	waitShowing(t, b, 30*time.Second, "Settings", browsertest.Interactive+` && document.getElementById("language") !== null`)
	b.Do(5*time.Second, browsertest.Pick("language", ""))
	waitShowing(t, b, 30*time.Second, "the browser's language again", `document.documentElement.lang === "de"`)
	says("de", "Einstellungen")
	b.AssertNoErrors()
}
