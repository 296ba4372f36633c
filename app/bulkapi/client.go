package bulkapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// Header names of the API's contract.
const (
	HeaderAPIKey         = "api-key"
	HeaderIdempotencyRef = "idempotency-ref"
	HeaderRequestRef     = "request-ref"
	HeaderRateLimit      = "x-ratelimit-limit"
	HeaderRateLimitReset = "x-ratelimit-reset"
)

// maxErrorBody bounds how much of a refusal's body is read.
const maxErrorBody = 1 << 20

// Config says where the API is and who calls it.
type Config struct {
	// BaseURL is the standard API's base URL, such as
	// "https://sandbox.example/multi", or the console's proxy
	// ("http://127.0.0.1:8080/api"). It must be absolute.
	BaseURL string
	// BackOfficeURL is the back-office API's base URL, such as
	// "https://sandbox.example/multi/backoffice"; empty when unused.
	BackOfficeURL string
	// APIKey goes into the api-key header of every call.
	APIKey string
	// Token is the bearer token of the user (standard API) or of the
	// identity obtained with AccessToken (back-office API).
	Token string
	// Transport sends the requests; nil means http.DefaultTransport, which
	// in the browser is fetch.
	Transport http.RoundTripper
	// Timeout bounds each call, from sending it to reading the whole
	// answer; 0 means none. A call that runs out is a *TransportError the
	// submission may retry with the same idempotency-ref.
	Timeout time.Duration
}

// String shows where the config points, never its secrets.
func (c Config) String() string {
	return fmt.Sprintf("bulkapi.Config{BaseURL: %q, BackOfficeURL: %q, APIKey: %s, Token: %s}",
		c.BaseURL, c.BackOfficeURL, redacted(c.APIKey), redacted(c.Token))
}

// GoString is String, so that %#v shows no secret either.
func (c Config) GoString() string { return c.String() }

func redacted(s string) string {
	if s == "" {
		return "unset"
	}
	return "set"
}

// A Client calls one of the two APIs, standard or back-office, with one set
// of credentials. It is safe for concurrent use; its With… methods return
// changed copies.
type Client struct {
	cfg        Config
	base       *url.URL
	backOffice bool
	hc         *http.Client
	// fileName is HeaderFileName's value on submissions (WithFileName).
	fileName string
}

// New returns a client of the standard API.
func New(cfg Config) (*Client, error) {
	base, err := parseBase(lang.Mark("API"), cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.BackOfficeURL != "" {
		if _, err := parseBase(lang.Mark("back-office API"), cfg.BackOfficeURL); err != nil {
			return nil, err
		}
	}
	return &Client{cfg: cfg, base: base, hc: &http.Client{Transport: cfg.Transport, Timeout: cfg.Timeout}}, nil
}

// parseBase reads the base URL of the API what names; its refusals are
// said in the operator's language (lang.Errorf), as the console shows
// them.
func parseBase(what, raw string) (*url.URL, error) {
	w := lang.Word(what)
	if raw == "" {
		return nil, lang.Errorf("the %s base URL is not set", w)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, lang.Errorf("the %s base URL %q is not a URL", w, raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, lang.Errorf("the %s base URL %q must be absolute, http:// or https://", w, raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, lang.Errorf("the %s base URL %q must hold no user, query or fragment", w, u.Redacted())
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// BackOffice returns a copy of the client that calls the back-office API.
func (c *Client) BackOffice() (*Client, error) {
	if c.backOffice {
		return c, nil
	}
	base, err := parseBase(lang.Mark("back-office API"), c.cfg.BackOfficeURL)
	if err != nil {
		return nil, err
	}
	d := *c
	d.base, d.backOffice = base, true
	return &d, nil
}

// Standard returns a copy of the client that calls the standard API.
func (c *Client) Standard() *Client {
	if !c.backOffice {
		return c
	}
	d := *c
	d.base, _ = parseBase("API", c.cfg.BaseURL) // checked by New
	d.backOffice = false
	return &d
}

// IsBackOffice reports whether the client calls the back-office API.
func (c *Client) IsBackOffice() bool { return c.backOffice }

// BaseURL returns the base URL the client calls.
func (c *Client) BaseURL() string { return c.base.String() }

// Credentials returns the headers that authenticate the client's calls
// (api-key, and Authorization with the bearer token), for the console's
// server, which calls the API on the caller's behalf.
func (c *Client) Credentials() http.Header {
	h := make(http.Header)
	if c.cfg.APIKey != "" {
		h.Set(HeaderAPIKey, c.cfg.APIKey)
	}
	if c.cfg.Token != "" {
		h.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	return h
}

// WithToken returns a copy of the client that sends another bearer token.
func (c *Client) WithToken(token string) *Client {
	d := *c
	d.cfg.Token = token
	return &d
}

// String names the API the client calls, never its secrets.
func (c *Client) String() string {
	api := "standard"
	if c.backOffice {
		api = "back-office"
	}
	return fmt.Sprintf("bulkapi.Client{%s API at %s, api-key %s, token %s}", api, c.base, redacted(c.cfg.APIKey), redacted(c.cfg.Token))
}

// GoString is String, so that %#v shows no secret either.
func (c *Client) GoString() string { return c.String() }

// A call is one request to the API.
type call struct {
	method string
	path   string // relative to the base URL, starting with "/"
	query  url.Values
	body   []byte // nil for none
	ref    string // idempotency-ref, or ""
	auth   bool   // send the bearer token
	// fileName is HeaderFileName's value, or "".
	fileName string
}

// do sends a call and decodes a 2xx answer's JSON body into out (if out is
// not nil). Any other answer becomes an *Error; no answer a *TransportError.
func (c *Client) do(ctx context.Context, cl call, out any) error {
	u := *c.base
	u.Path += cl.path
	if len(cl.query) > 0 {
		u.RawQuery = cl.query.Encode()
	}
	var body io.Reader = http.NoBody
	if cl.body != nil {
		body = bytes.NewReader(cl.body)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, u.String(), body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", cl.method, cl.path, err)
	}
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set(HeaderAPIKey, c.cfg.APIKey)
	}
	if cl.auth && c.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	if cl.ref != "" {
		req.Header.Set(HeaderIdempotencyRef, cl.ref)
	}
	if cl.fileName != "" {
		req.Header.Set(HeaderFileName, cl.fileName)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("%s %s: %w", cl.method, cl.path, ctxErr)
		}
		return &TransportError{Method: cl.method, Path: cl.path, Err: unwrapURLError(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return readError(cl, resp)
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("%s %s: %w", cl.method, cl.path, ctxErr)
		}
		return &TransportError{Method: cl.method, Path: cl.path, Err: fmt.Errorf("reading the %d answer: %w", resp.StatusCode, err)}
	}
	return nil
}

// unwrapURLError drops the *url.Error layer, whose text repeats the URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// errorBody is every field a refusal's JSON body may hold.
type errorBody struct {
	Message      string `json:"message"`
	Code         string `json:"code"`
	ErrorCode    string `json:"errorCode"`
	SyntaxErrors *struct {
		InvalidFields []InvalidField `json:"invalidFields"`
	} `json:"syntaxErrors"`
	ValidationErrors []InvalidField `json:"validationErrors"`
}

func readError(cl call, resp *http.Response) *Error {
	e := &Error{
		Method:     cl.method,
		Path:       cl.path,
		Status:     resp.StatusCode,
		RequestRef: resp.Header.Get(HeaderRequestRef),
		RateLimit:  resp.Header.Get(HeaderRateLimit),
	}
	if s := resp.Header.Get(HeaderRateLimitReset); s != "" {
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32); err == nil && n >= 0 {
			e.RateLimitReset = time.Duration(n) * time.Second
		}
	}
	if e.RateLimitReset == 0 {
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n > 0 {
			e.RateLimitReset = time.Duration(n) * time.Second
		}
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var b errorBody
	if json.Unmarshal(data, &b) == nil {
		e.Message = b.Message
		e.Code = b.ErrorCode
		if e.Code == "" {
			e.Code = b.Code
		}
		if b.SyntaxErrors != nil {
			e.InvalidFields = b.SyntaxErrors.InvalidFields
		}
		e.InvalidFields = append(e.InvalidFields, b.ValidationErrors...)
	}
	return e
}

// CloseIdleConnections closes the connections kept open for the next
// requests: a command calls it when done, so that no server waits on
// them.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }
