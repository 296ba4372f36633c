package server

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
)

// assets serves the bundle's files under /web/. A file's hashed name never
// changes content, so it may be cached for a year; its plain name (for
// links made in the browser) is revalidated on every use. Each is sent
// brotli- or gzip-compressed when the browser accepts it and a variant
// exists, compressed once at build time.
type assets struct {
	fsys   fs.FS
	byPath map[string]asset
}

// asset is one way to reach a file: by its hashed name or its plain one.
type asset struct {
	file      console.File
	immutable bool
}

func newAssets(fsys fs.FS, m *console.Manifest) *assets {
	a := &assets{fsys: fsys, byPath: make(map[string]asset, 2*len(m.Files))}
	for _, f := range m.Files {
		a.byPath["/web/"+f.Path] = asset{file: f, immutable: true}
		a.byPath["/web/"+f.Name] = asset{file: f}
	}
	return a
}

// An encoding is a stored form of a file.
type encoding struct {
	name   string // Content-Encoding; "" for none
	suffix string // of the stored file
	size   int64
}

func (a *assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r) {
		return
	}
	as, ok := a.byPath[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f := as.file

	h := w.Header()
	var variants []encoding
	if f.Brotli > 0 {
		variants = append(variants, encoding{"br", ".br", f.Brotli})
	}
	if f.Gzip > 0 {
		variants = append(variants, encoding{"gzip", ".gz", f.Gzip})
	}
	enc := encoding{size: f.Size}
	if len(variants) > 0 {
		h.Set("Vary", "Accept-Encoding")
		for _, v := range variants {
			if accepts(r.Header.Get("Accept-Encoding"), v.name) {
				enc = v
				break
			}
		}
	}

	body, err := a.fsys.Open(f.Path + enc.suffix)
	if err != nil {
		http.Error(w, "the console's files are damaged", http.StatusInternalServerError)
		return
	}
	defer body.Close()

	h.Set("Content-Type", contentType(f.Name))
	if as.immutable {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	// Each stored form is its own representation, with its own tag.
	etag := `"` + f.SHA256[:20]
	if enc.name != "" {
		h.Set("Content-Encoding", enc.name)
		etag += "-" + enc.name
	}
	h.Set("ETag", etag+`"`)
	// ServeContent answers conditional and range requests, but leaves
	// Content-Length out of compressed responses unless told; the page's
	// progress bar and caches want it.
	h.Set("Content-Length", strconv.FormatInt(enc.size, 10))
	rs, ok := body.(io.ReadSeeker)
	if !ok {
		http.Error(w, "the console's files are damaged", http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, "", time.Time{}, rs)
}

// accepts reports whether an Accept-Encoding header value accepts coding,
// by name or by "*", with a non-zero quality.
func accepts(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch name {
		case coding:
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

// contentType returns a file's media type from its extension.
func contentType(name string) string {
	switch ext := path.Ext(name); ext {
	case ".wasm":
		return "application/wasm"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".webmanifest":
		return "application/manifest+json"
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
		return "application/octet-stream"
	}
}
