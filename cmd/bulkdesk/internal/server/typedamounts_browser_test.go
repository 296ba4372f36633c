//go:build !js

package server_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// typedIn is what an operator of each language types, and what the
// console answers.
var typedIn = []struct {
	lang string
	// eur and usd are the file's totals as the language writes them:
	// EUR 26,424.81 and USD 1,000.00.
	eur, usd string
	expected string
	// ambiguous is a total that reads two ways, or has more decimals than
	// euros have, and hint how the console says to type it.
	ambiguous, hint string
	// limit is an amount limit of EUR 10,000 below the file's largest
	// amount, badLimit one that reads two ways.
	limit, badLimit, limitHint string
	// question and asked are the words of the step that asks how the
	// amounts are written.
	minorSide string
}{
	{"en", "26,424.81", "1,000.00", "as expected", "1.500", "type 1,500.00 or 1.50", "EUR:10,000", "EUR:1.500", "type 1,500.00 or 1.50", "minor units"},
	{"de", "26.424,81", "1.000,00", "wie erwartet", "1,500", "Geben Sie 1.500,00 oder 1,50 ein", "EUR:10.000", "EUR:1,500", "Geben Sie 1.500,00 oder 1,50 ein", "kleinste Einheit"},
	{"fr", "16 620,13", "1 000,00", "comme attendu", "26.424", "saisissez 26\u202f424,00", "EUR:10 000", "EUR:1.500", "saisissez 1\u202f500,00 ou 1,50", "unités mineures"},
}

// TestNumbersAreTypedAsTheOperatorWritesThem types control totals and an
// amount limit into the review in English, German and French, as each
// language writes numbers, for a file of two currencies: each total is
// compared and matches; a total that reads two ways, or has more
// decimals than the currency, is said as a format problem with how to
// type it, never as a difference. Before that, a workbook of whole
// amounts under the API's own header, shown with two decimals, is not
// read in major units: the step that shows how it is read asks.
func TestNumbersAreTypedAsTheOperatorWritesThem(t *testing.T) {
	browsertest.SkipShort(t)
	browsertest.NeedAxe(t)
	srv := startConsole(t, "/")
	for _, tc := range typedIn {
		t.Run(tc.lang, func(t *testing.T) {
			b := browsertest.New(t, chromedp.Flag("lang", tc.lang), chromedp.Flag("accept-lang", tc.lang))
			b.Do(30*time.Second, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(srv.URL))
			b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)

			// A number format is not a unit.
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{minorUnitsShownWithDecimals(t)}))
			b.WaitFor(30*time.Second, "the question about the units", `document.getElementById("question-units") !== null`)
			cells := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#question-units-cells tbody tr")].map(tr => [...tr.children].map(c => c.textContent).join(" | "))`)
			joined := strings.Join(cells, "\n")
			if !strings.Contains(joined, "G1 | destinationAmount.amount | "+tc.minorSide) || !strings.Contains(joined, "G2 | 1050 |") {
				t.Errorf("the cells behind the question:\n%s", joined)
			}
			b.ShootElement("#read", "typed-"+tc.lang+"-units-question.png")

			// Control totals, one per currency.
			b.Do(10*time.Second, chromedp.Navigate(srv.URL))
			b.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{twoCurrencies(t, tc.lang)}))
			b.WaitFor(60*time.Second, "the review", browsertest.ReviewShown)
			b.Do(10*time.Second,
				chromedp.SendKeys(chromedp.ID("expected-count"), "4"),
				chromedp.SendKeys(chromedp.ID("expected-total-EUR"), tc.eur),
				chromedp.SendKeys(chromedp.ID("expected-total-USD"), tc.usd),
			)
			for _, id := range []string{"count-check", "total-check-EUR", "total-check-USD"} {
				b.WaitFor(10*time.Second, id+" to match", `document.querySelector("#`+id+`.control-ok") !== null`)
				if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("`+id+`").textContent`); !strings.Contains(got, tc.expected) {
					t.Errorf("%s says %q", id, got)
				}
			}
			b.ShootElement("fieldset.control", "typed-"+tc.lang+"-totals-match.png")

			// A total that reads two ways is a format problem, with how
			// to type it.
			b.Do(10*time.Second, emptyInput("expected-total-EUR"), chromedp.SendKeys(chromedp.ID("expected-total-EUR"), tc.ambiguous))
			// Each key typed is read at once: wait for the whole text.
			b.WaitFor(10*time.Second, "the format problem", `document.getElementById("total-check-EUR").textContent.includes(`+browsertest.JSString(tc.hint)+`)`)
			got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("total-check-EUR").textContent`)
			if !strings.HasPrefix(got, "Format") || !strings.Contains(got, tc.ambiguous) || strings.Contains(got, tc.expected) || !browsertest.Eval[bool](b, 5*time.Second, `document.querySelector("#total-check-EUR.control-format") !== null`) {
				t.Errorf("the refused total says %q, want the format problem with %q", got, tc.hint)
			}
			if browsertest.Eval[bool](b, 5*time.Second, `document.querySelector("#total-check-EUR.control-bad") !== null`) {
				t.Error("the refused total is shown as a difference")
			}
			b.ShootElement("fieldset.control", "typed-"+tc.lang+"-total-refused.png")

			// An amount limit as the operator writes it, then one that
			// cannot be read.
			b.Do(10*time.Second, chromedp.SendKeys(chromedp.ID("amount-limits"), tc.limit), chromedp.Click(chromedp.ID("apply-limits")))
			b.WaitFor(30*time.Second, "the limit to apply", `document.getElementById("count-warnings").textContent === "1"`)
			b.Do(10*time.Second, emptyInput("amount-limits"), chromedp.SendKeys(chromedp.ID("amount-limits"), tc.badLimit), chromedp.Click(chromedp.ID("apply-limits")))
			b.WaitFor(10*time.Second, "the limit's format problem", `document.querySelector("#limits-problem.control-format") !== null`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("limits-problem").textContent`); !strings.Contains(got, tc.limitHint) {
				t.Errorf("the refused limit says %q, want %q in it", got, tc.limitHint)
			}
			if got := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("count-warnings").textContent`); got != "1" {
				t.Errorf("a refused limit changed the warnings: %s", got)
			}
			b.ShootElement("form.control", "typed-"+tc.lang+"-limit-refused.png")
			b.AssertAccessible("a total and a limit refused as format problems")
			b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`document.querySelector("fieldset.control").scrollIntoView()`))
			b.Shoot("typed-" + tc.lang + "-review.png")
			b.AssertNoErrors()
		})
	}
}

// emptyInput empties an input as an operator does, telling the page.
func emptyInput(id string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => {
  const el = document.getElementById(` + browsertest.JSString(id) + `);
  el.value = "";
  el.dispatchEvent(new Event("input", {bubbles: true}));
})()`)
}

// minorUnitsShownWithDecimals writes the template's header over whole
// amounts in minor units, shown as "#,##0.00" as a spreadsheet shows
// them when the column is formatted for money.
func minorUnitsShownWithDecimals(t *testing.T) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	rows := [][]any{
		{"profileId", "source.id", "source.type", "destination.id", "destination.type", "destinationAmount.currency", "destinationAmount.amount"},
		{"110321", "1001", "managed_accounts", "2001", "managed_cards", "EUR", 1050},
		{"110321", "1002", "managed_accounts", "2002", "managed_cards", "EUR", 250000},
	}
	for r, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, r+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	style, err := f.NewStyle(&excelize.Style{NumFmt: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetCellStyle("Sheet1", "G2", "G3", style); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "zahlungen.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// twoCurrencies writes a CSV file of four transfers in minor units: EUR
// 26,424.81 (16,620.13 in French) and USD 1,000.00, one euro amount above
// EUR 10,000.
func twoCurrencies(t *testing.T, lang string) string {
	t.Helper()
	eur := []int{1200000, 1000000, 442481}
	if lang == "fr" {
		eur = []int{1200000, 400000, 62013}
	}
	var b strings.Builder
	b.WriteString("profileId;source.id;source.type;destination.id;destination.type;currency;amount\n")
	for i, a := range eur {
		fmt.Fprintf(&b, "110321;%d;managed_accounts;%d;managed_cards;EUR;%d\n", 1001+i, 2001+i, a)
	}
	b.WriteString("110321;1009;managed_accounts;2009;managed_cards;USD;100000\n")
	return browsertest.WriteFile(t, "zahlungen-"+lang+".csv", []byte(b.String()))
}
