package server_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/chromedp/chromedp"
)

// The browser benchmarks measure the console in headless Chromium; "make
// bench" runs them once each (-benchtime 1x): every figure is the median of
// trials made inside.
const trials = 5

// Expressions that read the console's performance marks.
var (
	timeToInteractive = browsertest.MarkTime("bulkdesk:interactive")
	fileToResult      = browsertest.MarkGap("bulkdesk:file-chosen", "bulkdesk:result-shown")
	longestTask       = browsertest.LongestTaskSince("bulkdesk:file-chosen")
	workerReady       = `performance.getEntriesByName("bulkdesk:worker-ready").length > 0`
	workerWarm        = `performance.getEntriesByName("bulkdesk:worker-warm").length > 0`
)

// BenchmarkConsoleStartup reports the time from navigation to the console
// taking input, on a first visit (a fresh profile: nothing cached) and on a
// repeat visit (served by the service worker); for the first visit also
// when the page's wasm was downloaded, compiled and instantiated, and when
// Go's main began.
func BenchmarkConsoleStartup(b *testing.B) {
	srv := startConsole(b, "/")
	var cold, downloaded, instantiated, goMain, repeat []float64
	for range b.N {
		for range trials {
			br := browsertest.New(b)
			br.Do(30*time.Second, browsertest.Instrument(), chromedp.Navigate(srv.URL))
			br.WaitFor(30*time.Second, "the console to start", interactive)
			cold = append(cold, browsertest.Eval[float64](br, 5*time.Second, timeToInteractive))
			downloaded = append(downloaded, browsertest.Eval[float64](br, 5*time.Second,
				`performance.getEntriesByType("resource").find(e => e.name.endsWith(".wasm")).responseEnd`))
			instantiated = append(instantiated, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkTime("wasm:instantiated")))
			goMain = append(goMain, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkTime("bulkdesk:main")))
			waitForOfflineCache(b, br, srv)
			br.Do(30*time.Second, chromedp.Navigate(srv.URL+"bulks"), chromedp.Navigate(srv.URL))
			br.WaitFor(30*time.Second, "the console to start again", interactive)
			repeat = append(repeat, browsertest.Eval[float64](br, 5*time.Second, timeToInteractive))
		}
	}
	b.ReportMetric(median(downloaded), "ms-cold-wasm-downloaded")
	b.ReportMetric(median(instantiated), "ms-cold-wasm-instantiated")
	b.ReportMetric(median(goMain), "ms-cold-go-main")
	b.ReportMetric(median(cold), "ms-cold")
	b.ReportMetric(median(repeat), "ms-repeat")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkConsoleValidateJSON reports, for request files of transfers,
// the time from the file chosen to the result shown and the longest task
// on the page's main thread meanwhile (Long Tasks API). Each file is chosen
// once the worker has warmed up, as it has by the time an operator has
// found a file to load.
func BenchmarkConsoleValidateJSON(b *testing.B) {
	srv := startConsole(b, "/")
	br := browsertest.New(b)
	for _, n := range []int{1000, 10000, 100000} {
		file := writeTransfers(b, fmt.Sprintf("transfers-%d.json", n), n, 1, n/2)
		b.Run(fmt.Sprintf("elements=%d", n), func(b *testing.B) {
			var took, longest []float64
			for range b.N {
				for range trials {
					br.Do(30*time.Second, browsertest.Instrument(), chromedp.Navigate(srv.URL))
					br.WaitFor(30*time.Second, "the worker to warm up", workerWarm)
					br.Do(10*time.Second, chooseKind("transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
					br.WaitFor(2*time.Minute, "the validation result", resultShown)
					took = append(took, browsertest.Eval[float64](br, 5*time.Second, fileToResult))
					longest = append(longest, browsertest.Eval[float64](br, 5*time.Second, longestTask))
				}
			}
			b.ReportMetric(median(took), "ms-to-result")
			b.ReportMetric(median(longest), "ms-longest-task")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkConsoleWasmSize reports the size of each WebAssembly file of the
// console as built, raw and compressed as the server sends it.
func BenchmarkConsoleWasmSize(b *testing.B) {
	m, err := console.ReadManifest(console.FS())
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
	}
	for _, f := range m.Files {
		if f.Name != "app.wasm" && f.Name != "worker.wasm" {
			continue
		}
		b.ReportMetric(float64(f.Size)/1e6, f.Name+"-MB")
		b.ReportMetric(float64(f.Gzip)/1e6, f.Name+"-gzip-MB")
		b.ReportMetric(float64(f.Brotli)/1e6, f.Name+"-brotli-MB")
	}
	b.ReportMetric(0, "ns/op")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
