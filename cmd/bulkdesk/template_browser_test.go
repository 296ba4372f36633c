//go:build !js

package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// TestTheTemplateDownloadedInTheConsoleLoadsStraightToTheReview: in each
// of the console's languages, "Download a template" on the Import page
// gives the chosen kind's workbook headed in that language, its dates in
// the time zone chosen in Settings; filled in as an operator types
// (amounts with their decimals, choices in words, dates as dates) and
// dropped on the page, it goes straight to the review, with no question
// about how it is read, every row an element and the totals exact.
func TestTheTemplateDownloadedInTheConsoleLoadsStraightToTheReview(t *testing.T) {
	browsertest.SkipShort(t)
	want := map[lang.Tag]struct{ file, amount, currency string }{
		lang.English: {"transfers-template.xlsx", "Amount *", "Currency *"},
		lang.German:  {"transfers-vorlage.xlsx", "Betrag *", "Währung *"},
		lang.French:  {"transfers-modele.xlsx", "Montant *", "Devise *"},
	}
	base := startServe(t, "-sandbox").URL
	for _, l := range lang.All {
		t.Run(l.Name(), func(t *testing.T) {
			w := want[l]
			b := browsertest.New(t)
			b.Do(10*time.Second, chromedp.EmulateViewport(1024, 768))
			downloads := b.AllowDownloads()
			b.Do(30*time.Second, chromedp.Navigate(base))
			waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)
			browsertest.Eval[bool](b, 5*time.Second, `(localStorage.setItem("bulkdesk-lang", `+browsertest.JSString(string(l))+`), true)`)
			b.Do(30*time.Second, chromedp.Navigate(base))
			waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive)

			// The time zone chosen in Settings goes into the template, which
			// then reads its dates in it wherever it is loaded: here, once
			// the setting is gone.
			browsertest.Eval[bool](b, 5*time.Second, `(localStorage.setItem("bulkdesk-time-zone", "Europe/Berlin"), true)`)
			b.Do(10*time.Second, browsertest.Pick("kind", "transfers"))
			waitShowing(t, b, 10*time.Second, "the template's button", `document.getElementById("download-template") !== null`)
			b.Do(5*time.Second, browsertest.Press("#download-template"))
			data := b.Downloaded(60*time.Second, downloads, w.file)
			browsertest.Eval[bool](b, 5*time.Second, `(localStorage.removeItem("bulkdesk-time-zone"), true)`)
			waitShowing(t, b, 10*time.Second, "the download's note", `document.getElementById("template-note")?.textContent.includes(`+browsertest.JSString(w.file)+`)`)
			b.AssertAccessible("the Import page with a template downloaded (" + l.Name() + ")")
			b.Shoot("template-" + string(l) + "-choose.png")

			filled := fillTemplate(t, data, l, w.amount, w.currency)
			file := browsertest.WriteFile(t, w.file, filled)
			b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
			if q := browsertest.Eval[int](b, 5*time.Second, `document.querySelectorAll(".reading-question").length`); q != 0 {
				t.Errorf("%d questions about the reading", q)
			}
			if got := text(b, "main"); !strings.Contains(got, "Europe/Berlin") {
				t.Errorf("the review does not say the dates are read in Europe/Berlin:\n%s", got)
			}
			if got := text(b, "#count-elements"); got != "12" {
				t.Errorf("the element count reads %q, want 12", got)
			}
			// 1,000.50 + 1,001.50 + … + 1,011.50
			total := "EUR " + money.FormatWith(1_207_200, 2, l.Separators())
			if got := text(b, "#totals tbody tr:first-child td.amount"); got != total {
				t.Errorf("the EUR total reads %q, want %q", got, total)
			}
			b.Shoot("template-" + string(l) + "-review.png")
			b.AssertNoErrors()
		})
	}
}

// fillTemplate fills a downloaded transfers template with 12 rows, as an
// operator types them in a spreadsheet: the columns found by their
// headers, amounts with their decimals, the choices in the template's
// words.
func fillTemplate(t *testing.T, data []byte, l lang.Tag, amountHeader, currencyHeader string) []byte {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet := f.GetSheetName(0)
	rows, err := f.GetRows(sheet)
	if err != nil || len(rows) != 1 {
		t.Fatalf("the data sheet holds %d rows: %v", len(rows), err)
	}
	col := map[string]string{}
	for i, h := range rows[0] {
		name, _ := excelize.ColumnNumberToName(i + 1)
		col[h] = name
	}
	if col[amountHeader] == "" || col[currencyHeader] == "" {
		t.Fatalf("the headers are %q, without %q and %q", rows[0], amountHeader, currencyHeader)
	}
	for _, h := range rows[0] {
		if strings.Contains(h, ".") {
			t.Errorf("a header is a field's path: %q", h)
		}
	}
	k, _ := schema.Lookup("transfers")
	words := ingest.TemplateWords(ingest.TemplateColumns(k, schema.Default().Fields(k)), l)
	for i := range 12 {
		n := i + 2
		set := func(header string, v any) {
			cell := fmt.Sprintf("%s%d", col[header], n)
			var err error
			if x, ok := v.(float64); ok {
				err = f.SetCellFloat(sheet, cell, x, -1, 64)
			} else {
				err = f.SetCellValue(sheet, cell, v)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		set(words[0], "110321")
		set(words[2], fmt.Sprint(1001+i))
		set(words[3], ingest.ChoiceWords("managed_accounts", l))
		set(words[5], fmt.Sprint(2001+i))
		set(words[6], ingest.ChoiceWords("managed_cards", l))
		set(currencyHeader, "EUR")
		set(amountHeader, 1000.5+float64(i))
		set(words[9], 46553.375) // 15.06.2027 09:00, a date cell of the column's format
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
