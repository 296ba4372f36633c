//go:build !js

package server_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/chromedp/chromedp"
)

// The browser benchmarks measure the console in headless Chromium; "make
// bench" runs them once each (-benchtime 1x): every figure is the median of
// trials made inside, 5 unless $BENCH_TRIALS says otherwise.
var trials = func() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_TRIALS")); err == nil && n > 0 {
		return n
	}
	return 5
}()

// Expressions that read the console's performance marks.
var (
	timeToInteractive = browsertest.MarkTime("bulkdesk:interactive")
	fileToTable       = browsertest.MarkGap("bulkdesk:file-chosen", "bulkdesk:table-shown")
	fileToReceived    = browsertest.MarkGap("bulkdesk:file-chosen", "bulkdesk:result-received")
	tableShown        = `performance.getEntriesByName("bulkdesk:table-shown").length > 0`
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
			br.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
			cold = append(cold, browsertest.Eval[float64](br, 5*time.Second, timeToInteractive))
			downloaded = append(downloaded, browsertest.Eval[float64](br, 5*time.Second,
				`performance.getEntriesByType("resource").find(e => e.name.endsWith(".wasm")).responseEnd`))
			instantiated = append(instantiated, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkTime("wasm:instantiated")))
			goMain = append(goMain, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkTime("bulkdesk:main")))
			waitForOfflineCache(b, br, srv)
			br.Do(30*time.Second, chromedp.Navigate(srv.URL+"bulks"), chromedp.Navigate(srv.URL))
			br.WaitFor(30*time.Second, "the console to start again", browsertest.Interactive)
			repeat = append(repeat, browsertest.Eval[float64](br, 5*time.Second, timeToInteractive))
		}
	}
	b.ReportMetric(browsertest.Median(downloaded), "ms-cold-wasm-downloaded")
	b.ReportMetric(browsertest.Median(instantiated), "ms-cold-wasm-instantiated")
	b.ReportMetric(browsertest.Median(goMain), "ms-cold-go-main")
	b.ReportMetric(browsertest.Median(cold), "ms-cold")
	b.ReportMetric(browsertest.Median(repeat), "ms-repeat")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkConsoleReview reports, for files of transfers as xlsx, CSV and
// JSON of 1,000, 10,000 and 100,000 rows: the time from the file chosen to
// the review table shown, the longest task on the page's main thread
// meanwhile (Long Tasks API), and the memory the page's and the worker's
// programs hold then (WebAssembly memory only grows: it is their peak).
// Each trial opens the console afresh, so the file is the first of the
// page, chosen once the worker has warmed up, as it has by the time an
// operator has found the file to load.
func BenchmarkConsoleReview(b *testing.B) {
	srv := startConsole(b, "/")
	br := browsertest.New(b)
	for _, format := range []string{"xlsx", "csv", "json"} {
		for _, n := range []int{1000, 10000, 100000} {
			file := writeBenchFile(b, format, n)
			b.Run(fmt.Sprintf("%s/rows=%d", format, n), func(b *testing.B) {
				var took, work, longest, page, worker []float64
				for range b.N {
					for range trials {
						// The console brings back the file it read last
						// as a draft: its data goes between trials, with
						// the page closed, so that each reads its file.
						br.Do(30*time.Second, chromedp.Navigate("about:blank"), clearSiteData(srv.URL), browsertest.Instrument(), chromedp.Navigate(srv.URL))
						br.WaitFor(60*time.Second, "the worker to warm up", workerWarm)
						br.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
						br.WaitFor(5*time.Minute, "the review table", tableShown)
						took = append(took, browsertest.Eval[float64](br, 5*time.Second, fileToTable))
						work = append(work, browsertest.Eval[float64](br, 5*time.Second, fileToReceived))
						longest = append(longest, browsertest.Eval[float64](br, 5*time.Second, longestTask))
						mem := browsertest.Eval[map[string]float64](br, 5*time.Second, `performance.getEntriesByName("bulkdesk:table-shown").pop().detail`)
						page, worker = append(page, mem["page"]/1e6), append(worker, mem["worker"]/1e6)
					}
				}
				b.ReportMetric(browsertest.Median(took), "ms-to-table")
				b.ReportMetric(browsertest.Median(work), "ms-in-worker")
				b.ReportMetric(browsertest.Median(longest), "ms-longest-task")
				b.ReportMetric(browsertest.Median(page), "MB-page")
				b.ReportMetric(browsertest.Median(worker), "MB-worker")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkConsoleFirstFileAtOnce is BenchmarkConsoleReview's 10,000-row
// xlsx chosen as soon as the page takes input, before the worker has
// started or warmed up: the worst case for an operator who drops a file
// the moment the console appears.
func BenchmarkConsoleFirstFileAtOnce(b *testing.B) {
	srv := startConsole(b, "/")
	br := browsertest.New(b)
	file := writeBenchFile(b, "xlsx", 10000)
	var took, fromStart []float64
	for range b.N {
		for range trials {
			br.Do(30*time.Second, browsertest.Instrument(), chromedp.Navigate(srv.URL))
			br.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
			br.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
			br.WaitFor(5*time.Minute, "the review table", tableShown)
			took = append(took, browsertest.Eval[float64](br, 5*time.Second, fileToTable))
			fromStart = append(fromStart, browsertest.Eval[float64](br, 5*time.Second, browsertest.MarkTime("bulkdesk:table-shown")))
		}
	}
	b.ReportMetric(browsertest.Median(took), "ms-to-table")
	b.ReportMetric(browsertest.Median(fromStart), "ms-navigation-to-table")
	b.ReportMetric(0, "ns/op")
}

// writeBenchFile writes n valid transfers as a file of the format.
func writeBenchFile(b *testing.B, format string, n int) string {
	b.Helper()
	rows := fixture.Rows.List(n)
	switch format {
	case "xlsx":
		return writeTransfersXLSX(b, fmt.Sprintf("transfers-%d.xlsx", n), rows)
	case "csv":
		return browsertest.WriteFile(b, fmt.Sprintf("transfers-%d.csv", n), fixture.CSV(rows))
	}
	return writeTransfers(b, fmt.Sprintf("transfers-%d.json", n), n)
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
		if !strings.HasSuffix(f.Name, ".wasm") {
			continue
		}
		b.ReportMetric(float64(f.Size)/1e6, f.Name+"-MB")
		b.ReportMetric(float64(f.Gzip)/1e6, f.Name+"-gzip-MB")
		b.ReportMetric(float64(f.Brotli)/1e6, f.Name+"-brotli-MB")
	}
	b.ReportMetric(0, "ns/op")
}
