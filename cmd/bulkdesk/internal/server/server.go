// Package server is the HTTP side of bulkdesk serve: it serves the browser
// console (go-app's pages and the embedded, precompressed assets) under a
// path prefix, with security headers on every response, and lets other
// packages mount their handlers beside it (the API proxy, the sandbox API,
// the webhook receiver).
//
// Everything is served below Options.Prefix: with "/console/", the page is
// /console/, its assets /console/web/…, and a handler mounted with
// Handle("api/", h) answers /console/api/…. Handlers see paths with the
// prefix removed ("/api/…"), so they work the same behind a portal's
// reverse proxy as on their own.
package server

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ui"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/console"
)

// Options configure a Server.
type Options struct {
	// Prefix is the path the console is served under, "/" by default. It
	// starts and ends with "/" ("/console/"); missing slashes are added.
	Prefix string
	// FrameAncestors are the origins allowed to show the console in a
	// frame (the portal's origin, "https://portal.example.com"); by default
	// only the console's own origin. See ParseSources.
	FrameAncestors []string
	// ConnectSources are further origins the page may fetch from, beyond
	// its own, such as an API called directly rather than through the
	// same-origin proxy.
	ConnectSources []string
	// Assets is the built console (console.FS()); tests pass their own.
	Assets fs.FS
	// API tells the console how it may reach the API: the proxy and the
	// sandbox mounted beside it, the origins it may call directly.
	API ui.APIConfig
	// Check, when set, tells whether what the server depends on answers
	// (a shared database); /healthz says unhealthy while it fails.
	Check func(context.Context) error
}

// A Server serves the console and the handlers mounted on it.
type Server struct {
	prefix   string
	version  string
	manifest *console.Manifest
	mux      *http.ServeMux
	handler  http.Handler
}

// New returns a Server for the console in o.Assets.
func New(o Options) (*Server, error) {
	prefix, err := cleanPrefix(o.Prefix)
	if err != nil {
		return nil, err
	}
	if o.Assets == nil {
		o.Assets = console.FS()
	}
	m, err := console.ReadManifest(o.Assets)
	if err != nil {
		return nil, err
	}
	csp, err := contentSecurityPolicy(o.FrameAncestors, o.ConnectSources)
	if err != nil {
		return nil, err
	}
	s := &Server{prefix: prefix, manifest: m, mux: http.NewServeMux()}
	assets := newAssets(o.Assets, m)
	res := newResolver(prefix, m)
	pages, err := newPages(res, m, o.API, o.FrameAncestors)
	if err != nil {
		return nil, err
	}

	s.version = pages.version
	s.mux.Handle("/web/", assets)
	s.mux.Handle("/"+embedScriptName, embedScript(assets))
	s.mux.Handle("/healthz", HealthOf(o.Check))
	s.mux.HandleFunc("/events", noReceiver)
	s.mux.HandleFunc("/robots.txt", robots)
	// Relative to the prefix, as every location inside (underPrefix).
	s.mux.Handle("/favicon.ico", favicon("/"+strings.TrimPrefix(res.Resolve("/web/icon.svg"), prefix)))
	s.mux.Handle("/", pages)
	s.handler = secure(csp, s.underPrefix(s.mux))
	return s, nil
}

// Handle mounts h at pattern, a ServeMux pattern relative to the prefix:
// "api/" or "GET events/stream". h sees request paths without the prefix.
// Mount before serving.
func (s *Server) Handle(pattern string, h http.Handler) {
	method, path, hasMethod := strings.Cut(pattern, " ")
	if !hasMethod {
		method, path = "", pattern
	}
	path = "/" + strings.TrimPrefix(path, "/")
	if method != "" {
		path = method + " " + path
	}
	s.mux.Handle(path, h)
}

// Mux returns the ServeMux below the prefix, for packages that add their
// endpoints to a mux themselves (receiver.Mount). Its patterns are
// relative to the prefix ("GET /events"). Mount before serving.
func (s *Server) Mux() *http.ServeMux { return s.mux }

// Prefix returns the path the console is served under.
func (s *Server) Prefix() string { return s.prefix }

// Version returns the version the console announces: a hash of its
// content and of the configuration the server hands it (see newPages).
func (s *Server) Version() string { return s.version }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// underPrefix serves h below the prefix and answers everything else with
// 404, except the prefix without its final slash, which redirects. The
// locations h redirects to, relative to the prefix as its paths are, are
// put below it (keepRedirectsUnder).
func (s *Server) underPrefix(h http.Handler) http.Handler {
	h = keepRedirectsUnder(s.prefix, h)
	if s.prefix == "/" {
		return h
	}
	bare := strings.TrimSuffix(s.prefix, "/")
	inner := http.StripPrefix(bare, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == bare:
			http.Redirect(w, r, s.prefix, http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, s.prefix):
			inner.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}

// cleanPrefix checks a path prefix and gives it its slashes.
func cleanPrefix(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" || p == "/" {
		return "/", nil
	}
	if strings.ContainsAny(p, "?#%\\ \"'<>") || strings.Contains(p, "//") || strings.Contains(p, "/../") || strings.Contains(p, "/./") {
		return "", fmt.Errorf("prefix %q: use a plain path such as /console/", p)
	}
	return "/" + strings.Trim(p, "/") + "/", nil
}

// Health answers GET /healthz: 200 and "ok", nothing about the server. It
// is the console's connectivity probe and a load balancer's or
// orchestrator's liveness check, which is why serve leaves it outside
// authentication.
var Health = HealthOf(nil)

// HealthOf is Health for a server that depends on something check
// reaches (a shared database): while check fails, 503 and "unhealthy",
// so that a load balancer sends operators and the API's webhooks to
// another server. What failed is not said: the probe has no sign-in.
func HealthOf(check func(context.Context) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !readOnly(w, r) {
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if check != nil {
			if err := check(r.Context()); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = io.WriteString(w, "unhealthy\n")
				return
			}
		}
		_, _ = io.WriteString(w, "ok\n")
	}
}

// readOnly refuses a request other than GET or HEAD with 405 and says so;
// it reports whether the request may go on.
func readOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// noReceiver answers the console's GET events when no webhook receiver is
// mounted (a receiver's "GET /events" is the more specific pattern and
// wins): 204 No Content, which the console reads as a server that
// receives no events. A 404 would say the same, but the browser logs it
// as an error on every page that shows events.
func noReceiver(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r) {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// favicon answers the icon browsers ask for beside any page that names
// none (robots.txt, a JSON answer opened in a tab) with the console's own,
// at icon, relative to the prefix. The redirect is temporary: the icon's
// hashed name changes with the build.
func favicon(icon string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.Redirect(w, r, icon, http.StatusFound)
	})
}

// robots keeps the console out of search engines: it is an internal tool.
func robots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
}
