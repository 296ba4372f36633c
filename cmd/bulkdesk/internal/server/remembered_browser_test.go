//go:build !js

package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// bankExport is a German bank's CSV export as Windows-1252 with
// semicolons and amounts as German writes them, one transfer per row.
func bankExport(t *testing.T, name string, rows ...string) string {
	t.Helper()
	text := "Profil-ID;Auftraggeberkonto;Kontotyp Auftraggeber;Empfängerkonto;Kontotyp Empfänger;Betrag;Währung;Verwendungszweck;Kostenstelle\n" +
		strings.Join(rows, "\n") + "\n"
	var b []byte
	for _, r := range text {
		if r > 0xff {
			t.Fatalf("%q is not in Windows-1252's Latin-1 part", r)
		}
		b = append(b, byte(r))
	}
	return browsertest.WriteFile(t, name, b)
}

// columnFields are the field each column of the mapping step fills, in
// column order.
const columnFields = `[...document.querySelectorAll("#read select[id^='map-']")].map(s => s.selectedIndex === 0 ? "" : s.value).join("|")`

// rememberedText is what the notice of a remembered reading says.
const rememberedText = `(document.getElementById("remembered-text")?.textContent ?? "")`

// costCentre is the menu of the Kostenstelle column.
const costCentre = `document.querySelector("#read select[aria-label*='Kostenstelle']")`

func TestConsoleReadsAFileWithTheSameHeadersAsLastTime(t *testing.T) {
	browsertest.NeedAxe(t)
	shots := os.Getenv(browsertest.ScreenshotEnv) != ""
	first := bankExport(t, "umsatz-november.csv",
		"110321;1001;managed_accounts;2001;managed_cards;1.234,56;EUR;Miete Dezember;KST-100",
		"110321;1001;managed_accounts;2002;managed_cards;250,00;EUR;Strom;KST-200")
	second := bankExport(t, "umsatz-dezember.csv",
		"110321;1002;managed_accounts;2003;managed_cards;99,90;EUR;Wasser;KST-300",
		"110321;1002;managed_accounts;2004;managed_cards;2.000,00;EUR;Gehalt;KST-100",
		"110321;1001;managed_accounts;2005;managed_cards;12,00;EUR;Porto;KST-200")
	srv := startConsole(t, "/")
	b := browsertest.New(t)
	b.Do(30*time.Second, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	speak := func(l string) {
		t.Helper()
		browsertest.Eval[bool](b, 5*time.Second, `(localStorage.setItem("bulkdesk-lang", "`+l+`"), true)`)
		b.Do(30*time.Second, chromedp.Reload())
		b.WaitFor(30*time.Second, "the console in "+l, browsertest.Interactive+` && document.documentElement.lang === "`+l+`"`)
		b.WaitFor(30*time.Second, "the worker to answer", `document.documentElement.dataset.jobsInFlight === "0"`)
	}
	load := func(file string) {
		t.Helper()
		b.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
		b.WaitFor(30*time.Second, "the reading step of "+file, `document.getElementById("step-title")?.textContent.includes(`+browsertest.JSString(filepath.Base(file))+`) && document.querySelector("#status.status-busy") === null && `+costCentre+` !== null`)
	}
	speak("de")

	// The operator's first file: read automatically, then the operator
	// maps the cost centre to the tag and validates.
	load(first)
	auto := browsertest.Eval[string](b, 5*time.Second, columnFields)
	if browsertest.Eval[string](b, 5*time.Second, rememberedText) != "" {
		t.Fatal("a fresh profile recalls a reading")
	}
	b.Do(5*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const s = `+costCentre+`; s.value = "tag"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`))
	b.WaitFor(10*time.Second, "the choice to apply", costCentre+`.closest("tr").querySelector("[id$='-status']").textContent === "Ausgewählt"`)
	chosen := browsertest.Eval[string](b, 5*time.Second, columnFields)
	if chosen == auto {
		t.Fatalf("the choice changed nothing: %s", chosen)
	}
	b.Do(5*time.Second, browsertest.Press("#validate"))
	b.WaitFor(30*time.Second, "the review", browsertest.ReviewShown)
	b.WaitFor(10*time.Second, "the reading to be remembered", rememberedText+`.startsWith("Gespeichert: Die nächste Datei mit diesen Spaltenköpfen")`)
	if shots {
		b.ShootElement("main", "remembered-de-saved.png")
	}

	// The next month's export has the same headers: it is read as last
	// time, and says so.
	load(second)
	b.WaitFor(10*time.Second, "the remembered reading", rememberedText+`.startsWith("Wie beim letzten Mal für diese Spaltenköpfe gelesen:")`)
	if got := browsertest.Eval[string](b, 5*time.Second, columnFields); got != chosen {
		t.Errorf("read as last time, the columns fill\n%s\nwant\n%s", got, chosen)
	}
	if said := browsertest.Eval[string](b, 5*time.Second, `document.getElementById("announcer").textContent`); !strings.Contains(said, "Wie beim letzten Mal") {
		t.Errorf("the live region says %q", said)
	}
	if shots {
		b.ShootElement("main", "remembered-de-applied.png")
	}

	// One click goes back to the automatic reading.
	b.Do(5*time.Second, browsertest.Press("#remembered-toggle"))
	b.WaitFor(30*time.Second, "the automatic reading", rememberedText+`.startsWith("Automatisch gelesen") && document.querySelector("#status.status-busy") === null`)
	if got := browsertest.Eval[string](b, 5*time.Second, columnFields); got != auto {
		t.Errorf("undone, the columns fill\n%s\nwant the automatic\n%s", got, auto)
	}
	if shots {
		b.ShootElement("main", "remembered-de-undone.png")
	}
	b.AssertAccessible("the remembered reading undone")

	// A reload keeps the memory: the next file is read as last time, in
	// every language.
	for _, l := range []string{"fr", "en"} {
		speak(l)
		load(bankExport(t, "umsatz-januar-"+l+".csv", "110321;1003;managed_accounts;2006;managed_cards;7,00;EUR;Porto;KST-300"))
		b.WaitFor(10*time.Second, "the remembered reading in "+l, rememberedText+` !== "" && !`+rememberedText+`.startsWith("Wie")`)
		if got := browsertest.Eval[string](b, 5*time.Second, columnFields); got != chosen {
			t.Errorf("%s, after a reload: the columns fill\n%s\nwant\n%s", l, got, chosen)
		}
		if shots {
			b.ShootElement("main", fmt.Sprintf("remembered-%s-applied.png", l))
		}
	}
	b.AssertAccessible("a remembered reading")
	b.AssertNoErrors()

	// A fresh profile remembers nothing.
	fresh := browsertest.New(t)
	fresh.Do(30*time.Second, chromedp.EmulateViewport(1024, 768), chromedp.Navigate(srv.URL))
	fresh.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	fresh.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{second}))
	fresh.WaitFor(30*time.Second, "the reading step", `document.getElementById("read") !== null && document.querySelector("#status.status-busy") === null && `+costCentre+` !== null`)
	if got := browsertest.Eval[string](fresh, 5*time.Second, rememberedText); got != "" {
		t.Errorf("a fresh profile says %q", got)
	}
	if got := browsertest.Eval[string](fresh, 5*time.Second, columnFields); got != auto {
		t.Errorf("a fresh profile reads the columns as\n%s\nwant the automatic\n%s", got, auto)
	}
	fresh.AssertNoErrors()
}
