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
// (ms-render); and to every element in the grid, its first rows drawn
// (ms-grid). The look-up of the same elements in other bulks follows
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
	var review, read, validate, render, grid, repeats []float64
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
			waitShowing(b, br, 2*time.Minute, "the grid", gridShown)
			if got := text(br, "#review-shown"); got != "All 10,000 elements shown" {
				b.Fatalf("the grid says %q", got)
			}
			waitShowing(b, br, 2*time.Minute, "the look-up of repeats", `document.querySelector("#review-repeats[data-count]") !== null`)
			gap := func(from, to string) float64 {
				return browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:"+from, "bulkdesk:"+to))
			}
			review = append(review, gap("review-start", "review-shown"))
			read = append(read, gap("review-start", "review-read"))
			validate = append(validate, gap("review-read", "review-received"))
			render = append(render, gap("review-received", "review-shown"))
			grid = append(grid, gap("review-start", "table-shown"))
			repeats = append(repeats, gap("review-checking", "review-repeats-shown"))
		}
	}
	b.ReportMetric(browsertest.Median(review), "ms-review")
	b.ReportMetric(browsertest.Median(read), "ms-read")
	b.ReportMetric(browsertest.Median(validate), "ms-validate")
	b.ReportMetric(browsertest.Median(render), "ms-render")
	b.ReportMetric(browsertest.Median(grid), "ms-grid")
	b.ReportMetric(browsertest.Median(repeats), "ms-repeats")
	b.ReportMetric(0, "ns/op")
}

// gridShown is true once the review's grid has drawn its first rows.
const gridShown = `document.querySelector("#grid td[data-pos]") !== null && performance.getEntriesByName("bulkdesk:table-shown").length > 0`

// BenchmarkConsoleReview10kServerReceipt is the same review under
// "serve -four-eyes", the bulk submitted by another operator through the
// server: from "Review the bulk" to every element in the grid (ms-grid),
// then to the verdict of its comparison with the receipt the server kept
// (ms-verdict), which reads that receipt (some 3 MB for 10,000 transfers
// drawn on as many accounts) after the grid is shown.
func BenchmarkConsoleReview10kServerReceipt(b *testing.B) {
	srv := startServe(b, "-sandbox", "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", b.TempDir())
	maker, checker := portalFor(b, srv.URL, "alice"), portalFor(b, srv.URL, "bob")
	k, _ := schema.Lookup("transfers")
	bulk, err := sandboxClient(b, maker).WithFileName("transfers.json").Submit(context.Background(), k, fixture.Transfers(10000), "")
	if err != nil {
		b.Fatal(err)
	}
	br := browsertest.New(b)
	br.Do(30*time.Second, chromedp.Navigate(checker))
	waitShowing(b, br, 60*time.Second, "the console to start", browsertest.Interactive)
	var grid, verdict []float64
	for range b.N {
		for range benchTrials {
			br.Do(30*time.Second, chromedp.Navigate(checker+"bulk?id="+bulk.BulkID))
			waitShowing(b, br, 60*time.Second, "the review section", `document.getElementById("run-review") !== null`)
			waitShowing(b, br, 2*time.Minute, "the worker to warm up", `performance.getEntriesByName("bulkdesk:worker-warm").length > 0`)
			br.Do(5*time.Second, browsertest.Press("#run-review"))
			waitShowing(b, br, 2*time.Minute, "the grid", gridShown)
			waitShowing(b, br, 2*time.Minute, "the verdict", `document.querySelector('#review-verdict[data-match="true"]') !== null`)
			gap := func(from, to string) float64 {
				return browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:"+from, "bulkdesk:"+to))
			}
			grid = append(grid, gap("review-start", "table-shown"))
			verdict = append(verdict, gap("review-start", "review-server-compared"))
		}
	}
	b.ReportMetric(browsertest.Median(grid), "ms-grid")
	b.ReportMetric(browsertest.Median(verdict), "ms-verdict")
	b.ReportMetric(0, "ns/op")
}
