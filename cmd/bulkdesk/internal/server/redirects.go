package server

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// keepRedirectsUnder makes every Location h answers with point below
// prefix, on this host. h's handlers see paths without the prefix, and
// so do those that redirect: Go's ServeMux, for a path it cleans
// ("//api/x", "./x") or a subtree asked without its final slash ("/api"),
// and http.Redirect, which makes a relative target absolute from that
// path. Left alone, their Location would send the browser out of the
// prefix, past the portal's reverse proxy. A Location that names a scheme
// (an API's answer passed through the proxy) is left as it is; one that
// names a host without a scheme ("//evil.example") is taken for what it
// came from, a path, so that no redirect leads to another site.
func keepRedirectsUnder(prefix string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&locationWriter{ResponseWriter: w, prefix: prefix, path: r.URL.Path}, r)
	})
}

// locationWriter puts the Location of an answer below prefix as its
// status is written. The body of a redirect it moved is dropped: it
// repeats the old location (http.Redirect's link), and browsers follow
// the header.
type locationWriter struct {
	http.ResponseWriter
	prefix, path string
	wroteHeader  bool
	dropBody     bool
}

func (w *locationWriter) WriteHeader(code int) {
	if !w.wroteHeader && code >= http.StatusOK {
		w.wroteHeader = true
		h := w.Header()
		if loc := h.Get("Location"); loc != "" {
			if under := locationUnder(w.prefix, w.path, loc); under != loc {
				h.Set("Location", under)
				if code >= 300 && code < 400 {
					w.dropBody = true
					h.Del("Content-Length")
				}
			}
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *locationWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.dropBody {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// Flush lets streams (the events, the record's progress) flush through.
func (w *locationWriter) Flush() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *locationWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// locationUnder returns loc, a Location answered to a request for
// reqPath (a path below the prefix, without it), as a location below
// prefix: a path is resolved against reqPath, cleaned (so that ".."
// cannot climb out) and put below the prefix. A URL with a scheme is
// returned as it is; one that cannot be read, as the prefix.
func locationUnder(prefix, reqPath, loc string) string {
	u, err := url.Parse(loc)
	if err != nil {
		return prefix
	}
	if u.Scheme != "" {
		return loc
	}
	p := u.Path
	if u.Host != "" || u.User != nil { // "//host/x": a path with its slashes doubled
		p, u.Host, u.User = "/"+u.Host+u.Path, "", nil
	}
	switch {
	case p == "":
		p = reqPath // "?q" or "#f": the same path
	case !strings.HasPrefix(p, "/"):
		p = reqPath[:strings.LastIndex(reqPath, "/")+1] + p
	}
	trailing := strings.HasSuffix(p, "/")
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	if trailing && p != "" {
		p += "/"
	}
	u.Path, u.RawPath = prefix+p, ""
	return u.String()
}
