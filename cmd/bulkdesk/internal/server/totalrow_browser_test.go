//go:build !js

package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// TestTheFilesTotalRowIsCompared loads, in a German and a French
// console, a bank export whose "Summe" row under the payments differs
// from them by 0,63: the review's reading says the row is left out and
// both sums, marked to look at twice, and the problems hold the warning
// at the total's row and cell, in the operator's words and numbers.
func TestTheFilesTotalRowIsCompared(t *testing.T) {
	browsertest.SkipShort(t)
	file := browsertest.WriteFile(t, "export.csv", []byte("Profil-ID;Quellkonto;Quellkontotyp;Empfängerkonto;Empfängerkontotyp;Betrag;Währung;Verwendungszweck\n"+
		"110321;1100000001;managed_accounts;1100000002;managed_accounts;1.234,56;EUR;Miete\n"+
		"110321;1100000001;managed_accounts;1100000003;managed_accounts;25.190,25;EUR;Kaution\n"+
		"Summe;;;;;26.424,18;EUR;\n"))
	srv := startConsole(t, "/")
	for _, tc := range []struct{ lang, statement, place, warning string }{
		{"de", "„Summe“ in Zeile 4: EUR 26.424,18, aber die Summe der 2 Zeilen darüber ist EUR 26.424,81. Die Zeile wird ausgelassen.",
			"Zeile 4, Spalte F", "eine Differenz von EUR 0,63"},
		{"fr", "«\u202fSumme\u202f» à la ligne 4\u202f: EUR 26\u202f424,18, mais la somme des 2 lignes au-dessus est de EUR 26\u202f424,81. La ligne est écartée.",
			"Ligne 4, colonne F", "soit un écart de EUR 0,63"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			b := browsertest.New(t, chromedp.Flag("lang", tc.lang), chromedp.Flag("accept-lang", tc.lang))
			b.Do(30*time.Second, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(srv.URL))
			b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			b.WaitFor(60*time.Second, "the review or the reading", browsertest.ReviewShown+` || document.getElementById("validate") !== null`)
			if !browsertest.Eval[bool](b, 5*time.Second, browsertest.ReviewShown) {
				b.Do(5*time.Second, browsertest.Press("#validate"))
				b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)
			}
			total := `document.querySelector('#review-reading li[data-name="totals"]')`
			b.WaitFor(10*time.Second, "the total's statement", total+` !== null`)
			if got := browsertest.Eval[string](b, 5*time.Second, total+`.textContent`); !strings.HasSuffix(got, tc.statement) {
				t.Errorf("the reading says %q, want it to end with %q", got, tc.statement)
			}
			if !browsertest.Eval[bool](b, 5*time.Second, total+`.classList.contains("reading-marked")`) {
				t.Error("a total that differs is not marked")
			}
			// The warning names the total's row and cell, not the whole file.
			problems := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#problems li")].map(li => li.querySelector(".problem-where").textContent + " | " + li.textContent)`)
			if len(problems) != 1 || !strings.Contains(strings.ToLower(problems[0]), strings.ToLower(tc.place)) || !strings.Contains(problems[0], tc.warning) {
				t.Errorf("problems %q, want one at %q with %q", problems, tc.place, tc.warning)
			}
			b.ShootElement("#result", "totalrow-"+tc.lang+".png")
			b.AssertNoErrors()
		})
	}
}
