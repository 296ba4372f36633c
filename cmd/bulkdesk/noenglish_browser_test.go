//go:build !js

package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang/langtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// A problemFile is an operator's list of transfers in their language
// that goes wrong in every way a list does: amounts that cannot be read,
// are negative, have too many decimals or are far above the others;
// currencies in lower case, unknown or missing; an account that is not
// digits, a missing one; references the contract refuses; dates that
// disagree on their order, do not exist, lie in the past or are words; a
// row repeated; a row with values only in a column not imported; a total
// under the data.
type problemFile struct {
	lang, name string
	header     []string
	rows       [][]string
	zone       string
}

var problemFiles = []problemFile{
	{lang: "de", name: "Überweisungen mit Fehlern.csv", zone: "Europe/Berlin",
		header: []string{"Auftraggeberkonto", "Empfängerkonto", "Betrag", "Währung", "Verwendungszweck", "Ausführungsdatum", "Notiz"},
		rows: [][]string{
			{"1100000001", "1100000002", "1.234,56", "EUR", "Miete Dezember 2027", "15/12/2027", ""},
			{"1100000001", "1100000003", "12.500,00", "eur", "Umbuchung Festgeld", "12/15/2027", ""},
			{"1100000001", "1100000004", "abc", "EUR", "Gehälter Dezember 2027", "30/12/2027", ""},
			{"1100000001", "1100000005", "-5,00", "EUR", "Erstattung", "31/02/2027", ""},
			{"1100000001", "1100000006", "0,001", "XYZ", "Rundung", "01/01/2020", ""},
			{"ABC", "", "2.500,00", "", "Rücklage", "morgen", ""},
			{"1100000001", "1100000007", "999.999.999,00", "EUR", "Großauftrag", "20/12/2027", ""},
			{"1100000001", "1100000002", "1.234,56", "EUR", "Miete Dezember 2027", "15/12/2027", ""},
			{"", "", "", "", "", "", "nur eine Notiz"},
			{"", "", "1.000.001.255,56", "", "Summe", "", ""},
		}},
	{lang: "fr", name: "Virements avec erreurs.csv", zone: "Europe/Paris",
		header: []string{"Compte source", "Compte destinataire", "Montant", "Devise", "Libellé", "Date d'exécution", "Remarque"},
		rows: [][]string{
			{"2200000001", "2200000002", "1 234,56", "EUR", "Loyer décembre 2027", "15/12/2027", ""},
			{"2200000001", "2200000003", "12 500,00", "eur", "Avance fournisseur", "12/15/2027", ""},
			{"2200000001", "2200000004", "abc", "EUR", "Salaires décembre", "30/12/2027", ""},
			{"2200000001", "2200000005", "-5,00", "EUR", "Remboursement", "31/02/2027", ""},
			{"2200000001", "2200000006", "0,001", "XYZ", "Arrondi", "01/01/2020", ""},
			{"ABC", "", "2 500,00", "", "Provision", "demain", ""},
			{"2200000001", "2200000007", "999 999 999,00", "EUR", "Grosse commande", "20/12/2027", ""},
			{"2200000001", "2200000002", "1 234,56", "EUR", "Loyer décembre 2027", "15/12/2027", ""},
			{"", "", "", "", "", "", "juste une remarque"},
			{"", "", "1 000 001 255,56", "", "Total", "", ""},
		}},
}

func (f problemFile) csv() []byte {
	var b strings.Builder
	b.WriteString(strings.Join(f.header, ";") + "\r\n")
	for _, r := range f.rows {
		b.WriteString(strings.Join(r, ";") + "\r\n")
	}
	return []byte(b.String())
}

// words are the file's own: its name, headers and cells, which the
// console quotes as they are.
func (f problemFile) words() []string {
	out := append([]string{f.name, f.zone}, f.header...)
	for _, r := range f.rows {
		out = append(out, r...)
	}
	return out
}

// TestAFileFullOfProblemsSpeaksNoEnglish takes a German and a French
// operator's file that goes wrong in every way through the import's
// steps, in a tab of 1024×768, first dropping a file that is no
// workbook: every step's text, and what its controls say to screen
// readers, is in the operator's language, with numbers and dates as it
// writes them and no escape codes. Each step is shot for a person to
// look at (BULKDESK_SCREENSHOTS keeps the pictures).
func TestAFileFullOfProblemsSpeaksNoEnglish(t *testing.T) {
	browsertest.SkipShort(t)
	for _, f := range problemFiles {
		t.Run(f.lang, func(t *testing.T) { speakNoEnglish(t, f) })
	}
}

func speakNoEnglish(t *testing.T, f problemFile) {
	serve := startServe(t, "-sandbox")
	// The browser speaks the operator's language too, as theirs does:
	// its own controls (a file input's button) are then in it.
	b := browsertest.New(t, chromedp.Flag("lang", f.lang), chromedp.Flag("accept-lang", f.lang))
	b.Do(10*time.Second, chromedp.EmulateViewport(1024, 768))
	b.Do(30*time.Second, chromedp.Navigate(serve.URL))
	waitShowing(t, b, 60*time.Second, "the console to start", browsertest.Interactive+` && document.documentElement.lang === `+browsertest.JSString(f.lang))
	idle := `document.documentElement.dataset.jobsInFlight === "0" && document.querySelector("#status.status-busy") === null`
	shots := 0
	// look shoots the step with the element selector finds at the top,
	// then reads the page's words: the text of the main content and the
	// status line, and what titles, labels and placeholders say.
	look := func(selector, step string) {
		t.Helper()
		browsertest.Eval[bool](b, 5*time.Second, `(document.querySelector(`+browsertest.JSString(selector)+`)?.scrollIntoView({block: "start"}), true)`)
		shots++
		b.Shoot(fmt.Sprintf("noenglish-%s-%02d-%s.png", f.lang, shots, step))
		said := browsertest.Eval[[]string](b, 10*time.Second, `(() => {
  const out = [];
  for (const el of [document.querySelector("main"), document.getElementById("status")]) {
    if (el) out.push(...el.innerText.split("\n"));
  }
  for (const el of document.querySelectorAll("main [title], main [aria-label], main [placeholder], main [aria-description]")) {
    for (const a of ["title", "aria-label", "placeholder", "aria-description"]) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  }
  return out.filter(s => s.trim() !== "");
})()`)
		// A menu's entries show how a file may write its numbers
		// ("Punkt: 1,234.56"): the file's notation, not the console's.
		notations := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("main option")].map(o => o.textContent)`)
		for _, line := range append(said, notations...) {
			if words := langtest.English(line, f.words()...); len(words) > 0 {
				t.Errorf("%s: English %q in %q", step, words, line)
			}
			if bad := langtest.NotWritten(line, f.lang); bad != "" && !slices.ContainsFunc(notations, func(n string) bool { return strings.Contains(line, n) }) {
				t.Errorf("%s: %q is not written as %s writes it, in %q", step, bad, f.lang, line)
			}
		}
	}

	look("main", "import")
	// A workbook that is none, read as transfers: refused, in words.
	broken := browsertest.WriteFile(t, "Kaputt.xlsx", append([]byte("PK\x03\x04"), bytes.Repeat([]byte{0xff}, 200)...))
	b.Do(10*time.Second, browsertest.Pick("kind", "transfers"), browsertest.DropFiles(".drop-zone", broken))
	waitShowing(t, b, 60*time.Second, "the broken file refused", `document.querySelector("main .error, main .callout-error, main [role=alert]") !== null && `+idle)
	look("main", "not-a-workbook")

	// The list, dropped without a kind: its headers suggest one.
	file := browsertest.WriteFile(t, f.name, f.csv())
	b.Do(10*time.Second, browsertest.Pick("kind", ""), browsertest.DropFiles(".drop-zone", file))
	waitShowing(t, b, 60*time.Second, "the reading step", `document.getElementById("read") !== null && `+idle)
	look("main", "suggested")
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("confirm-kind") !== null`) {
		b.Do(5*time.Second, browsertest.Press("#confirm-kind"))
		waitShowing(t, b, 30*time.Second, "the kind confirmed", `document.getElementById("confirm-kind") === null && `+idle)
	}
	look("#read", "columns")
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("missing-fields") !== null`) {
		look("#missing-fields", "missing")
	}
	// The profile for every row; the accounts' types are left missing.
	if id := browsertest.Eval[string](b, 5*time.Second, `document.querySelector('#set-values [data-field="profileId"]')?.id ?? ""`); id != "" {
		b.Do(5*time.Second, browsertest.Pick(id, "110321"))
		waitShowing(t, b, 30*time.Second, "the profile set", idle)
	}

	// The questions the file leaves: each is looked at, then answered
	// with its first choice (or the operator's time zone).
	for range 5 {
		q := browsertest.Eval[string](b, 5*time.Second, `document.querySelector(".reading-question")?.id ?? ""`)
		if q == "" {
			break
		}
		look("#"+q, strings.TrimPrefix(q, "question-"))
		if q == "question-timeZone" {
			b.Do(5*time.Second, browsertest.Pick("question-time-zone", f.zone))
		} else {
			b.Do(5*time.Second, browsertest.Press("#"+q+" .reading-choices button"))
		}
		waitShowing(t, b, 30*time.Second, q+" answered", `document.getElementById(`+browsertest.JSString(q)+`) === null && `+idle)
	}
	look("#examples", "read")

	b.Do(5*time.Second, browsertest.Press("#validate"))
	waitShowing(t, b, 60*time.Second, "the review", browsertest.ReviewShown)
	look("#result", "review")
	look("#problems", "problems")
	waitShowing(t, b, 10*time.Second, "the table's rows", `document.querySelectorAll("#grid tbody tr[aria-rowindex]").length > 0`)
	look(".grid-box", "grid")
	if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("submit-file") !== null && !document.getElementById("submit-file").disabled`) {
		b.Do(5*time.Second, browsertest.Press("#submit-file"))
		waitShowing(t, b, 60*time.Second, "the confirmation", `document.querySelector('#submission[data-step="confirm"]') !== null`)
		look("#submission", "confirm")
		if browsertest.Eval[bool](b, 5*time.Second, `document.getElementById("warnings-to-accept") !== null`) {
			look("#warnings-to-accept", "warnings")
		}
	}
	b.AssertNoErrors()
}
