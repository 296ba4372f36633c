package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// redirectingServer is a server under prefix with an API mounted, as serve
// mounts its proxy, and a handler that redirects where its query says
// ("to"), with http.Redirect or, with "raw", by setting Location itself.
func redirectingServer(t *testing.T, prefix string) *server.Server {
	t.Helper()
	s := newServer(t, server.Options{Prefix: prefix})
	s.Handle("api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	s.Handle("moved/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		if r.URL.Query().Has("raw") {
			w.Header().Set("Location", to)
			w.WriteHeader(http.StatusSeeOther)
			return
		}
		http.Redirect(w, r, to, http.StatusFound)
	}))
	return s
}

// TestRedirectsStayUnderThePrefix: whatever redirects (Go's ServeMux
// cleaning a path or adding a subtree's slash, the prefix without its
// slash, the favicon, a mounted handler), the browser is sent below the
// prefix on this host, never to the root a reverse proxy does not pass,
// nor to another site.
func TestRedirectsStayUnderThePrefix(t *testing.T) {
	s := redirectingServer(t, "/console/")
	for _, c := range []struct{ target, location string }{
		// ServeMux cleaning the path below the prefix.
		{"/console//api/x", "/console/api/x"},
		{"/console/api//x", "/console/api/x"},
		{"/console/./x", "/console/x"},
		{"/console/x/..", "/console/"},
		{"/console/../x", "/console/x"},
		{"/console//evil.example", "/console/evil.example"},
		{"/console/.//evil.example", "/console/evil.example"},
		{"/console//api/x?q=//evil.example", "/console/api/x?q=//evil.example"},
		// ServeMux adding a subtree's slash.
		{"/console/api", "/console/api/"},
		{"/console/web", "/console/web/"},
		// The prefix without its slash.
		{"/console", "/console/"},
		// A mounted handler's redirects.
		{"/console/moved/a/b?to=../elsewhere", "/console/moved/elsewhere"},
		{"/console/moved/a?to=/x", "/console/x"},
		{"/console/moved/a?to=//evil.example", "/console/evil.example"},
		{"/console/moved/a?raw&to=//evil.example/x", "/console/evil.example/x"},
		{"/console/moved/a?raw&to=/%5Cevil.example", "/console/%5Cevil.example"},
		{"/console/moved/a?raw&to=../../../x", "/console/x"},
		{"/console/moved/a?raw&to=https://api.example/multi/bulks/1", "https://api.example/multi/bulks/1"},
	} {
		for _, method := range []string{"GET", "POST"} {
			res, body := get(t, s, method, c.target)
			loc := res.Header.Get("Location")
			if res.StatusCode < 300 || res.StatusCode > 399 || loc != c.location {
				t.Errorf("%s %s: %d to %q, want a redirect to %q", method, c.target, res.StatusCode, loc, c.location)
			}
			if strings.Contains(string(body), `href="/`) && !strings.Contains(string(body), `href="/console/`) {
				t.Errorf("%s %s: the body links out of the prefix: %q", method, c.target, body)
			}
		}
	}

	res, _ := get(t, s, "GET", "/console/favicon.ico")
	icon := res.Header.Get("Location")
	if res.StatusCode != http.StatusFound || !strings.HasPrefix(icon, "/console/web/icon.") {
		t.Fatalf("favicon.ico: %d to %q, want the icon under /console/web/", res.StatusCode, icon)
	}
	if res, _ := get(t, s, "GET", icon); res.StatusCode != http.StatusOK {
		t.Errorf("the icon favicon.ico leads to: %d", res.StatusCode)
	}
}

// TestRedirectsNeverLeadToAnotherSite: without a prefix too, a path that
// looks like another host ("//evil.example", "/\evil.example") stays a
// path of this host.
func TestRedirectsNeverLeadToAnotherSite(t *testing.T) {
	s := redirectingServer(t, "/")
	for _, target := range []string{
		"//evil.example",
		"///evil.example",
		"/./\\evil.example",
		"/moved/a?to=//evil.example",
		"/moved/a?raw&to=//evil.example",
		"/moved/a?raw&to=/\\evil.example",
		"/moved/a?raw&to=\\\\evil.example",
	} {
		res, _ := get(t, s, "GET", target)
		loc := res.Header.Get("Location")
		if res.StatusCode < 300 || res.StatusCode > 399 || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") {
			t.Errorf("GET %s: %d to %q, want a redirect to a path of this host", target, res.StatusCode, loc)
		}
	}
}

// TestStreamsFlushThroughThePrefix: what the prefix adds to the answer
// leaves a stream able to flush, as the events and the record's progress
// do.
func TestStreamsFlushThroughThePrefix(t *testing.T) {
	s := newServer(t, server.Options{Prefix: "/console/"})
	s.Handle("stream", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).Flush(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}))
	if res, body := get(t, s, "GET", "/console/stream"); res.StatusCode != http.StatusOK {
		t.Errorf("a stream flushing: %d %q", res.StatusCode, body)
	}
}
