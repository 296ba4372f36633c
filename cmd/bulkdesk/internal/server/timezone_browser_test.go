//go:build !js

package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// zoneCSV is a bank export of transfers scheduled by date, written as
// the operator's spreadsheet writes dates.
func zoneCSV(date string) string {
	return "profileId;source.type;source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount;scheduledTimestamp\n" +
		"110;managed_accounts;1001;managed_accounts;2001;EUR;1500;" + date + "\n" +
		"110;managed_accounts;1001;managed_accounts;2002;EUR;2500;" + date + "\n"
}

// An English, a German and a French operator each load a file scheduled by date: the
// step that shows how it is read asks for the time zone, nothing is
// guessed; once Europe/Berlin is chosen, the step, the review and the
// confirmation write the scheduled time back in words, in their
// language. A zone chosen in Settings is kept by the browser and reads
// the next file at once.
func TestConsoleAsksForTheTimeZoneOfDates(t *testing.T) {
	for _, tc := range []struct {
		lang, accept, date, words, paris string
	}{
		{"en", "en-US,en", "12/15/2026", "15 Dec 2026, 00:00 Europe/Berlin", "15 Dec 2026, 00:00 Europe/Paris"},
		{"de", "de-DE,de", "15.12.2026", "15. Dez. 2026, 00:00 Europe/Berlin", "15. Dez. 2026, 00:00 Europe/Paris"},
		{"fr", "fr-FR,fr", "15/12/2026", "15 déc. 2026, 00:00 Europe/Berlin", "15 déc. 2026, 00:00 Europe/Paris"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			b := browsertest.New(t, chromedp.Flag("lang", tc.lang), chromedp.Flag("accept-lang", tc.accept))
			srv := startConsole(t, "/")
			file := filepath.Join(t.TempDir(), "bank.csv")
			if err := os.WriteFile(file, []byte(zoneCSV(tc.date)), 0o644); err != nil {
				t.Fatal(err)
			}
			b.Do(30*time.Second, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(srv.URL))
			b.WaitFor(60*time.Second, "the console to start", browsertest.Interactive)
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))

			// Asked, not guessed: the dates are errors until a zone is
			// chosen, and the review waits.
			b.WaitFor(30*time.Second, "the question about the time zone", `document.getElementById("question-timeZone") !== null`)
			if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("result") !== null`) {
				t.Error("the review is shown before a zone is chosen")
			}
			if v := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("question-time-zone").value`); v != "none" {
				t.Errorf("a zone is chosen already: %q", v)
			}
			cells := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#question-timeZone-cells tbody tr")].map(tr => tr.textContent)`)
			if len(cells) != 2 || !strings.Contains(cells[0], tc.date) {
				t.Errorf("the dates behind the question: %q", cells)
			}
			b.ShootElement("#read", "timezone-"+tc.lang+"-question.png")

			b.Do(5*time.Second, browsertest.Pick("question-time-zone", "Europe/Berlin"))
			b.WaitFor(30*time.Second, "the zone to apply", `document.getElementById("question-timeZone") === null && document.getElementById("time-zone")?.value === "Europe/Berlin"`)
			if first := browsertest.Eval[string](b, 5*time.Second, `document.querySelector("#examples tbody tr").textContent`); !strings.Contains(first, tc.words) {
				t.Errorf("the first example reads %q, want %q in it", first, tc.words)
			}
			b.ShootElement("#read", "timezone-"+tc.lang+"-chosen.png")

			b.Do(5*time.Second, chromedp.Click(chromedp.ID("validate")))
			b.WaitFor(30*time.Second, "the review", browsertest.ReviewShown+` && document.getElementById("count-invalid").textContent === "0"`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("review-schedule").textContent`); !strings.Contains(got, tc.words) || !strings.Contains(got, "2 ") {
				t.Errorf("the review's schedule says %q, want %q", got, tc.words)
			}
			if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector('#review-reading li[data-name="timeZone"]')?.textContent ?? ""`); !strings.Contains(got, tc.words) || !strings.Contains(got, tc.date) {
				t.Errorf("the review's reading says %q", got)
			}
			b.ShootElement("#result", "timezone-"+tc.lang+"-review.png")

			b.Do(5*time.Second, chromedp.Click(chromedp.ID("submit-file")))
			b.WaitFor(30*time.Second, "the confirmation", `document.querySelector("#confirm-schedule li") !== null`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("confirm-schedule").textContent`); !strings.Contains(got, tc.words) {
				t.Errorf("the confirmation's schedule says %q, want %q", got, tc.words)
			}
			b.Shoot("timezone-" + tc.lang + "-confirm.png")

			// Settings: Paris for every file, kept by the browser. The next
			// file has other headers: the console would read one with the
			// same headers as it read this one, in Berlin.
			b.Do(30*time.Second, chromedp.Navigate(srv.URL+"settings"))
			b.WaitFor(30*time.Second, "Settings", browsertest.Interactive+` && document.getElementById("time-zone") !== null`)
			b.Do(5*time.Second, browsertest.Pick("time-zone", "Europe/Paris"))
			b.WaitFor(5*time.Second, "the zone to be kept", `localStorage.getItem("bulkdesk-time-zone") === "Europe/Paris"`)
			b.ShootElement("main", "timezone-"+tc.lang+"-settings.png")
			b.Do(30*time.Second, chromedp.Navigate(srv.URL))
			b.WaitFor(60*time.Second, "the console to start again", browsertest.Interactive+` && document.getElementById("request-file") !== null`)
			other := filepath.Join(t.TempDir(), "bank2.csv")
			data := strings.ReplaceAll(zoneCSV(tc.date), ";scheduledTimestamp\n", ";scheduledTimestamp;description\n")
			data = strings.ReplaceAll(data, tc.date+"\n", tc.date+";Miete\n")
			if err := os.WriteFile(other, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{other}))
			b.WaitFor(30*time.Second, "the file read in Paris", `(document.getElementById("review-schedule")?.textContent ?? "").includes(`+browsertest.JSString(tc.paris)+`) || (document.querySelector("#examples tbody")?.textContent ?? "").includes(`+browsertest.JSString(tc.paris)+`)`)
			if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("question-timeZone") !== null`) {
				t.Error("the zone chosen in Settings is asked for again")
			}
			b.AssertNoErrors()
		})
	}
}
