package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// withEmbedScript adds web/embed.js to a test bundle, compressed, as the
// bundle command does, and returns its text.
func withEmbedScript(t *testing.T, fsys fstest.MapFS) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "web", "embed.js"))
	if err != nil {
		t.Fatal(err)
	}
	var m console.Manifest
	if err := json.Unmarshal(fsys[console.ManifestName].Data, &m); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	f := console.File{Name: "embed.js", Path: "embed." + hash[:10] + ".js", Size: int64(len(data)), SHA256: hash}
	gz, br := compress(t, data)
	f.Gzip, f.Brotli = int64(len(gz)), int64(len(br))
	fsys[f.Path] = &fstest.MapFile{Data: data}
	fsys[f.Path+".gz"] = &fstest.MapFile{Data: gz}
	fsys[f.Path+".br"] = &fstest.MapFile{Data: br}
	m.Files = append(m.Files, f)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	fsys[console.ManifestName] = &fstest.MapFile{Data: b}
	return data
}

// TestTheEmbedScriptIsServedAtThePrefix checks what a portal's page
// relies on: embed.js at the console's address, as a script, revalidated
// at every load against its tag, compressed as the browser accepts.
func TestTheEmbedScriptIsServedAtThePrefix(t *testing.T) {
	fsys := testBundle(t)
	script := withEmbedScript(t, fsys)
	if !bytes.Contains(script, []byte("protocol, version 1")) {
		t.Errorf("web/embed.js does not name the protocol's version in its header")
	}
	s := newServer(t, server.Options{Prefix: "/console/", Assets: fsys})

	for _, tc := range []struct{ accept, encoding string }{
		{"gzip, deflate, br", "br"},
		{"gzip", "gzip"},
		{"", ""},
	} {
		res, body := get(t, s, "GET", "/console/embed.js", "Accept-Encoding", tc.accept)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET /console/embed.js (%q): %d", tc.accept, res.StatusCode)
		}
		h := res.Header
		if h.Get("Content-Type") != "text/javascript; charset=utf-8" || h.Get("Cache-Control") != "no-cache" || h.Get("Content-Encoding") != tc.encoding {
			t.Errorf("Accept-Encoding %q: Content-Type %q, Cache-Control %q, Content-Encoding %q", tc.accept, h.Get("Content-Type"), h.Get("Cache-Control"), h.Get("Content-Encoding"))
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("Accept-Encoding %q: no nosniff", tc.accept)
		}
		if !bytes.Equal(decode(t, tc.encoding, body), script) {
			t.Errorf("Accept-Encoding %q: the body is not web/embed.js", tc.accept)
		}
		etag := h.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 10 {
			t.Fatalf("Accept-Encoding %q: ETag %q", tc.accept, etag)
		}
		res, body = get(t, s, "GET", "/console/embed.js", "Accept-Encoding", tc.accept, "If-None-Match", etag)
		if res.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("Accept-Encoding %q, If-None-Match %s: %d with %d bytes, want 304", tc.accept, etag, res.StatusCode, len(body))
		}
	}

	res, body := get(t, s, "HEAD", "/console/embed.js")
	if res.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("HEAD: %d, %d bytes", res.StatusCode, len(body))
	}
	if res, _ := get(t, s, "POST", "/console/embed.js"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", res.StatusCode)
	}
	// Outside the prefix there is no console, and no script either.
	if res, _ := get(t, s, "GET", "/embed.js"); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /embed.js outside the prefix: %d, want 404", res.StatusCode)
	}
}

// TestABundleWithoutTheEmbedScriptAnswers404 keeps an older bundle
// serving: the console works, only embedding is not offered.
func TestABundleWithoutTheEmbedScriptAnswers404(t *testing.T) {
	s := newServer(t, server.Options{})
	if res, _ := get(t, s, "GET", "/embed.js"); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /embed.js without it in the bundle: %d, want 404", res.StatusCode)
	}
}
