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
//
// With the server's api-key (Config.APIKey, Config.BackOfficeAPIKey), every
// call to that API carries it in place of any api-key the browser sent, so
// that operators need not hold it; it goes to the API alone.
//
// With a four-eyes rule (Config.FourEyes), the proxy also records who
// submitted each bulk, as in flight before the call goes and from its
// answer after, and refuses to forward the execution of a bulk by the
// operator who submitted it, on any path that names it (see foureyes.go).
// It keeps a submission's body as it streams to the API and, once the
// answer names the bulk made, records the maker's receipt of those very
// bytes, with the file the console names in bulkapi.HeaderFileName, which
// stays behind (receipt.go); an accepted cancellation takes the bulk out of
// the approval queue.
package proxy

import (
	"context"
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

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/accesslog"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// The path prefixes the proxy serves.
const (
	APIPrefix        = "/api"
	BackOfficePrefix = "/backoffice"
)

// maxBody bounds a request body: 10,000 of the largest elements fit.
const maxBody = 64 << 20

// Defaults of the time the API gets: its answer's headers must come within
// HeaderTimeout, and the whole call, body included, within CallTimeout.
const (
	DefaultHeaderTimeout = 30 * time.Second
	DefaultCallTimeout   = 2 * time.Minute
)

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
	// APIKey and BackOfficeAPIKey, when set, are the api-keys of the
	// standard and the back-office API: the api-key header of every call
	// to that API, whatever the browser sent. Empty lets the browser's
	// api-key through.
	APIKey, BackOfficeAPIKey string
	// Transport forwards the requests; nil means a transport that waits at
	// most HeaderTimeout for an answer's headers.
	Transport http.RoundTripper
	// HeaderTimeout bounds the wait for the API's answer to begin;
	// 0 means DefaultHeaderTimeout.
	HeaderTimeout time.Duration
	// CallTimeout bounds a whole call, the answer's body included; 0 means
	// DefaultCallTimeout.
	CallTimeout time.Duration
	// Logger records one line per call; nil logs nothing.
	Logger *slog.Logger
	// Observe, when set, is told of every call: the API it went to
	// ("standard" or "backoffice"), the status answered (0 for a dropped
	// connection) and how long it took.
	Observe func(api string, status int, d time.Duration)
	// FourEyes, when set, records who submits each bulk and refuses its
	// execution by the same operator.
	FourEyes *approvals.Rule
	// Refused, when set, is told of every execution FourEyes refused, with
	// the reason (approvals.Refused…).
	Refused func(reason string)
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
	if cfg.HeaderTimeout == 0 {
		cfg.HeaderTimeout = DefaultHeaderTimeout
	}
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = DefaultCallTimeout
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
			ResponseHeaderTimeout: cfg.HeaderTimeout,
		}
	}
	p := &proxy{api: api, backOffice: bo, apiKey: cfg.APIKey, backOfficeKey: cfg.BackOfficeAPIKey, log: cfg.Logger, callTimeout: cfg.CallTimeout, fourEyes: cfg.FourEyes, refused: cfg.Refused}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.fail,
		Transport:      tr,
		FlushInterval:  -1, // pass every write on at once
	}
	var observed http.Handler = p
	if cfg.Observe != nil {
		observed = accesslog.Observe(p, func(r *http.Request, status int, d time.Duration) {
			cfg.Observe(apiName(r.URL.Path), status, d)
		})
	}
	return accesslog.Wrap(cfg.Logger, "proxy", observed), nil
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
	// apiKey and backOfficeKey are the server's api-keys of each API;
	// "" for none.
	apiKey, backOfficeKey string
	rp                    *httputil.ReverseProxy
	log                   *slog.Logger
	callTimeout           time.Duration
	fourEyes              *approvals.Rule
	refused               func(reason string)
}

// apiName names the API a proxy path goes to, as Observe and the
// four-eyes record do.
func apiName(path string) string {
	if strings.HasPrefix(path, BackOfficePrefix) {
		return "backoffice"
	}
	return "standard"
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
	_, rest, ok := p.route(r.URL.Path)
	if !ok {
		answer(sw, http.StatusNotFound, "no API is configured for "+r.URL.Path+" (the proxy serves "+APIPrefix+"/… and, when configured, "+BackOfficePrefix+"/…)")
		return
	}
	if why := trickyPath(r.URL); why != "" {
		answer(sw, http.StatusBadRequest, "the path must not hold "+why)
		return
	}
	if r.ContentLength > maxBody {
		answer(sw, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d MiB", maxBody>>20))
		return
	}
	r.Body = http.MaxBytesReader(sw, r.Body, maxBody)
	ctx, cancel := context.WithTimeout(r.Context(), p.callTimeout)
	defer cancel()
	r = r.WithContext(ctx)
	if p.fourEyes != nil {
		var allowed bool
		if r, allowed = p.checkFourEyes(sw, r, rest); !allowed {
			return
		}
	}
	p.rp.ServeHTTP(sw, r)
}

// trickyPath says what in a path could mean one thing here and another
// to a server behind the API's address, or "": dot segments, a ';' (path
// parameters, which some servers strip), a backslash (a separator to
// some), or an encoded '%', '/', '\' or '.', which a second decoding
// would turn into one of those.
func trickyPath(u *url.URL) string {
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == ".." || seg == "." {
			return ". or .. segments"
		}
	}
	raw := strings.ToLower(u.EscapedPath())
	switch {
	case strings.ContainsAny(u.Path, ";\\") || strings.ContainsAny(raw, ";\\"):
		return "';' or a backslash"
	case strings.Contains(raw, "%25"), strings.Contains(raw, "%2f"), strings.Contains(raw, "%5c"), strings.Contains(raw, "%2e"), strings.Contains(raw, "%3b"):
		return "an encoded '%', '/', '\\', '.' or ';'"
	}
	return ""
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
	if key := p.keyFor(pr.In.URL.Path); key != "" {
		pr.Out.Header.Set(bulkapi.HeaderAPIKey, key)
	}
	// Leave the encoding to the transport: it asks for gzip and unpacks it.
}

// keyFor returns the server's api-key of the API a proxy path goes to,
// or "" when the browser's is to cross.
func (p *proxy) keyFor(path string) string {
	if apiName(path) == "backoffice" {
		return p.backOfficeKey
	}
	return p.apiKey
}

func (p *proxy) modifyResponse(resp *http.Response) error {
	if err := keepResponseHeaders(resp); err != nil {
		return err
	}
	if p.fourEyes != nil {
		p.recordSubmission(resp)
		p.recordExecution(resp)
		p.recordCancellation(resp)
		p.recordState(resp)
	}
	return nil
}

func keepResponseHeaders(resp *http.Response) error {
	kept := make(http.Header)
	for _, h := range responseHeaders {
		if v := resp.Header.Values(h); len(v) > 0 {
			kept[http.CanonicalHeaderKey(h)] = v
		}
	}
	// What the API answers is financial data or a token: no cache on the
	// way, nor the browser's, may keep it.
	kept.Set("Cache-Control", "no-store")
	resp.Header = kept
	return nil
}

// fail answers a call the API did not answer; r is the request as sent to
// the API. The log names the host and the error; the answer names
// neither, so that the API's address stays on the server.
func (p *proxy) fail(w http.ResponseWriter, r *http.Request, err error) {
	if p.log != nil {
		p.log.Warn("proxy: no answer from the API", "method", r.Method, "host", r.URL.Host, "path", r.URL.Path, "error", err)
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		answer(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d MiB", maxBody>>20))
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		answer(w, http.StatusGatewayTimeout, "the API did not answer in time")
	case r.Context().Err() != nil:
		return // the browser went away: nobody to answer
	default:
		answer(w, http.StatusBadGateway, "the API could not be reached")
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func answer(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}
