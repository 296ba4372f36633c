package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/ui"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The bundle's files the server names.
const (
	pageWasm     = "app.wasm"
	workerScript = "worker.js"
	workerWasm   = "worker.wasm"
	// The second worker, which calls the API and writes workbooks; the
	// first starts it.
	apiWorkerWasm = "apiworker.wasm"
	stylesheet    = "console.css"
	// The import page's script that takes a file before the page's wasm
	// runs (see earlyWorker). A bundle without it serves a page that
	// takes a file once its wasm runs.
	earlyScript = "early.js"
	// The OpenAPI reader, started only when a contract file is loaded. A
	// bundle without it serves a console that cannot load a contract.
	contractScript = "contract.js"
	contractWasm   = "contract.wasm"
)

// pages serves go-app's side of the console: the pages (their first HTML
// rendered here), app.js, the service worker, wasm_exec.js and the web app
// manifest. The assets under /web/ are served by the asset handler.
type pages struct {
	goapp   *app.Handler
	appJS   []byte
	version string
	// scripts are go-app's scripts, the same for every request: made
	// once, and sent compressed.
	scripts map[string]*script
}

// A script is one of go-app's scripts as it is sent, and gzipped.
type script struct {
	body, gz    []byte
	contentType string
	etag        string
}

// goappScripts are the scripts go-app serves that do not change between
// requests; the pages, rendered for their path, are not among them.
var goappScripts = []string{"/app.js", "/wasm_exec.js", "/app-worker.js", "/manifest.webmanifest"}

func (p *pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sc, ok := p.scripts[r.URL.Path]
	if !ok {
		p.servePage(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", sc.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	body, etag := sc.body, sc.etag
	if accepts(r.Header.Get("Accept-Encoding"), "gzip") {
		body, etag = sc.gz, strings.TrimSuffix(etag, `"`)+`-gzip"`
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// servePage serves a page go-app renders for its path: its manifest link
// asks the browser to send credentials (a manifest is fetched without
// them otherwise, and a server behind a sign-in refuses it), and it is
// gzipped when the browser takes it: a few kilobytes of HTML, compressed
// as it is made.
func (p *pages) servePage(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	l := pageLanguage(r)
	var loading string
	ui.RenderIn(l, func() {
		p.goapp.ServeHTTP(rec, r)
		loading = ui.LoadingLabel()
	})
	h := w.Header()
	for k, v := range rec.Header() {
		h[k] = v
	}
	body := rec.Body.Bytes()
	if strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		body = bytes.Replace(body, []byte(`<link rel="manifest" href=`), []byte(`<link rel="manifest" crossorigin="use-credentials" href=`), 1)
		body = bytes.Replace(body, []byte(`<html lang="en"`), []byte(`<html lang="`+string(l)+`"`), 1)
		body = bytes.Replace(body, []byte(">"+ui.LoadingText+"<"), []byte(">"+html.EscapeString(loading)+"<"), 1)
		h.Del("Content-Length")
		// The same page in another language is another page.
		if etag := h.Get("ETag"); etag != "" {
			h.Set("ETag", strings.TrimSuffix(etag, `"`)+"-"+string(l)+`"`)
		}
	}
	if accepts(r.Header.Get("Accept-Encoding"), "gzip") && rec.Code == http.StatusOK && len(body) > 0 && h.Get("Content-Encoding") == "" {
		// Fast compression: the page is made for this request.
		if gz, err := gzipBytes(body, gzip.DefaultCompression); err == nil {
			body = gz
			h.Set("Content-Encoding", "gzip")
			h.Add("Vary", "Accept-Encoding")
			h.Del("Content-Length")
			if etag := h.Get("ETag"); etag != "" {
				h.Set("ETag", strings.TrimSuffix(etag, `"`)+`-gzip"`)
			}
		}
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// pageLanguage is the language a page is drawn in for r: the operator's
// choice in Settings (its cookie), or else the first of the browser's
// languages the console speaks, as the page's program chooses.
func pageLanguage(r *http.Request) lang.Tag {
	// A host page that embeds the console names the frame's language.
	if q := r.URL.Query(); q.Get("embed") == "1" {
		if l, ok := lang.Parse(q.Get("lang")); ok {
			return l
		}
	}
	if c, err := r.Cookie(ui.LanguageCookie); err == nil {
		if l, ok := lang.Parse(c.Value); ok {
			return l
		}
	}
	var preferred []string
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if tag == "" || strings.TrimSpace(q) == "q=0" {
			continue
		}
		preferred = append(preferred, tag)
	}
	return lang.Choose(preferred)
}

// prepareScripts renders go-app's scripts once and gzips them: app.js as
// changed by startWorkerAfterWasm, the others as go-app writes them.
func (p *pages) prepareScripts() error {
	p.scripts = make(map[string]*script, len(goappScripts))
	for _, path := range goappScripts {
		sc := &script{body: p.appJS, contentType: "text/javascript; charset=utf-8", etag: `"` + p.version + `-app"`}
		if path != "/app.js" { // app.js is rendered and changed already
			rec := httptest.NewRecorder()
			p.goapp.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if rec.Code != http.StatusOK {
				return fmt.Errorf("go-app's %s answered %d: check the go-app version", path, rec.Code)
			}
			sc = &script{body: rec.Body.Bytes(), contentType: rec.Header().Get("Content-Type"), etag: rec.Header().Get("ETag")}
		}
		if sc.etag == "" {
			sum := sha256.Sum256(sc.body)
			sc.etag = `"` + p.version + "-" + hex.EncodeToString(sum[:6]) + `"`
		}
		gz, err := gzipBytes(sc.body, gzip.BestCompression)
		if err != nil {
			return fmt.Errorf("compressing %s: %w", path, err)
		}
		sc.gz = gz
		p.scripts[path] = sc
	}
	return nil
}

// newPages returns the handler of go-app's side of the console.
func newPages(res *resolver, m *console.Manifest, api ui.APIConfig, embedders []string) (*pages, error) {
	wasm, ok := m.Lookup(pageWasm)
	if !ok {
		return nil, fmt.Errorf("the console's bundle has no %s: %w", pageWasm, console.ErrNotBuilt)
	}
	for _, name := range []string{workerScript, workerWasm, stylesheet, "icon-192.png", "icon-512.png", "icon.svg"} {
		if _, ok := m.Lookup(name); !ok {
			return nil, fmt.Errorf("the console's bundle has no %s: %w", name, console.ErrNotBuilt)
		}
	}
	ui.Register()

	// The service worker caches every asset and every page, so that after
	// one visit the console opens and validates without the server. Every
	// URL listed must answer 200, or the cache is not installed at all.
	cacheable := make([]string, 0, len(m.Files)+len(ui.Paths()))
	for _, f := range m.Files {
		cacheable = append(cacheable, "/web/"+f.Name)
	}
	for _, p := range ui.Paths() {
		if p != "/" {
			cacheable = append(cacheable, p)
		}
	}

	cfg := ui.Config{
		Kinds:        kinds(),
		WorkerScript: res.Resolve("/web/" + workerScript),
		WorkerWasm:   res.Resolve("/web/" + workerWasm),
		API:          api,
	}
	if _, ok := m.Lookup(apiWorkerWasm); ok {
		cfg.APIWorkerWasm = res.Resolve("/web/" + apiWorkerWasm)
	}
	_, hasScript := m.Lookup(contractScript)
	_, hasWasm := m.Lookup(contractWasm)
	if hasScript && hasWasm {
		cfg.ContractScript = res.Resolve("/web/" + contractScript)
		cfg.ContractWasm = res.Resolve("/web/" + contractWasm)
	}
	config := ui.EncodeConfig(cfg)
	// The console talks to the host pages that may frame it, and only to
	// them (see ui's embed.go).
	frames, err := json.Marshal(embedders)
	if err != nil {
		return nil, fmt.Errorf("the frame ancestors: %w", err)
	}
	version := configVersion(m.Version, config+string(frames))
	h := &app.Handler{
		Name:        "Bulkdesk",
		ShortName:   "Bulkdesk",
		Title:       "Bulkdesk",
		Description: "Check, submit and follow bulk operations of the embedded-finance API.",
		Lang:        "en",
		// Local icons: go-app's defaults point at another host, which
		// breaks offline use and the content security policy.
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		BackgroundColor: "#f4f6f9",
		ThemeColor:      "#12355b",
		LoadingLabel:    ui.LoadingText,
		Styles:          []string{"/web/" + stylesheet},
		Resources:       res,
		// The build's content hash: go-app's default changes at every
		// start, which makes every browser download everything again.
		Version: version,
		// The progress bar counts the bytes after decompression.
		WasmContentLength:  strconv.FormatInt(wasm.Size, 10),
		CacheableResources: cacheable,
		Env:                map[string]string{ui.ConfigEnv: config, ui.EmbeddersEnv: string(frames)},
		RawHeaders:         rawHeaders(res, m),
	}
	appJS, err := startWorkerAfterWasm(h, cfg.WorkerScript, cfg.WorkerWasm, cfg.APIWorkerWasm)
	if err != nil {
		return nil, err
	}
	p := &pages{goapp: h, appJS: appJS, version: version}
	if err := p.prepareScripts(); err != nil {
		return nil, err
	}
	return p, nil
}

// configVersion is the version the console announces: the build's, and a
// hash of the configuration handed to the page. The service worker serves
// the pages, and with them their configuration, from its cache; a server
// started again with other flags (a proxy, a sandbox) changes the version,
// so the browser installs the new pages rather than keep the stale ones.
func configVersion(build, config string) string {
	sum := sha256.Sum256([]byte(config))
	return build + "-" + hex.EncodeToString(sum[:4])
}

// startWorkerAfterWasm returns go-app's app.js, changed in three ways.
//
// The console's Web Worker starts first thing (see earlyWorker), so that
// a file chosen before the page's wasm runs is read at once: the page
// adopts it when its own wasm runs (workerclient.Start), with the
// messages it posted meanwhile.
//
// The service worker registers once the page's wasm runs rather than first
// thing: on a first visit, its installation downloads every file of the
// console, and would compete with the page's own download and compilation.
//
// The page's wasm is compiled from the response of fetch itself rather
// than from go-app's copy of it, which counts bytes for a progress bar:
// the browser compiles a response while it downloads either way, but
// keeps the compiled code for the next visit only for a response that
// comes from the network or a cache with its URL, which the copy lacks.
func startWorkerAfterWasm(h *app.Handler, workerScriptURL, workerWasmURL, secondWasmURL string) ([]byte, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	js := rec.Body.String()
	const (
		registerFirst = "\ngoappInitServiceWorker();\n"
		wasmStarted   = "    go.run(wasm.instance);\n    loader.remove();\n"
	)
	fetchCopy := regexp.MustCompile(`fetchWithProgress\(("[^"]+"), showProgress\)`)
	if rec.Code != http.StatusOK || strings.Count(js, registerFirst) != 1 || strings.Count(js, wasmStarted) != 1 || len(fetchCopy.FindAllString(js, -1)) != 1 {
		return nil, fmt.Errorf("go-app's app.js is not the one this server knows (status %d): check the go-app version", rec.Code)
	}
	js = strings.Replace(js, registerFirst, "\n", 1)
	js = strings.Replace(js, wasmStarted, wasmStarted+"    goappInitServiceWorker();\n", 1)
	js = fetchCopy.ReplaceAllString(js, "fetch($1)")
	return []byte(earlyWorker(workerScriptURL, workerWasmURL, secondWasmURL) + js), nil
}

// rawHeaders are what the pages' heads add to go-app's: the preload of
// the page's wasm, fetched while the HTML is parsed rather than after,
// and the import page's early script, which runs after app.js (both are
// deferred, in this order) and so finds the worker app.js started.
func rawHeaders(res *resolver, m *console.Manifest) []string {
	h := []string{`<link rel="preload" href="` + res.Resolve("/web/"+pageWasm) + `" as="fetch" type="application/wasm" crossorigin="anonymous">`}
	if _, ok := m.Lookup(earlyScript); ok {
		h = append(h, `<script defer src="`+res.Resolve("/web/"+earlyScript)+`"></script>`)
	}
	return h
}

// kinds lists the bulk kinds for the console's kind picker.
func kinds() []ui.Kind {
	out := make([]ui.Kind, 0, len(schema.Kinds()))
	for _, k := range schema.Kinds() {
		out = append(out, ui.Kind{ID: k.ID, Title: k.Title, BackOffice: k.BackOffice != nil})
	}
	return out
}

// A resolver tells go-app where the console's files are: below the prefix,
// and for the bundle's files under their content-hashed names, which the
// asset handler serves with long cache lifetimes. go-app's own
// PrefixedLocation panics on /web/ requests in v10.1.11.
type resolver struct {
	prefix string
	hashed map[string]string // "/web/app.wasm" → "/web/app.3f9a1c2d7e.wasm"
}

func newResolver(prefix string, m *console.Manifest) *resolver {
	r := &resolver{prefix: prefix, hashed: make(map[string]string, len(m.Files))}
	for _, f := range m.Files {
		r.hashed["/web/"+f.Name] = "/web/" + f.Path
	}
	return r
}

// Resolve returns the URL of a location of the console ("/", "/app.js",
// "/web/app.wasm"). Remote URLs and URLs already below the prefix are
// returned as they are, so that resolving twice changes nothing.
func (r *resolver) Resolve(location string) string {
	switch {
	case location == "" || location == "/":
		return r.prefix
	case strings.HasPrefix(location, "https://"), strings.HasPrefix(location, "http://"):
		return location
	}
	if !strings.HasPrefix(location, "/") {
		location = "/" + location
	}
	if h, ok := r.hashed[location]; ok {
		location = h
	}
	if r.prefix != "/" && strings.HasPrefix(location, r.prefix) {
		return location
	}
	return r.prefix + strings.TrimPrefix(location, "/")
}

// earlyWorker is the script that starts the console's worker before the
// page's wasm runs; workerclient.Start adopts it (see its doc). The
// import page's early script (web/early.js) sends it jobs meanwhile,
// numbered from nextID on, and hears its messages through onheard.
//
// The worker's program starts (init) when a job is sent before the
// page's program runs, or else when the page's program adopts it: its
// start would otherwise share the processor with the page's own, and
// lengthen the page's tasks, for a worker nobody waits for yet.
func earlyWorker(scriptURL, wasmURL, secondURL string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `// The console's worker starts with the page (see workerclient.Start).
(() => {
  try {
    const worker = new Worker(` + q(scriptURL) + `);
    const early = [];
    const ew = { worker, early, script: ` + q(scriptURL) + `, nextID: 0, onheard: null, initSent: false };
    ew.init = () => {
      if (!ew.initSent) {
        ew.initSent = true;
        worker.postMessage({ type: "init", body: ` + q(wasmURL) + `, second: ` + q(secondURL) + ` });
      }
    };
    worker.onmessage = (event) => {
      early.push({ data: event.data });
      if (ew.onheard) ew.onheard(event.data);
    };
    worker.onerror = (event) => early.push({ error: event.message || "" });
    self.bulkdeskEarlyWorker = ew;
  } catch (err) {
    // The page starts its worker itself, and reports what goes wrong.
  }
})();
`
}

// gzipBytes compresses data at level.
func gzipBytes(data []byte, level int) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
