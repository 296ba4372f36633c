// Package proxy forwards the console's API calls from its own origin to
// the API, so that the browser makes no cross-origin (preflighted) calls:
// /api/… goes to the standard API and /backoffice/… to the back-office API.
//
// Bodies stream both ways. Only the headers the contract needs cross:
// Authorization, api-key, idempotency-ref and the content headers on the
// way in; request-ref, the rate-limit headers and the content headers on
// the way out. Cookies of the console's origin never reach the API, and
// the API cannot set any. The log holds method, path, status and timing,
// never a header value or a body.
package proxy

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/accesslog"
)

// The path prefixes the proxy serves.
const (
	APIPrefix        = "/api"
	BackOfficePrefix = "/backoffice"
)

// maxBody bounds a request body: 10,000 of the largest elements fit.
const maxBody = 64 << 20

// Headers that cross the proxy; every other header stays behind.
var (
	requestHeaders  = []string{"Authorization", "api-key", "idempotency-ref", "Content-Type", "Accept"}
	responseHeaders = []string{"Content-Type", "Content-Length", "Cache-Control", "request-ref", "x-ratelimit-limit", "x-ratelimit-reset", "Retry-After"}
)

// Config says where the APIs are.
type Config struct {
	// APIURL is the standard API's base URL, such as
	// "https://api.example/multi".
	APIURL string
	// BackOfficeURL is the back-office API's base URL; empty leaves
	// /backoffice/… unserved.
	BackOfficeURL string
	// Transport forwards the requests; nil means a transport that waits at
	// most two minutes for an answer's headers.
	Transport http.RoundTripper
	// Logger records one line per call; nil logs nothing.
	Logger *slog.Logger
}

// New returns the handler of /api/… and /backoffice/…; mount it on both
// prefixes (or at the root).
func New(cfg Config) (http.Handler, error) {
	api, err := target("API", cfg.APIURL)
	if err != nil {
		return nil, err
	}
	var bo *url.URL
	if cfg.BackOfficeURL != "" {
		if bo, err = target("back-office API", cfg.BackOfficeURL); err != nil {
			return nil, err
		}
	}
	tr := cfg.Transport
	if tr == nil {
		tr = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          20,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 2 * time.Minute,
		}
	}
	p := &proxy{api: api, backOffice: bo, log: cfg.Logger}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		ModifyResponse: keepResponseHeaders,
		ErrorHandler:   p.fail,
		Transport:      tr,
		FlushInterval:  -1, // pass every write on at once
	}
	return accesslog.Wrap(cfg.Logger, "proxy", p), nil
}

func target(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the %s URL %q: %w", what, raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" {
		return nil, fmt.Errorf("the %s URL %q must be an absolute http:// or https:// URL without user or query", what, u.Redacted())
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

type proxy struct {
	api, backOffice *url.URL
	rp              *httputil.ReverseProxy
	log             *slog.Logger
}

// route returns the API a path goes to and the path there.
func (p *proxy) route(path string) (*url.URL, string, bool) {
	for prefix, u := range map[string]*url.URL{APIPrefix: p.api, BackOfficePrefix: p.backOffice} {
		rest, ok := strings.CutPrefix(path, prefix)
		if ok && (rest == "" || rest[0] == '/') && u != nil {
			return u, rest, true
		}
	}
	return nil, "", false
}

func (p *proxy) ServeHTTP(sw http.ResponseWriter, r *http.Request) {
	if _, _, ok := p.route(r.URL.Path); !ok {
		answer(sw, http.StatusNotFound, "no API is configured for "+r.URL.Path+" (the proxy serves "+APIPrefix+"/… and, when configured, "+BackOfficePrefix+"/…)")
		return
	}
	for _, seg := range strings.Split(r.URL.Path, "/") {
		if seg == ".." || seg == "." {
			answer(sw, http.StatusBadRequest, "the path must not hold . or .. segments")
			return
		}
	}
	r.Body = http.MaxBytesReader(sw, r.Body, maxBody)
	p.rp.ServeHTTP(sw, r)
}

func (p *proxy) rewrite(pr *httputil.ProxyRequest) {
	u, rest, _ := p.route(pr.In.URL.Path) // checked in ServeHTTP
	pr.Out.URL.Path, pr.Out.URL.RawPath = rest, ""
	pr.SetURL(u)
	pr.Out.Header = make(http.Header)
	for _, h := range requestHeaders {
		if v := pr.In.Header.Values(h); len(v) > 0 {
			pr.Out.Header[http.CanonicalHeaderKey(h)] = v
		}
	}
	// Leave the encoding to the transport: it asks for gzip and unpacks it.
}

func keepResponseHeaders(resp *http.Response) error {
	kept := make(http.Header)
	for _, h := range responseHeaders {
		if v := resp.Header.Values(h); len(v) > 0 {
			kept[http.CanonicalHeaderKey(h)] = v
		}
	}
	resp.Header = kept
	return nil
}

// fail answers a call the API did not answer; r is the request as sent to
// the API. The error names the host, never a header or a body.
func (p *proxy) fail(w http.ResponseWriter, r *http.Request, err error) {
	if p.log != nil {
		p.log.Warn("proxy: no answer from the API", "method", r.Method, "path", r.URL.Path, "error", err)
	}
	status := http.StatusBadGateway
	var mbe *http.MaxBytesError
	switch {
	case r.Context().Err() != nil:
		return // the browser went away: nobody to answer
	case errors.As(err, &mbe):
		status = http.StatusRequestEntityTooLarge
	}
	answer(w, status, fmt.Sprintf("the API at %s did not answer: %v", r.URL.Host, err))
}

func answer(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}
