//go:build !js

package main

import (
	"context"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/chromedp/chromedp"
)

// BenchmarkConsoleReview10k is a checker's review of a submitted bulk of
// 10,000 transfers in "bulkdesk serve -sandbox": from "Review the bulk" to
// its totals shown (ms-review), the operations read back through the
// server's proxy in pages (ms-read), then rebuilt, validated, summed and
// hashed and their answer passed to the page (ms-validate), and shown
// (ms-render). The look-up of the same elements in other bulks follows
// (ms-repeats, to its answer shown). Each trial opens the bulk's page
// afresh; the second worker has started with the page, which reads the
// bulk through it.
func BenchmarkConsoleReview10k(b *testing.B) {
	base := startServe(b, "-sandbox").URL
	k, _ := schema.Lookup("transfers")
	bulk, err := sandboxClient(b, base).Submit(context.Background(), k, fixture.Transfers(10000), "")
	if err != nil {
		b.Fatal(err)
	}
	br := browsertest.New(b)
	br.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(b, br, 60*time.Second, "the console to start", browsertest.Interactive)
	var review, read, validate, render, repeats []float64
	for range b.N {
		for range benchTrials {
			br.Do(30*time.Second, chromedp.Navigate(base+"bulk?id="+bulk.BulkID))
			waitShowing(b, br, 60*time.Second, "the review section", `document.getElementById("run-review") !== null`)
			waitShowing(b, br, 2*time.Minute, "the worker to warm up", `performance.getEntriesByName("bulkdesk:worker-warm").length > 0`)
			br.Do(5*time.Second, browsertest.Press("#run-review"))
			waitShowing(b, br, 2*time.Minute, "the review", `document.querySelector('#review-totals li[data-currency="EUR"]') !== null`)
			if got := text(br, "#review-elements"); got != "10,000" {
				b.Fatalf("the review counts %q elements", got)
			}
			waitShowing(b, br, 2*time.Minute, "the look-up of repeats", `document.querySelector("#review-repeats[data-count]") !== null`)
			gap := func(from, to string) float64 {
				return browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:"+from, "bulkdesk:"+to))
			}
			review = append(review, gap("review-start", "review-shown"))
			read = append(read, gap("review-start", "review-read"))
			validate = append(validate, gap("review-read", "review-received"))
			render = append(render, gap("review-received", "review-shown"))
			repeats = append(repeats, gap("review-checking", "review-repeats-shown"))
		}
	}
	b.ReportMetric(browsertest.Median(review), "ms-review")
	b.ReportMetric(browsertest.Median(read), "ms-read")
	b.ReportMetric(browsertest.Median(validate), "ms-validate")
	b.ReportMetric(browsertest.Median(render), "ms-render")
	b.ReportMetric(browsertest.Median(repeats), "ms-repeats")
	b.ReportMetric(0, "ns/op")
}
