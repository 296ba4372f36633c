//go:build !js

package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/chromedp/chromedp"
)

// timedEvents is EMBEDDING.md's page noting when each event of the console
// arrives, in milliseconds since the page's navigation began.
var timedEvents = strings.NewReplacer("onEvent: (event) => window.events.push(event),",
	"onEvent: (event) => window.events.push({type: event.type, at: performance.now(), elements: event.elements}),")

// BenchmarkConsoleInAPortal is a portal's page opening the console with
// embed.js, as a portal team's users meet it: from the page's navigation
// to the console's ready, in a fresh browser profile (ms-ready-cold) and
// on the page's next visit (ms-ready-repeat); and from handing it a
// CSV of 1,000 transfers to the page hearing validated
// (ms-validated, in the fresh profile, where no reading is remembered).
func BenchmarkConsoleInAPortal(b *testing.B) {
	var consoleBase string
	host := hostServer(b, htmlPage(func(*http.Request) string {
		return timedEvents.Replace(strings.NewReplacer("{{console}}", consoleBase, "{{token}}", sandbox.DefaultToken).Replace(portalPage))
	}))
	consoleBase = startServe(b, "-sandbox", "-frame-ancestors", host.URL).URL
	// Its headers are the API's field paths and its amounts in cents, as
	// the API takes them: read without a question.
	var csv strings.Builder
	csv.WriteString("profileId;source.type;source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount")
	for i := range 1000 {
		fmt.Fprintf(&csv, "\n110321;managed_accounts;%d;managed_cards;%d;EUR;%d", 1000+i%97, 2000+i, 1000+i)
	}
	at := func(br *browsertest.Browser, typ string) float64 {
		br.WaitFor(2*time.Minute, "the console's "+typ, `window.events.some(e => e.type === "`+typ+`")`)
		return browsertest.Eval[float64](br, 5*time.Second, `window.events.find(e => e.type === "`+typ+`").at`)
	}
	var cold, repeat, validated []float64
	for range b.N {
		for range benchTrials {
			br := browsertest.New(b)
			br.Do(30*time.Second, chromedp.Navigate(host.URL+"/payroll"))
			cold = append(cold, at(br, "ready"))
			start := browsertest.Eval[float64](br, 5*time.Second, `(window.bulkdesk.sendFile(new File([`+browsertest.JSString(csv.String())+`], "Löhne.csv")), performance.now())`)
			// A reading to confirm would be the operator's time, not the
			// console's: the file must go straight to its review.
			br.WaitForIn(2*time.Minute, consoleBase, "the reading step or the review", `document.getElementById("read") !== null || `+browsertest.ReviewShown)
			if browsertest.EvalIn[bool](br, consoleBase, 5*time.Second, `document.getElementById("read") !== null`) {
				b.Fatalf("the file stopped at its reading: %s", browsertest.EvalIn[string](br, consoleBase, 5*time.Second, `document.getElementById("read").innerText`))
			}
			validated = append(validated, at(br, "validated")-start)
			if n := browsertest.Eval[int](br, 5*time.Second, `window.events.find(e => e.type === "validated").elements`); n != 1000 {
				b.Fatalf("validated %d elements, want 1000", n)
			}
			br.Do(30*time.Second, chromedp.Navigate(host.URL+"/payroll"))
			repeat = append(repeat, at(br, "ready"))
		}
	}
	b.ReportMetric(browsertest.Median(cold), "ms-ready-cold")
	b.ReportMetric(browsertest.Median(repeat), "ms-ready-repeat")
	b.ReportMetric(browsertest.Median(validated), "ms-validated")
	b.ReportMetric(0, "ns/op")
}
