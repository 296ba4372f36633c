//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/ui/help"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestTheHelpPageGuidesInEveryLanguage opens Help from the navigation in
// English, German and French: the page shows the guide in the console's
// language, every section under a heading of its own with the guide's
// title and id, in the guide's order, a table of contents whose links
// lead to them (the keyboard's focus moves to the heading, the address
// names the section), and axe-core finds nothing to fault.
func TestTheHelpPageGuidesInEveryLanguage(t *testing.T) {
	browsertest.NeedAxe(t)
	base := startServe(t, "-sandbox").URL
	for _, l := range lang.All {
		t.Run(l.Name(), func(t *testing.T) {
			g, err := help.For(l)
			if err != nil {
				t.Fatal(err)
			}
			b := consoleIn(t, base, string(l))
			nav := `nav.nav a[href="/help"]`
			if got, want := text(b, nav), l.T("Help"); got != want {
				t.Fatalf("the navigation's link to Help reads %q, want %q", got, want)
			}
			b.Do(10*time.Second, chromedp.Focus(chromedp.CSS(nav)), chromedp.KeyEvent(kb.Enter))
			waitShowing(t, b, 30*time.Second, "the Help page", browsertest.Interactive+` && document.querySelector("#help section h2") !== null`)
			if got := browsertest.Eval[string](b, 5*time.Second, `document.documentElement.lang`); got != string(l) {
				t.Errorf("the page says it is in %q", got)
			}
			if got := browsertest.Eval[string](b, 5*time.Second, `document.querySelector(`+browsertest.JSString(nav)+`).getAttribute("aria-current")`); got != "page" {
				t.Errorf("the navigation marks Help as %q, not the current page", got)
			}
			if got, want := text(b, "#page-title"), l.T("Help"); got != want {
				t.Errorf("the page is headed %q, want %q", got, want)
			}

			var want, headings, contents []string
			for _, s := range g.Sections {
				want = append(want, s.ID+" "+s.Title)
			}
			readJSON(t, browsertest.Eval[string](b, 5*time.Second, `JSON.stringify([...document.querySelectorAll("#help section > h2")].map(h => h.id + " " + h.textContent))`), &headings)
			readJSON(t, browsertest.Eval[string](b, 5*time.Second, `JSON.stringify([...document.querySelectorAll("#help-contents a")].map(a => a.getAttribute("href").slice(1) + " " + a.textContent))`), &contents)
			if !slices.Equal(headings, want) {
				t.Errorf("the sections are headed\n%q\nwant\n%q", headings, want)
			}
			if !slices.Equal(contents, want) {
				t.Errorf("the table of contents lists\n%q\nwant\n%q", contents, want)
			}

			if l != lang.English {
				b.Shoot(fmt.Sprintf("help-%s-contents.png", l))
			}
			if n := browsertest.Eval[int](b, 5*time.Second, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); n > 0 {
				t.Errorf("the Help page overflows a 1024-pixel window by %d px", n)
			}

			// The contents' link to the four eyes, followed from the keyboard.
			b.Do(10*time.Second, chromedp.Focus(chromedp.CSS(`#help-contents a[href="#four-eyes"]`)), chromedp.KeyEvent(kb.Enter))
			waitShowing(t, b, 10*time.Second, "the focus on the four eyes' heading", `document.activeElement?.id === "four-eyes"`)
			if got := browsertest.Eval[string](b, 5*time.Second, `location.pathname + location.hash`); got != "/help#four-eyes" {
				t.Errorf("the address reads %q after the link to the four eyes", got)
			}
			if top := browsertest.Eval[float64](b, 5*time.Second, `document.getElementById("four-eyes").getBoundingClientRect().top`); top < 0 || top > 50 {
				t.Errorf("the four eyes' heading is %v px from the window's top after its link", top)
			}

			if l != lang.English {
				b.Shoot(fmt.Sprintf("help-%s-four-eyes.png", l))
			}
			b.AssertAccessible("the Help page (" + l.Name() + ")")
			if os.Getenv(browsertest.ScreenshotEnv) != "" {
				b.ShootElement("body", fmt.Sprintf("help-%s.png", l))
			}
			b.AssertNoErrors()
		})
	}
}

func readJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("reading %q: %v", s, err)
	}
}
