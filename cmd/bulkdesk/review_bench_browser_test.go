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
// its totals shown (ms-review): the operations read back through the server's proxy
// in pages, rebuilt, validated, summed, hashed and checked for repeats
// against the API's record. ms-read is the reading, ms-validate the
// rebuilding, validation, sums and hashes after it, ms-repeats the check
// against the API's record and the answer's way to the page, ms-render
// the page showing it. Each trial opens the bulk's page afresh; the
// first worker is warm, the second starts with the first review of the
// page, as it does for an operator.
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
	var review, read, check, repeats, render []float64
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
			review = append(review, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:review-start", "bulkdesk:review-shown")))
			read = append(read, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:review-start", "bulkdesk:review-read")))
			check = append(check, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:review-read", "bulkdesk:review-checking")))
			repeats = append(repeats, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:review-checking", "bulkdesk:review-received")))
			render = append(render, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:review-received", "bulkdesk:review-shown")))
		}
	}
	b.ReportMetric(browsertest.Median(review), "ms-review")
	b.ReportMetric(browsertest.Median(read), "ms-read")
	b.ReportMetric(browsertest.Median(check), "ms-validate")
	b.ReportMetric(browsertest.Median(repeats), "ms-repeats")
	b.ReportMetric(browsertest.Median(render), "ms-render")
	b.ReportMetric(0, "ns/op")
}
