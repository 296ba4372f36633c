//go:build !js

package main

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// benchTrials is how many times a browser benchmark repeats its step; it
// reports the medians. "make bench" runs each once (-benchtime 1x).
const benchTrials = 5

// BenchmarkConsoleSubmit10kTransfers submits 10,000 transfers from the
// browser to "bulkdesk serve -sandbox", through the same-origin proxy: it
// reports the time from the confirmation's Submit to the bulk's receipt
// shown (the body sent, the sandbox validating and storing 10,000
// operations, the journal written before and after), the size of the
// request body, and, before it, the file's validation and the
// confirmation's preparation (chunks, refs, control totals, earlier
// submissions). Each trial is a file of other content: a bulk of its own.
func BenchmarkConsoleSubmit10kTransfers(b *testing.B) {
	base := startServe(b, "-sandbox").URL
	br := browsertest.New(b)
	br.Do(30*time.Second, chromedp.Navigate(base))
	waitShowing(b, br, 60*time.Second, "the console to start", browsertest.Interactive)
	waitShowing(b, br, 2*time.Minute, "the worker to warm up", `performance.getEntriesByName("bulkdesk:worker-warm").length > 0`)
	var validate, prepare, submit []float64
	size := 0
	for range b.N {
		for i := range benchTrials {
			file, _ := writeTransfersFile(b, fmt.Sprintf("bench%d.json", i), 10000)
			loadFile(b, br, "transfers", file)
			validate = append(validate, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:file-chosen", "bulkdesk:result-shown")))
			prepare = append(prepare, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:submit-opened", "bulkdesk:confirm-shown")))
			size, _ = strconv.Atoi(browsertest.Eval[string](br, 5*time.Second, `document.getElementById("confirm-size").dataset.bytes`))
			br.Do(5*time.Second, browsertest.Press("#confirm-submit"))
			waitShowing(b, br, 2*time.Minute, "the submission", `document.querySelector('#submission[data-step="done"]') !== null`)
			submit = append(submit, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkGap("bulkdesk:submit-start", "bulkdesk:submit-done")))
			br.Do(10*time.Second, browsertest.Press(`nav a[href="/"]`))
			waitShowing(b, br, 10*time.Second, "the Import page", `document.getElementById("request-file") !== null`)
		}
	}
	if n := len(mustList(b, sandboxClient(b, base))); n != b.N*benchTrials {
		b.Fatalf("the sandbox holds %d bulks after %d submissions", n, b.N*benchTrials)
	}
	b.ReportMetric(browsertest.Median(submit), "ms-submit")
	b.ReportMetric(float64(size), "request-bytes")
	b.ReportMetric(browsertest.Median(validate), "ms-validate")
	b.ReportMetric(browsertest.Median(prepare), "ms-prepare")
	b.ReportMetric(0, "ns/op")
}
