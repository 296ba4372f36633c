// Package sandbox is a stand-in for the bulk part of the API, for
// newcomers, rehearsals and tests. It keeps everything in memory and
// honours the contract of the reference: every submission endpoint of the
// standard and back-office APIs (validated with the schema package), the
// api-key and bearer token, POST /access_token, idempotency-ref dedupe, the
// 10,000-operation limit, the lifecycle of a bulk process with 409 for
// every transition it forbids, execution over time with a share of failing
// operations, paged lists, and the signed bulk_process_end webhook.
//
// # Where things are
//
// The standard API is served under /multi, so its base URL is
// http://ADDR/multi. The back-office API is served under /multi/backoffice,
// as in the reference (its base URL is http://ADDR/multi/backoffice), and
// also under /backoffice for clients that were given that path.
//
// # Faults on demand
//
// Tests make the sandbox misbehave through [Sandbox.Faults]: fail the next
// N requests with 500, answer 429, or drop the connection after the request
// was acted on; or do each at random with a given share. Over HTTP the
// same is armed by a "sandbox-fault" request header ("500", "429" or
// "drop", optionally "; n=3" to include the next requests too) or by
// POST /sandbox/faults.
//
// # Deterministic failures
//
// An operation fails when its payload holds the text "SANDBOX-FAIL", or,
// with a fail share above 0, when a hash of its payload and position falls
// under the share: the same file fails on the same rows every time.
package sandbox

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/accesslog"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Defaults of the sandbox, also used by "make run" so that a newcomer can
// submit without real credentials.
const (
	DefaultAPIKey       = "sandbox-api-key"
	DefaultToken        = "sandbox-token"
	DefaultOpsPerSecond = 500
	// DefaultRefTTL is how long an idempotency-ref is remembered: the
	// contract promises at least 24 hours.
	DefaultRefTTL = 24 * time.Hour
)

// DefaultIdentity is the identity the configured token acts for.
var DefaultIdentity = bulkapi.Identity{Type: bulkapi.Corporate, ID: "1001"}

// Config sets up a sandbox.
type Config struct {
	// APIKey and Token are the only credentials accepted (besides tokens
	// the sandbox issues through /access_token).
	APIKey, Token string
	// Identity is whom Token acts for; zero means DefaultIdentity.
	Identity bulkapi.Identity
	// OpsPerSecond is how fast a running bulk executes its operations;
	// 0 means DefaultOpsPerSecond.
	OpsPerSecond float64
	// FailShare is the share (0 to 1) of operations that fail.
	FailShare float64
	// SendEvent delivers the bulk_process_end event; nil sends nothing.
	// WebhookSender is the usual one.
	SendEvent EventSender
	// RefTTL is how long an idempotency-ref is remembered; 0 means
	// DefaultRefTTL.
	RefTTL time.Duration
	// RateLimitReset is the x-ratelimit-reset a faked 429 announces;
	// 0 means one second, negative means 0 seconds.
	RateLimitReset time.Duration
	// Logger records one line per request: method, path, status and
	// duration, never a header value or a body. Nil logs nothing.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Contract is what the sandbox accepts, as the API would: nil means
	// the built-in contract. Advice is never a refusal here.
	Contract *schema.Source
}

// A Sandbox is the sandbox API. It is an http.Handler.
type Sandbox struct {
	cfg       Config
	validator *schema.Validator
	mux       *http.ServeMux
	handler   http.Handler
	faults    *Faults

	mu     sync.Mutex // guards the store and tokens below
	store  *store
	tokens map[string]principal

	// submitMu serialises submissions, so that a ref is checked and
	// recorded as one step even while a large body is validated.
	submitMu sync.Mutex

	refs    *refCounter
	ctx     context.Context // cancelled by Close: stops runs and deliveries
	stop    context.CancelFunc
	workers sync.WaitGroup
}

// New returns a sandbox; Close it to stop running bulks and deliveries.
func New(cfg Config) (*Sandbox, error) {
	if cfg.APIKey == "" || cfg.Token == "" {
		return nil, fmt.Errorf("sandbox: an api-key and a token are required")
	}
	if cfg.FailShare < 0 || cfg.FailShare > 1 {
		return nil, fmt.Errorf("sandbox: fail share %v is not between 0 and 1", cfg.FailShare)
	}
	if cfg.OpsPerSecond < 0 {
		return nil, fmt.Errorf("sandbox: %v operations per second is negative", cfg.OpsPerSecond)
	}
	if cfg.OpsPerSecond == 0 {
		cfg.OpsPerSecond = DefaultOpsPerSecond
	}
	if cfg.Identity == (bulkapi.Identity{}) {
		cfg.Identity = DefaultIdentity
	}
	if err := cfg.Identity.Check(); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if cfg.RefTTL == 0 {
		cfg.RefTTL = DefaultRefTTL
	}
	if cfg.RateLimitReset == 0 {
		cfg.RateLimitReset = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	validator := schema.Default()
	if cfg.Contract != nil {
		v, err := schema.NewValidatorFor(cfg.Contract, schema.Options{})
		if err != nil {
			return nil, fmt.Errorf("the sandbox's contract: %w", err)
		}
		validator = v
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Sandbox{
		cfg:       cfg,
		validator: validator,
		faults:    newFaults(),
		store:     newStore(cfg.Now()),
		tokens:    make(map[string]principal),
		refs:      newRefCounter(cfg.Now()),
		ctx:       ctx,
		stop:      stop,
	}
	s.routes()
	s.handler = accesslog.Wrap(cfg.Logger, "sandbox", http.HandlerFunc(s.serve))
	return s, nil
}

// Faults returns the sandbox's fault switchboard.
func (s *Sandbox) Faults() *Faults { return s.faults }

// Close stops every running bulk and pending webhook delivery and waits
// for them.
func (s *Sandbox) Close() {
	s.stop()
	s.workers.Wait()
}

// ServeHTTP serves the sandbox API.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Sandbox) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(bulkapi.HeaderRequestRef, s.refs.next())
	s.serveWithFaults(w, r)
}

// refCounter makes request-refs unique across restarts of the sandbox.
type refCounter struct {
	mu     sync.Mutex
	prefix string
	n      int
}

func newRefCounter(now time.Time) *refCounter {
	return &refCounter{prefix: fmt.Sprintf("sbx-%x", now.UnixMilli())}
}

func (c *refCounter) next() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return fmt.Sprintf("%s-%d", c.prefix, c.n)
}
