//go:build !js

package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// jsrefDir holds the reference importer: a page with SheetJS and ajv that
// does what the console does for a transfers file, in plain JavaScript.
// Its libraries come from npm ("npm ci && npm run build" there; make
// bench-browser does it).
const jsrefDir = "testdata/jsref"

// jsrefFiles are the files the reference page loads, by URL path: its
// own, the libraries' browser builds, and the console's schema of a
// transfers element, served as it is in the repository so that both
// validate against the same file.
var jsrefFiles = map[string]string{
	"/":                    jsrefDir + "/index.html",
	"/main.js":             jsrefDir + "/main.js",
	"/build/ajv.bundle.js": jsrefDir + "/build/ajv.bundle.js",
	"/node_modules/xlsx/dist/xlsx.full.min.js": jsrefDir + "/node_modules/xlsx/dist/xlsx.full.min.js",
	"/schema/transfers.json":                   "../../../../schema/json/transfers.json",
}

// needReference skips the benchmark when the reference's libraries have
// not been installed, which is the case of a plain checkout, or fails it
// under CI=true, where a missing install is a broken pipeline.
func needReference(tb testing.TB) {
	tb.Helper()
	for _, f := range jsrefFiles {
		if _, err := os.Stat(f); err != nil {
			msg := fmt.Sprintf("the JavaScript reference page is not installed (%v): run \"npm ci && npm run build\" in cmd/bulkdesk/internal/server/%s, as make bench-browser does", err, jsrefDir)
			if os.Getenv("CI") == "true" {
				tb.Fatal(msg)
			}
			tb.Skip(msg)
		}
	}
}

// jsrefFile is one file of the reference page, with the forms the server
// may send: compressed once at start, as the console's files are at build
// time, so that both pages cross the wire the same way.
type jsrefFile struct {
	typ, etag         string
	raw, gzip, brotli []byte
}

// startReference serves the reference page on 127.0.0.1 and returns its
// URL. Every response is revalidated on use (no-cache, with an ETag): a
// repeat visit costs a round of 304s, the way a page without a service
// worker is reloaded.
func startReference(tb testing.TB) string {
	tb.Helper()
	files := make(map[string]*jsrefFile, len(jsrefFiles))
	for p, name := range jsrefFiles {
		raw, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		sum := sha256.Sum256(raw)
		f := &jsrefFile{typ: mime.TypeByExtension(path.Ext(name)), etag: hex.EncodeToString(sum[:10]), raw: raw}
		var gz, br bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // a valid level: no error
		bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
		for _, w := range []interface {
			Write([]byte) (int, error)
			Close() error
		}{zw, bw} {
			if _, err := w.Write(raw); err != nil {
				tb.Fatal(err)
			}
			if err := w.Close(); err != nil {
				tb.Fatal(err)
			}
		}
		f.gzip, f.brotli = gz.Bytes(), br.Bytes()
		files[p] = f
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", f.typ)
		h.Set("Cache-Control", "no-cache")
		h.Set("Vary", "Accept-Encoding")
		body, enc := f.raw, ""
		accept := r.Header.Get("Accept-Encoding")
		switch {
		case strings.Contains(accept, "br"):
			body, enc = f.brotli, "br"
		case strings.Contains(accept, "gzip"):
			body, enc = f.gzip, "gzip"
		}
		etag := `"` + f.etag
		if enc != "" {
			h.Set("Content-Encoding", enc)
			etag += "-" + enc
		}
		h.Set("ETag", etag+`"`)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	tb.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// A benchedPage is one of the two pages compared, with the performance
// marks that time it.
type benchedPage struct {
	name        string
	url         string
	interactive string // the page takes input
	chosen      string // a file was chosen
	shown       string // its table is on the page
	// ready, when set, marks the page's engine (the console's worker)
	// started: the time it takes on a repeat visit against a first one
	// shows whether the browser kept its compiled code.
	ready string
	// settle runs after the first visit, before the repeat one.
	settle func(*browsertest.Browser)
	// check runs when a file's table is shown, to see that the page did
	// the work measured.
	check func(testing.TB, *browsertest.Browser, jsrefCase)
	// phases is a JavaScript expression that splits the last file's time
	// into the phases named.
	phases     string
	phaseNames []string
	// memory, when set, is a JavaScript expression: the memory in bytes
	// the page's worker holds once the table is shown.
	memory string
}

// A jsrefCase is a file of transfers both pages read: its format and rows.
type jsrefCase struct {
	format string
	rows   int
}

// BenchmarkConsoleVersusReference compares the console with a plain
// JavaScript importer of the same files (testdata/jsref: SheetJS, ajv and
// the console's own schema, a summary and a 50-row table): how soon each
// page takes input, on a first visit (a fresh profile) and a repeat one;
// how many bytes it fetched by then; and, for files of transfers as xlsx,
// CSV and JSON of 1,000 and 10,000 rows ($BENCH_JSREF_ROWS, a comma list,
// to change), how long from the file chosen to its table shown and the
// longest main-thread task meanwhile, for the first file of the page
// (chosen a second after it takes input) and for a second one in the same
// tab. Trials alternate between the two pages so that the machine's load
// falls on both alike; each trial starts a fresh Chromium. It reports
// medians, and ratios console / reference (above 1: the console is
// slower or heavier), with the machine's load average at start and end.
//
// It also prints where each file's time went (the console's phases: the
// worker's own figures, wire.Phases, against the page's marks; the
// reference's from its marks), the longest main-thread task of each
// page's load (until a second after it takes input), the console's worker
// memory, each target met or missed, and the WebAssembly events of a
// Chrome trace of the console's first visit after it takes input, of its
// repeat visit (traced on both pages alike) and of a third visit, not
// timed, which say whether V8 took the modules' compiled code from its
// cache.
func BenchmarkConsoleVersusReference(b *testing.B) {
	needReference(b)
	browsertest.Path(b)
	console := startConsole(b, "/")
	pages := []benchedPage{
		{
			name: "bulkdesk", url: console.URL, interactive: "bulkdesk:interactive",
			chosen: "bulkdesk:file-chosen", shown: "bulkdesk:table-shown", ready: "bulkdesk:worker-ready",
			// The console's repeat visit is served by its service worker,
			// once that has cached the console.
			settle: func(br *browsertest.Browser) { waitForOfflineCache(b, br, console) },
			// The other browser benchmarks and tests check its review.
			check:  func(testing.TB, *browsertest.Browser, jsrefCase) {},
			phases: consolePhaseTimes, phaseNames: consolePhases,
			memory: `performance.getEntriesByName("bulkdesk:table-shown").pop().detail.worker`,
		},
		{
			name: "reference", url: startReference(b), interactive: "ref:interactive",
			chosen: "ref:file-chosen", shown: "ref:shown",
			settle: func(*browsertest.Browser) {},
			// Its summary is ready with its table: every row read and
			// valid, as the files are.
			check: func(tb testing.TB, br *browsertest.Browser, c jsrefCase) {
				tb.Helper()
				n := thousands(c.rows)
				want := map[string]string{"count-elements": n, "count-valid": n, "count-invalid": "0", "count-errors": "0"}
				if got := counts(br); !mapsEqual(got, want) {
					tb.Errorf("the reference's summary of %d rows of %s = %v, want %v", c.rows, c.format, got, want)
				}
			},
			phases: referencePhaseTimes, phaseNames: referencePhases,
		},
	}
	var cases []jsrefCase
	for _, format := range []string{"xlsx", "csv", "json"} {
		for _, n := range jsrefRows(b) {
			cases = append(cases, jsrefCase{format, n})
		}
	}
	// Two files per case, so that the second file chosen is another file,
	// as it is for an operator who loads the next one.
	files := make(map[jsrefCase][2]string, len(cases))
	for _, c := range cases {
		first := writeBenchFile(b, c.format, c.rows)
		data, err := os.ReadFile(first)
		if err != nil {
			b.Fatal(err)
		}
		files[c] = [2]string{first, browsertest.WriteFile(b, "second-"+filepath.Base(first), data)}
	}

	results := map[string]map[string][]float64{}
	for _, p := range pages {
		results[p.name] = map[string][]float64{}
	}
	loadBefore := loadAverage()
	wasm := map[wasmEvent]int{}
	for range b.N {
		for range max(trials, 3) {
			for _, p := range pages {
				jsrefTrial(b, p, cases, files, results[p.name], wasm)
			}
		}
	}
	loadAfter := loadAverage()

	measures := []string{"ms-cold", "ms-cold-dom-content-loaded", "ms-repeat", "kB-before-interactive", "ms-engine-ready-cold", "ms-engine-ready-repeat",
		"ms-longest-task-load-cold", "ms-longest-task-load-repeat"}
	var caseNames []string
	for _, c := range cases {
		for _, which := range []string{"first", "second"} {
			name := fmt.Sprintf("%s-%d-%s", c.format, c.rows, which)
			caseNames = append(caseNames, name)
			measures = append(measures, "ms-to-table-"+name, "ms-longest-task-"+name, "MB-worker-"+name)
		}
	}
	b.Logf("load average (1, 5, 15 min): %s at start, %s at end", loadBefore, loadAfter)
	b.Logf("medians of %d trials each; ratio = bulkdesk / reference", len(results["bulkdesk"]["ms-cold"]))
	b.Logf("%-38s %12s %12s %8s", "measure", "bulkdesk", "reference", "ratio")
	for _, m := range measures {
		console, ref := browsertest.Median(results["bulkdesk"][m]), browsertest.Median(results["reference"][m])
		b.ReportMetric(console, m+"-bulkdesk")
		b.ReportMetric(ref, m+"-reference")
		// No ratio to a zero: no long task (none over 50 ms) on the
		// reference's side.
		ratio := "-"
		if ref > 0 {
			ratio = fmt.Sprintf("%.2f", console/ref)
			b.ReportMetric(console/ref, "ratio-"+strings.TrimPrefix(strings.TrimPrefix(m, "ms-"), "kB-"))
		}
		b.Logf("%-38s %12.1f %12.1f %8s", m, console, ref, ratio)
	}
	logPhases(b, caseNames, results)
	logTargets(b, jsrefTargets(cases), measures, results)
	logWasmCache(b, len(results["bulkdesk"]["ms-cold"]), wasm)
	b.ReportMetric(0, "ns/op")
}

// loadAverage returns the machine's load averages over 1, 5 and 15
// minutes (/proc/loadavg), which weigh on every figure.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// jsrefRows returns the file sizes to measure: $BENCH_JSREF_ROWS, or 1,000
// and 10,000 rows.
func jsrefRows(tb testing.TB) []int {
	s := os.Getenv("BENCH_JSREF_ROWS")
	if s == "" {
		return []int{1000, 10000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			tb.Fatalf("BENCH_JSREF_ROWS=%q: want a comma-separated list of row counts", s)
		}
		out = append(out, n)
	}
	return out
}

// jsrefTrial runs one trial of a page in a Chromium of its own, started
// with a fresh profile and stopped at the end, and adds its figures to
// into, by measure.
func jsrefTrial(b *testing.B, p benchedPage, cases []jsrefCase, files map[jsrefCase][2]string, into map[string][]float64, wasm map[wasmEvent]int) {
	b.Helper()
	tb := &trialTB{TB: b}
	defer tb.done()
	br := browsertest.New(tb)
	isInteractive := `performance.getEntriesByName(` + browsertest.JSString(p.interactive) + `).length > 0`
	toTable := shownAfterChosen(p.chosen, p.shown)
	record := func(name, expr string) {
		into[name] = append(into[name], browsertest.Eval[float64](br, 5*time.Second, expr))
	}

	// The operator's second: the file is chosen a second after the page
	// takes input. A timer in the page counts it from the page's own mark;
	// the longest task of the page's load is the longest until then.
	operatorsSecond := func() {
		browsertest.Eval[bool](br, 10*time.Second, `new Promise(ok => setTimeout(() => ok(true),
  Math.max(0, 1000 - (performance.now() - performance.getEntriesByName(`+browsertest.JSString(p.interactive)+`)[0].startTime))))`)
	}

	// First visit: nothing cached.
	br.Do(30*time.Second, browsertest.Instrument(), watchWorkerPhases(), chromedp.Navigate(p.url))
	br.WaitFor(60*time.Second, p.name+" to take input", isInteractive)
	record("ms-cold", browsertest.MarkTime(p.interactive))
	// The document parsed and its deferred scripts run: for the reference
	// page, all but fetching and compiling the schema before it takes
	// input.
	record("ms-cold-dom-content-loaded", `performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd`)
	record("kB-before-interactive", bytesBefore(p.interactive))
	recordReady := func(name string) {
		if p.ready != "" {
			br.WaitFor(60*time.Second, p.name+"'s engine", `performance.getEntriesByName(`+browsertest.JSString(p.ready)+`).length > 0`)
			record(name, browsertest.MarkTime(p.ready))
		}
	}
	recordReady("ms-engine-ready-cold")
	operatorsSecond()
	record("ms-longest-task-load-cold", browsertest.LongestTaskUntil(p.interactive, 1000))
	// Traced, for the compiled code V8 keeps (v8.wasm.cachedModule): not
	// timed.
	if p.ready != "" {
		countWasmEvents("first visit, after input", br.Trace(2*time.Minute, wasmCacheCategories, func() { p.settle(br) }), wasm)
	} else {
		p.settle(br)
	}

	// Repeat visit, same profile, traced on both pages alike: whether V8
	// compiled the console's modules again or took them from its cache.
	repeat := br.Trace(2*time.Minute, wasmCacheCategories, func() {
		br.Do(30*time.Second, chromedp.Navigate("about:blank"), chromedp.Navigate(p.url))
		br.WaitFor(60*time.Second, p.name+" to take input again", isInteractive)
		record("ms-repeat", browsertest.MarkTime(p.interactive))
		recordReady("ms-engine-ready-repeat")
	})
	countWasmEvents("repeat visit", repeat, wasm)
	operatorsSecond()
	record("ms-longest-task-load-repeat", browsertest.LongestTaskUntil(p.interactive, 1000))
	// A third visit, traced, not timed: whether the code cached during
	// the repeat visit (from the service worker's responses) is taken.
	if p.ready != "" {
		countWasmEvents("third visit", br.Trace(2*time.Minute, wasmCacheCategories, func() {
			br.Do(30*time.Second, chromedp.Navigate("about:blank"), chromedp.Navigate(p.url))
			br.WaitFor(60*time.Second, p.name+"'s engine, third visit", `performance.getEntriesByName(`+browsertest.JSString(p.ready)+`).length > 0`)
		}), wasm)
	}

	for _, c := range cases {
		name := fmt.Sprintf("%s-%d", c.format, c.rows)
		// The console keeps the file it read as a draft and brings it back
		// on the next visit, table and all: its data (not its service
		// worker and cache) goes between cases, with the page closed so
		// that nothing writes it meanwhile.
		br.Do(30*time.Second, chromedp.Navigate("about:blank"), clearSiteData(p.url), chromedp.Navigate(p.url))
		br.WaitFor(60*time.Second, p.name+" to take input", isInteractive)
		operatorsSecond()
		for i, which := range []string{"first", "second"} {
			br.Do(10*time.Second, browsertest.Pick("kind", "transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{files[c][i]}))
			br.WaitFor(5*time.Minute, fmt.Sprintf("%s's table of the %s file, %s", p.name, which, filepath.Base(files[c][i])), toTable+" >= 0")
			record("ms-to-table-"+name+"-"+which, toTable)
			record("ms-longest-task-"+name+"-"+which, browsertest.LongestTaskSince(p.chosen))
			recordPhases(b, br, p.phases, p.phaseNames, name+"-"+which, into)
			if p.memory != "" {
				into["MB-worker-"+name+"-"+which] = append(into["MB-worker-"+name+"-"+which], browsertest.Eval[float64](br, 5*time.Second, p.memory)/1e6)
			}
			p.check(b, br, c)
		}
	}
	br.AssertNoErrors()
}

// shownAfterChosen is a JavaScript expression: the time in ms from the
// last performance mark chosen to the first mark shown after it, or -1
// while there is none, so that a table shown earlier (the previous file's)
// never counts.
func shownAfterChosen(chosen, shown string) string {
	return `(() => {
  const c = performance.getEntriesByName(` + browsertest.JSString(chosen) + `).pop();
  const s = c && performance.getEntriesByName(` + browsertest.JSString(shown) + `).find(m => m.startTime >= c.startTime);
  return s ? s.startTime - c.startTime : -1;
})()`
}

// clearSiteData is an action that deletes what the site at url keeps in
// the browser (storage, files, cookies), but for its service worker and
// its cache, which make a repeat visit what it is.
func clearSiteData(pageURL string) chromedp.Action[chromedp.Void] {
	u, err := url.Parse(pageURL)
	if err != nil {
		panic(err) // the URL of a server the benchmark started
	}
	origin := u.Scheme + "://" + u.Host
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{
			Origin:       origin,
			StorageTypes: "cookies,file_systems,indexeddb,local_storage,storage_buckets,websql,other",
		})
		return err
	})
}

// bytesBefore is a JavaScript expression: the kB the page fetched over
// the network (Resource Timing's transferSize: headers and compressed
// bodies, 0 for what came from a cache) for its document and every
// resource whose response ended before the mark named. Fetches of its
// workers, the console's service worker included, are their own and not
// counted.
func bytesBefore(mark string) string {
	return `(() => {
  const t = performance.getEntriesByName(` + browsertest.JSString(mark) + `)[0].startTime;
  let n = performance.getEntriesByType("navigation")[0].transferSize;
  for (const e of performance.getEntriesByType("resource")) if (e.responseEnd <= t) n += e.transferSize;
  return n / 1000;
})()`
}

// trialTB is the benchmark as the testing.TB of one trial: what the trial
// registers for cleanup (its Chromium) runs when the trial ends, not when
// the whole benchmark does, so that trials do not pile up browsers.
type trialTB struct {
	testing.TB
	cleanups []func()
}

func (t *trialTB) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }

func (t *trialTB) done() {
	for _, f := range slices.Backward(t.cleanups) {
		f()
	}
}

// thousands writes n with a comma between groups of three digits, as the
// pages' summaries do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
