package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/bulkdesk/bulkdesk/app/ui"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// testBundle is a small bundle with the files the server needs, their
// compressed variants and a manifest, as the bundle command writes them.
func testBundle(t testing.TB) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	m := console.Manifest{Version: "0123456789abcdef"}
	for _, name := range []string{"app.wasm", "worker.wasm", "worker.js", "console.css", "icon.svg", "icon-192.png", "icon-512.png"} {
		data := bytes.Repeat([]byte("content of "+name+"; "), 200)
		sum := sha256.Sum256(data)
		hash := hex.EncodeToString(sum[:])
		dot := strings.LastIndex(name, ".")
		f := console.File{Name: name, Path: name[:dot] + "." + hash[:10] + name[dot:], Size: int64(len(data)), SHA256: hash}
		fsys[f.Path] = &fstest.MapFile{Data: data}
		if !strings.HasSuffix(name, ".png") {
			gz, br := compress(t, data)
			fsys[f.Path+".gz"] = &fstest.MapFile{Data: gz}
			fsys[f.Path+".br"] = &fstest.MapFile{Data: br}
			f.Gzip, f.Brotli = int64(len(gz)), int64(len(br))
		}
		m.Files = append(m.Files, f)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	fsys[console.ManifestName] = &fstest.MapFile{Data: b}
	return fsys
}

func compress(t testing.TB, data []byte) (gz, br []byte) {
	var g, b bytes.Buffer
	zw := gzip.NewWriter(&g)
	bw := brotli.NewWriter(&b)
	for _, w := range []io.WriteCloser{zw, bw} {
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return g.Bytes(), b.Bytes()
}

func newServer(t testing.TB, o server.Options) *server.Server {
	t.Helper()
	if o.Assets == nil {
		o.Assets = testBundle(t)
	}
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// get sends a request to h and returns the response with its body read.
func get(t testing.TB, h http.Handler, method, target string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func TestPagesAreServedUnderThePrefix(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "console"})
	if s.Prefix() != "/console/" {
		t.Errorf("prefix = %q, want /console/", s.Prefix())
	}
	for _, tc := range []struct {
		target   string
		status   int
		location string
	}{
		{"/console/", http.StatusOK, ""},
		{"/console/bulks", http.StatusOK, ""},
		{"/console/settings", http.StatusOK, ""},
		{"/console", http.StatusMovedPermanently, "/console/"},
		{"/", http.StatusNotFound, ""},
		{"/bulks", http.StatusNotFound, ""},
		{"/console/no-such-page", http.StatusNotFound, ""},
		{"/consoleX/", http.StatusNotFound, ""},
	} {
		res, _ := get(t, s, "GET", tc.target)
		if res.StatusCode != tc.status || res.Header.Get("Location") != tc.location {
			t.Errorf("GET %s: %d %q, want %d %q", tc.target, res.StatusCode, res.Header.Get("Location"), tc.status, tc.location)
		}
	}

	_, page := get(t, s, "GET", "/console/bulks")
	for _, want := range []struct {
		tag, text string
		attrs     []string
	}{
		{"a", "Bulks", []string{`href="/console/bulks"`, `aria-current="page"`}},
		{"a", "Import", []string{`href="/console/"`}},
		{"h1", "Bulks", []string{`id="page-title"`, `tabindex="-1"`}},
		{"title", "Bulks · Bulkdesk", nil},
		{"script", "", []string{`src="/console/app.js"`}},
		{"link", "", []string{`rel="preload"`, `as="fetch"`}},
	} {
		if !hasElement(page, want.tag, want.text, want.attrs...) {
			t.Errorf("the Bulks page has no <%s> %q with %q", want.tag, want.text, want.attrs)
		}
	}
	if hasElement(page, "a", "Import", `aria-current="page"`) {
		t.Error("Import is marked as the current page on the Bulks page")
	}
	if regexp.MustCompile(`(src|href)="/(web|app|wasm)`).Match(page) {
		t.Error("the page links to a file outside the prefix")
	}
}

// hasElement reports whether html has a <tag> with every attribute given
// (in any order, as go-app writes them) and, unless text is empty, text
// right after it.
func hasElement(html []byte, tag, text string, attrs ...string) bool {
	for _, m := range regexp.MustCompile(`<`+tag+`\b[^>]*>\s*`).FindAllIndex(html, -1) {
		open := string(html[m[0]:m[1]])
		ok := strings.HasPrefix(string(html[m[1]:]), text)
		for _, a := range attrs {
			ok = ok && strings.Contains(open, a)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestTheImportPageOffersEveryKindWithALabel(t *testing.T) {
	_, page := get(t, newServer(t, server.Options{}), "GET", "/")
	for _, want := range []struct {
		tag, text string
		attrs     []string
	}{
		{"label", "Bulk kind", []string{`for="kind"`}},
		{"select", "", []string{`id="kind"`}},
		{"option", "Create transfers", []string{`value="transfers"`}},
		{"option", "Update card spend rules", []string{`value="card_spend_rules"`}},
		{"label", "", []string{`for="request-file"`}},
		{"input", "", []string{`id="request-file"`, `type="file"`}},
		{"div", "", []string{`role="status"`, `aria-live="polite"`}},
	} {
		if !hasElement(page, want.tag, want.text, want.attrs...) {
			t.Errorf("the import page has no <%s> %q with %q", want.tag, want.text, want.attrs)
		}
	}
	if n := strings.Count(string(page), "selected"); n != 1 {
		t.Errorf("%d options are selected, want the placeholder only", n)
	}
}

func TestAssetsAreSentCompressedAsTheBrowserAccepts(t *testing.T) {
	fsys := testBundle(t)
	s := newServer(t, server.Options{Assets: fsys})
	m, err := console.ReadManifest(fsys)
	if err != nil {
		t.Fatal(err)
	}
	wasm, _ := m.Lookup("app.wasm")
	original := fsys[wasm.Path].Data
	for _, tc := range []struct{ accept, encoding string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip, deflate", "gzip"},
		{"", ""},
		{"identity", ""},
		{"br;q=0, gzip;q=0.5", "gzip"},
		{"BR", "br"},
		{"*", "br"},
		{"*;q=0", ""},
	} {
		res, body := get(t, s, "GET", "/web/"+wasm.Path, "Accept-Encoding", tc.accept)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != tc.encoding {
			t.Errorf("Accept-Encoding %q: %d, Content-Encoding %q, want %q", tc.accept, res.StatusCode, res.Header.Get("Content-Encoding"), tc.encoding)
			continue
		}
		if got := res.Header.Get("Content-Length"); got != strconv.Itoa(len(body)) {
			t.Errorf("Accept-Encoding %q: Content-Length %s for %d bytes", tc.accept, got, len(body))
		}
		if res.Header.Get("Content-Type") != "application/wasm" || res.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Content-Type %q, Vary %q", tc.accept, res.Header.Get("Content-Type"), res.Header.Get("Vary"))
		}
		if got := decode(t, tc.encoding, body); !bytes.Equal(got, original) {
			t.Errorf("Accept-Encoding %q: the body does not decode to the file", tc.accept)
		}
	}

	res, body := get(t, s, "HEAD", "/web/"+wasm.Path, "Accept-Encoding", "br")
	if res.StatusCode != http.StatusOK || len(body) != 0 || res.Header.Get("Content-Length") != strconv.FormatInt(wasm.Brotli, 10) {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %s", res.StatusCode, len(body), res.Header.Get("Content-Length"))
	}
	if res, _ := get(t, s, "POST", "/web/"+wasm.Path); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", res.StatusCode)
	}
	if res, _ := get(t, s, "GET", "/web/nothing.wasm"); res.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown asset: %d, want 404", res.StatusCode)
	}
}

func decode(t testing.TB, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch encoding {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestHashedAssetsAreCachedForAYear(t *testing.T) {
	s := newServer(t, server.Options{})
	const hashed, plain = "/web/console.", "/web/console.css"
	_, page := get(t, s, "GET", "/")
	path := regexp.MustCompile(`/web/console\.[0-9a-f]{10}\.css`).Find(page)
	if path == nil {
		t.Fatal("the page does not link the stylesheet by its hashed name")
	}
	res, _ := get(t, s, "GET", string(path), "Accept-Encoding", "gzip")
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("hashed name: Cache-Control %q", cc)
	}
	etag := res.Header.Get("ETag")
	if res, _ := get(t, s, "GET", string(path), "Accept-Encoding", "gzip", "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: %d, want 304", etag, res.StatusCode)
	}
	if res, _ := get(t, s, "GET", string(path), "Accept-Encoding", "br", "If-None-Match", etag); res.StatusCode != http.StatusOK {
		t.Errorf("the gzip tag matched the brotli form: %d", res.StatusCode)
	}
	res, _ = get(t, s, "GET", plain)
	if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("plain name: %d, Cache-Control %q, want 200 no-cache", res.StatusCode, res.Header.Get("Cache-Control"))
	}
}

func TestEveryResponseHasTheSecurityHeaders(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "/c/", FrameAncestors: []string{"https://portal.example.com", "https://*.corp.example:8443"}})
	s.Handle("api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	for _, target := range []string{"/c/", "/c/app.js", "/c/app-worker.js", "/c/web/console.css", "/c/healthz", "/c/api/x", "/c/missing", "/elsewhere"} {
		res, _ := get(t, s, "GET", target)
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self'", "object-src 'none'",
			"frame-ancestors https://portal.example.com https://*.corp.example:8443"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: the policy %q lacks %q", target, csp, want)
			}
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: X-Content-Type-Options %q, Referrer-Policy %q", target, res.Header.Get("X-Content-Type-Options"), res.Header.Get("Referrer-Policy"))
		}
	}
	res, _ := get(t, newServer(t, server.Options{}), "GET", "/")
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'self'") {
		t.Errorf("by default the console may be framed by: %q", res.Header.Get("Content-Security-Policy"))
	}
}

func TestBadOptionsAreRefused(t *testing.T) {
	for _, o := range []server.Options{
		{FrameAncestors: []string{"portal.example.com"}},
		{FrameAncestors: []string{"https://portal.example.com/path"}},
		{FrameAncestors: []string{"https://a.example; script-src *"}},
		{FrameAncestors: []string{"'none'", "https://a.example"}},
		{ConnectSources: []string{"javascript:alert(1)"}},
		{Prefix: "/a b/"},
		{Prefix: "/a/../b/"},
		{Prefix: "/a?b"},
	} {
		o.Assets = testBundle(t)
		if _, err := server.New(o); err == nil {
			t.Errorf("New(%+v) accepted it", o)
		}
	}
	if _, err := server.New(server.Options{Assets: fstest.MapFS{"README.md": {Data: []byte("x")}}}); !errors.Is(err, console.ErrNotBuilt) {
		t.Errorf("an unbuilt console: %v, want ErrNotBuilt", err)
	}
}

func TestParseSources(t *testing.T) {
	got := server.ParseSources(" https://a.example, https://b.example\thttps://c.example ")
	if strings.Join(got, "|") != "https://a.example|https://b.example|https://c.example" {
		t.Errorf("ParseSources = %q", got)
	}
}

// TestEveryCachedURLAnswers guards offline use: the service worker's cache
// is installed all or nothing, so one URL that fails leaves the console
// without offline mode, silently.
func TestEveryCachedURLAnswers(t *testing.T) {
	for _, prefix := range []string{"/", "/console/"} {
		s := newServer(t, server.Options{Prefix: prefix})
		_, worker := get(t, s, "GET", prefix+"app-worker.js")
		m := regexp.MustCompile(`const resourcesToCache = (\[.*\]);`).FindSubmatch(worker)
		if m == nil {
			t.Fatal("app-worker.js lists no resources")
		}
		var urls []string
		if err := json.Unmarshal(m[1], &urls); err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{prefix: true, prefix + "app.js": true, prefix + "wasm_exec.js": true, prefix + "bulks": true}
		for _, u := range urls {
			delete(want, u)
			if strings.ContainsAny(u, "?#") || !strings.HasPrefix(u, prefix) {
				t.Errorf("prefix %s: cached URL %q", prefix, u)
			}
			if res, _ := get(t, s, "GET", u); res.StatusCode != http.StatusOK {
				t.Errorf("prefix %s: cached URL %s answers %d", prefix, u, res.StatusCode)
			}
		}
		for u := range want {
			t.Errorf("prefix %s: %s is not cached", prefix, u)
		}
		if len(urls) < 7+len(ui.Paths())+4 {
			t.Errorf("prefix %s: only %d URLs cached: %q", prefix, len(urls), urls)
		}
	}
}

func TestTheConsoleLearnsItsKindsAndWorker(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "/console/"})
	_, js := get(t, s, "GET", "/console/app.js")
	m := regexp.MustCompile(`const goappEnv = (\{.*\});`).FindSubmatch(js)
	if m == nil {
		t.Fatal("app.js has no environment")
	}
	var env map[string]string
	if err := json.Unmarshal(m[1], &env); err != nil {
		t.Fatal(err)
	}
	var cfg ui.Config
	if err := json.Unmarshal([]byte(env[ui.ConfigEnv]), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Kinds) < 9 || !regexp.MustCompile(`^/console/web/worker\.[0-9a-f]{10}\.js$`).MatchString(cfg.WorkerScript) ||
		!regexp.MustCompile(`^/console/web/worker\.[0-9a-f]{10}\.wasm$`).MatchString(cfg.WorkerWasm) {
		t.Errorf("config = %+v", cfg)
	}
	if env["GOAPP_VERSION"] != s.Version() || env["GOAPP_ROOT_PREFIX"] != "/console/" || env["GOAPP_STATIC_RESOURCES_URL"] != "/console/web" {
		t.Errorf("go-app environment = %v", env)
	}
	// The service worker is registered once the page's wasm runs.
	js = []byte(strings.ReplaceAll(string(js), "\n", " "))
	if !regexp.MustCompile(`go\.run\(wasm\.instance\);\s+loader\.remove\(\);\s+goappInitServiceWorker\(\);`).Match(js) ||
		bytes.Count(js, []byte("goappInitServiceWorker();")) != 1 {
		t.Error("app.js does not register the service worker after starting the wasm")
	}
	// The wasm is compiled from fetch's own response, which the browser
	// can keep compiled for the next visit.
	if !regexp.MustCompile(`instantiateStreaming\(\s*fetch\("/console/web/app\.[0-9a-f]{10}\.wasm"\),`).Match(js) {
		t.Error("app.js does not compile the wasm from fetch's response")
	}
}

func TestHandlersMountBelowThePrefix(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "/console/"})
	var seen []string
	record := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = append(seen, r.Method+" "+r.URL.Path) })
	s.Handle("api/", record)
	s.Handle("GET events/stream", record)
	s.Mux().Handle("POST /webhooks/", record)
	for _, target := range []string{"/console/api/bulks/1", "/console/events/stream"} {
		get(t, s, "GET", target)
	}
	get(t, s, "POST", "/console/webhooks/bulk_process_end/watch")
	if strings.Join(seen, ", ") != "GET /api/bulks/1, GET /events/stream, POST /webhooks/bulk_process_end/watch" {
		t.Errorf("the handlers saw %q", seen)
	}
}

func TestHealthAndRobots(t *testing.T) {
	s := newServer(t, server.Options{})
	res, body := get(t, s, "GET", "/healthz")
	if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "no-store" || string(body) != "ok\n" {
		t.Errorf("healthz: %d %q, Cache-Control %q", res.StatusCode, body, res.Header.Get("Cache-Control"))
	}
	if _, body := get(t, s, "GET", "/robots.txt"); !strings.Contains(string(body), "Disallow: /") {
		t.Errorf("robots.txt = %q", body)
	}
	res, _ = get(t, s, "GET", "/favicon.ico")
	icon := res.Header.Get("Location")
	if res.StatusCode != http.StatusFound || !strings.HasPrefix(icon, "/web/") || !strings.HasSuffix(icon, ".svg") {
		t.Fatalf("favicon.ico: %d to %q, want a redirect to the console's icon", res.StatusCode, icon)
	}
	if res, _ := get(t, s, "GET", icon); res.StatusCode != http.StatusOK {
		t.Errorf("the icon favicon.ico leads to: %d", res.StatusCode)
	}
}

// Without a receiver, GET events says so with 204, which the browser does
// not log as an error; a receiver mounted answers instead.
func TestEventsWithoutAReceiver(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "/console/"})
	res, _ := get(t, s, "GET", "/console/events")
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET events without a receiver: %d, Cache-Control %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if res, _ := get(t, s, "POST", "/console/events"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST events: %d", res.StatusCode)
	}
	s = newServer(t, server.Options{})
	s.Mux().HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	if res, _ := get(t, s, "GET", "/events"); res.StatusCode != http.StatusTeapot {
		t.Errorf("GET events with a receiver mounted: %d", res.StatusCode)
	}
}

func TestTheVersionNamesTheCache(t *testing.T) {
	s := newServer(t, server.Options{})
	v := s.Version()
	res, worker := get(t, s, "GET", "/app-worker.js")
	if !strings.HasPrefix(v, "0123456789abcdef-") || !strings.Contains(string(worker), `"app-" + "`+v+`"`) || res.Header.Get("ETag") != `"`+v+`"` {
		t.Errorf("version %q, ETag %q", v, res.Header.Get("ETag"))
	}
	// The pages carry the server's configuration, and the service worker
	// serves them from its cache: a server started with other flags must
	// announce another version, or browsers keep the stale pages.
	again := newServer(t, server.Options{})
	sandboxed := newServer(t, server.Options{API: ui.APIConfig{Proxy: true, Sandbox: &ui.SandboxConfig{Path: "sandbox/multi", Proxied: true}}})
	if again.Version() != v || sandboxed.Version() == v || !strings.HasPrefix(sandboxed.Version(), "0123456789abcdef-") {
		t.Errorf("versions %q, %q (same flags), %q (with a sandbox)", v, again.Version(), sandboxed.Version())
	}
}

// TestPagesStayClearOfTheServersEndpoints mounts stand-ins for the API
// proxy and the webhook receiver, as bulkdesk serve does, and checks that
// every page still answers with the console.
func TestPagesStayClearOfTheServersEndpoints(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "/console/"})
	endpoint := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, pattern := range []string{"api/", "backoffice/", "POST webhooks/", "GET events", "GET events/stream"} {
		s.Handle(pattern, endpoint)
	}
	for _, p := range ui.Paths() {
		res, body := get(t, s, "GET", "/console"+p)
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `id="page-title"`) {
			t.Errorf("GET %s: %d, not the console's page", p, res.StatusCode)
		}
	}
	if res, _ := get(t, s, "GET", "/console/events"); res.StatusCode != http.StatusTeapot {
		t.Errorf("GET /console/events reached the console, not the receiver: %d", res.StatusCode)
	}
}

// TestGoAppsScriptsAreSentCompressed asks for go-app's scripts and pages as a
// browser does and as a client without gzip does: the same text, gzipped
// for the browser, each form with its own ETag.
func TestGoAppsScriptsAreSentCompressed(t *testing.T) {
	s := newServer(t, server.Options{})
	for _, path := range []string{"/app.js", "/wasm_exec.js", "/app-worker.js", "/manifest.webmanifest", "/", "/settings"} {
		plain, body := get(t, s, "GET", path)
		zipped, zbody := get(t, s, "GET", path, "Accept-Encoding", "gzip, deflate, br")
		if plain.StatusCode != 200 || zipped.StatusCode != 200 || plain.Header.Get("Content-Encoding") != "" || zipped.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: %d %q, %d %q", path, plain.StatusCode, plain.Header.Get("Content-Encoding"), zipped.StatusCode, zipped.Header.Get("Content-Encoding"))
			continue
		}
		text := decode(t, "gzip", zbody)
		if !strings.Contains(path, ".") {
			// A page is rendered for each request: compare what it says.
			text, body = text[:bytes.Index(text, []byte("<head"))], body[:bytes.Index(body, []byte("<head"))]
		}
		if !bytes.Equal(text, body) || len(zbody) >= len(body) && strings.Contains(path, ".") {
			t.Errorf("%s: the gzipped form (%d bytes) is not the text (%d bytes), smaller", path, len(zbody), len(body))
		}
		if (plain.Header.Get("ETag") != "" && plain.Header.Get("ETag") == zipped.Header.Get("ETag")) || zipped.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: ETags %q and %q, Vary %q", path, plain.Header.Get("ETag"), zipped.Header.Get("ETag"), zipped.Header.Get("Vary"))
		}
	}
}

// A server whose database does not answer says it is unhealthy, and not
// why: the probe has no sign-in.
func TestHealthFollowsTheCheck(t *testing.T) {
	down := errors.New("the database at db.internal:5432/ops does not answer")
	var failing atomic.Bool
	s := newServer(t, server.Options{Check: func(context.Context) error {
		if failing.Load() {
			return down
		}
		return nil
	}})
	if res, body := get(t, s, "GET", "/healthz"); res.StatusCode != http.StatusOK || string(body) != "ok\n" {
		t.Errorf("healthy: %d %q", res.StatusCode, body)
	}
	failing.Store(true)
	if res, body := get(t, s, "GET", "/healthz"); res.StatusCode != http.StatusServiceUnavailable || string(body) != "unhealthy\n" {
		t.Errorf("with the database down: %d %q", res.StatusCode, body)
	}
}
