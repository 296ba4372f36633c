package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/apikey"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/bulkrecord"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/metrics"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// The environment variables of "bulkdesk serve", one per flag; a flag
// given on the command line wins.
const (
	envAddr           = "BULKDESK_ADDR"
	envPrefix         = "BULKDESK_PREFIX"
	envFrameAncestors = "BULKDESK_FRAME_ANCESTORS"
	envSandbox        = "BULKDESK_SANDBOX"
	envConnectSrc     = "BULKDESK_CONNECT_SRC"
	envWebhookAddr    = "BULKDESK_WEBHOOK_ADDR"
	envAuth           = "BULKDESK_AUTH"
	envAuthHeader     = "BULKDESK_AUTH_HEADER"
	envTrustedProxies = "BULKDESK_TRUSTED_PROXIES"
	envAuthFile       = "BULKDESK_AUTH_FILE"
	envAllowedHosts   = "BULKDESK_ALLOWED_HOSTS"
	envFourEyes       = "BULKDESK_FOUR_EYES"
	envStateDir       = "BULKDESK_STATE_DIR"
	envFourEyesUnk    = "BULKDESK_FOUR_EYES_UNKNOWN"
	envStore          = "BULKDESK_STORE"
	envAPIKeyFile     = "BULKDESK_API_KEY_FILE"
	envBOAPIKeyFile   = "BULKDESK_BACKOFFICE_API_KEY_FILE"
	// The API URLs share BULKDESK_API_URL and BULKDESK_BACKOFFICE_URL
	// with the commands that call the API (connect.go).
)

// serveConfig is what "bulkdesk serve" was asked to do.
type serveConfig struct {
	addr string
	// webhookAddr, when set, is a second listener for the API's webhooks
	// alone; the console listener then refuses them.
	webhookAddr string
	// access says who may use the console listener.
	access access
	// fourEyes, when on, keeps an operator from executing a bulk they
	// submitted.
	fourEyes fourEyes
	// store names the PostgreSQL database that several servers share
	// (-store): the four-eyes record, the webhook events and the repeat
	// check's record of bulks; "" for none.
	store string
	// stateDir is a single server's folder for the four-eyes record and
	// the record of bulks (-state-dir); "" for none.
	stateDir string
	// stateDirCheck is how often serve checks that stateDir is still the
	// folder it opened (watchStateDir); 0 means statedir.DefaultCheckEvery.
	stateDirCheck time.Duration
	options       server.Options
	// apiURL and backOfficeURL are where the same-origin proxy forwards
	// the console's /api/… and /backoffice/… calls; empty serves no proxy.
	apiURL, backOfficeURL string
	// apiKey and backOfficeKey are the server's api-keys of the proxied
	// APIs (-api-key-file, -backoffice-api-key-file): the proxy and the
	// record of bulks call each API with its key, whatever the browser
	// sends. Zero lets the browser's api-key through.
	apiKey, backOfficeKey apikey.Key
	// sandbox runs the sandbox API inside the server, under sandbox/,
	// and points the proxy at it unless apiURL is set.
	sandbox bool
	// webhooks configures the webhook receiver; it runs when it has a key,
	// and with the sandbox, which then signs its events with a key made
	// up for the run.
	webhooks receiver.Config
	// logger receives one line per proxied or sandbox request.
	logger *slog.Logger
	// webhookReady, when set, receives the webhook listener's base URL
	// (http://HOST:PORT/webhooks) once it listens.
	webhookReady func(url string)
}

// runServe implements "bulkdesk serve": serve the console until
// interrupted.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseServe(args, os.Getenv, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "bulkdesk serve:", err)
		}
		return exitUsage
	}
	ctx, stop := interrupted()
	defer stop()
	cfg.webhookReady = func(url string) {
		fmt.Fprintf(stdout, "Webhooks for the API on %s/…\n", url)
	}
	err = serveConsole(ctx, cfg, func(url string) {
		fmt.Fprintf(stdout, "Bulkdesk console on %s (Ctrl-C stops it)\n", url)
	})
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk serve:", err)
		return exitUsage
	}
	return exitOK
}

// parseServe reads the flags, with defaults from the environment.
func parseServe(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	or := func(env, def string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", or(envAddr, "127.0.0.1:8080"), "host:port to listen on (env "+envAddr+")")
	prefix := fs.String("prefix", or(envPrefix, "/"), "path the console is served under, e.g. /console/ behind a reverse proxy (env "+envPrefix+")")
	frame := fs.String("frame-ancestors", or(envFrameAncestors, ""), "origins allowed to embed the console in a frame, separated by spaces or commas; default: its own origin only (env "+envFrameAncestors+")")
	apiURL := fs.String("api-url", or(envAPIURL, ""), "the API's base URL, such as https://api.example/multi: the console's calls to api/… are forwarded there (env "+envAPIURL+")")
	boURL := fs.String("backoffice-url", or(envBackOfficeURL, ""), "the back-office API's base URL, such as https://api.example/multi/backoffice: calls to backoffice/… are forwarded there (env "+envBackOfficeURL+")")
	connect := fs.String("connect-src", or(envConnectSrc, ""), "origins of APIs the console may call directly rather than through its proxy, separated by spaces or commas; the origins of -api-url and -backoffice-url are always allowed (env "+envConnectSrc+")")
	sandboxDefault, _ := strconv.ParseBool(getenv(envSandbox))
	withSandbox := fs.Bool("sandbox", sandboxDefault, "also serve the sandbox API under sandbox/multi (credentials "+sandbox.DefaultAPIKey+" and "+sandbox.DefaultToken+") and, without -api-url, forward the console's calls to it, which then takes the key of -api-key-file instead of "+sandbox.DefaultAPIKey+" (env "+envSandbox+"=1)")
	keyFile := fs.String("api-key-file", or(envAPIKeyFile, ""), "a file holding the API's api-key alone, mode 0600, read once at start: the proxy adds it to every call it forwards, so operators need not hold it (env "+envAPIKeyFile+")")
	boKeyFile := fs.String("backoffice-api-key-file", or(envBOAPIKeyFile, ""), "a file holding the back-office API's api-key, mode 0600, when it is not the one of -api-key-file; without it the back-office API gets the key of -api-key-file, since one programme usually has one key (env "+envBOAPIKeyFile+")")
	quiet := fs.Bool("quiet", false, "do not log proxied and sandbox requests")
	webhookAddr := fs.String("webhook-addr", or(envWebhookAddr, ""), "host:port of a second listener for the API's webhooks: it serves only POST /webhooks/… (at its root, whatever -prefix) and GET /healthz, and accepts any Host, since the API calls it by whatever name it was given; the console listener then answers webhooks with 404 (env "+envWebhookAddr+")")
	authMode := fs.String("auth", or(envAuth, authNone), "who may use the console listener: none (only when every listener is on a loopback address), header (the user a trusted proxy names in -auth-header) or basic (HTTP Basic against -auth-file) (env "+envAuth+")")
	authHeader := fs.String("auth-header", or(envAuthHeader, auth.DefaultHeader), "with -auth header, the request header naming the signed-in user (env "+envAuthHeader+")")
	trusted := fs.String("trusted-proxies", or(envTrustedProxies, ""), "with -auth header, the CIDRs of the proxies whose -auth-header is believed, comma-separated, such as 10.0.4.0/24; from any other address the header is ignored; with -auth basic, of the load balancers whose X-Forwarded-For names the client failed sign-ins are counted by (env "+envTrustedProxies+")")
	authFile := fs.String("auth-file", or(envAuthFile, ""), "with -auth basic, an htpasswd file of bcrypt hashes (htpasswd -B) (env "+envAuthFile+")")
	hosts := fs.String("allowed-hosts", or(envAllowedHosts, ""), "Host names the console listener answers, comma-separated, each with or without :port; others get 421, which defeats DNS rebinding. Default: localhost, 127.0.0.1 and [::1] on a loopback address, else the -addr host. The webhook listener accepts any Host (env "+envAllowedHosts+")")
	fourEyesDefault, _ := strconv.ParseBool(getenv(envFourEyes))
	withFourEyes := fs.Bool("four-eyes", fourEyesDefault, "four eyes: an operator may not execute a bulk they submitted through the proxy; needs -auth header or basic and -state-dir or -store (env "+envFourEyes+"=1)")
	stateDir := fs.String("state-dir", or(envStateDir, ""), "folder where serve keeps its state: the record of who submitted each bulk, for -four-eyes, and the repeat check's record of the API's bulks, whose operations every console then reads once; one server at a time (env "+envStateDir+")")
	store := fs.String("store", or(envStore, ""), "postgres://user@host:port/database: keep what several servers behind one address share, the four-eyes record and the repeat check's record of bulks (instead of -state-dir) and the accepted webhook events (instead of -events-dir), in PostgreSQL (env "+envStore+")")
	fourEyesUnknown := fs.String("four-eyes-unknown", or(envFourEyesUnk, unknownRefuse), "with -four-eyes, what happens to the execution of a bulk this server has no record of (submitted elsewhere, or before -four-eyes): refuse or allow (env "+envFourEyesUnk+")")
	var webhooks receiver.Config
	webhooks.RegisterFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk serve [-addr HOST:PORT] [-prefix PATH] [-frame-ancestors ORIGINS] [-api-url URL [-backoffice-url URL]] [-api-key-file FILE [-backoffice-api-key-file FILE]] [-sandbox] [-webhook-key KEY ...] [-webhook-addr HOST:PORT] [-auth none|header|basic ...] [-allowed-hosts HOSTS] [-store postgres://…] [-four-eyes [-state-dir DIR] [-four-eyes-unknown refuse|allow]]")
		fmt.Fprintln(stderr, "\nServes the browser console; the WebAssembly and every asset are built into this binary.")
		fmt.Fprintln(stderr, "With -api-url it forwards the console's API calls (same origin, no CORS), adding the api-key of")
		fmt.Fprintln(stderr, "-api-key-file, which then stays on the server; with -webhook-key it")
		fmt.Fprintln(stderr, "receives signed webhook events under webhooks/ and streams them to the console.")
		fmt.Fprintln(stderr, "On a network, put it behind a sign-on portal with -auth header -trusted-proxies, and give")
		fmt.Fprintln(stderr, "the API -webhook-addr alone to reach.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return serveConfig{}, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return serveConfig{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := webhooks.ApplyEnv(fs, getenv); err != nil {
		return serveConfig{}, err
	}
	if *boURL != "" && *apiURL == "" {
		return serveConfig{}, fmt.Errorf("-backoffice-url needs -api-url")
	}
	acc, err := parseAccess(*authMode, *authHeader, *trusted, *authFile, *hosts)
	if err != nil {
		return serveConfig{}, err
	}
	fe, err := parseFourEyes(*withFourEyes, *fourEyesUnknown)
	if err != nil {
		return serveConfig{}, err
	}
	if *stateDir != "" && *store != "" {
		return serveConfig{}, fmt.Errorf("-state-dir and -store both say where the server keeps what it records: choose one")
	}
	key, boKey, err := readAPIKeys(*keyFile, *boKeyFile, *apiURL != "" || *withSandbox, *apiURL == "" && *withSandbox)
	if err != nil {
		return serveConfig{}, err
	}
	cfg := serveConfig{
		addr:        *addr,
		webhookAddr: *webhookAddr,
		access:      acc,
		fourEyes:    fe,
		store:       *store,
		stateDir:    *stateDir,
		options: server.Options{
			Prefix:         *prefix,
			FrameAncestors: server.ParseSources(*frame),
			ConnectSources: append(server.ParseSources(*connect), origins(*apiURL, *boURL)...),
		},
		apiURL:        *apiURL,
		backOfficeURL: *boURL,
		apiKey:        key,
		backOfficeKey: boKey,
		sandbox:       *withSandbox,
		webhooks:      webhooks,
	}
	if !*quiet {
		cfg.logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	if err := cfg.checkExposure(); err != nil {
		return serveConfig{}, err
	}
	if err := cfg.checkFourEyes(); err != nil {
		return serveConfig{}, err
	}
	return cfg, nil
}

// readAPIKeys reads the server's api-keys of the standard and back-office
// APIs from their files, once; the back-office API gets the standard key
// when it has no file of its own. proxied says the server forwards to an
// API, and sandbox that it forwards to its sandbox, which takes one key.
func readAPIKeys(file, boFile string, proxied, sandbox bool) (key, boKey apikey.Key, err error) {
	if (file != "" || boFile != "") && !proxied {
		return key, boKey, errors.New("-api-key-file and -backoffice-api-key-file are keys of the API the server forwards to: give -api-url or -sandbox too")
	}
	if file != "" {
		if key, err = apikey.Read(file); err != nil {
			return key, boKey, fmt.Errorf("-api-key-file: %w", err)
		}
	}
	boKey = key
	if boFile != "" {
		if boKey, err = apikey.Read(boFile); err != nil {
			return key, boKey, fmt.Errorf("-backoffice-api-key-file: %w", err)
		}
	}
	if sandbox && boKey != key {
		return key, boKey, errors.New("the sandbox has one api-key for both its APIs: give it in -api-key-file alone")
	}
	return key, boKey, nil
}

// origins returns the origins of the given URLs, leaving out empty and
// unreadable ones (their flags are checked where they are used).
func origins(urls ...string) []string {
	var out []string
	for _, raw := range urls {
		if u, err := url.Parse(raw); err == nil && u.Scheme != "" && u.Host != "" && !slices.Contains(out, u.Scheme+"://"+u.Host) {
			out = append(out, u.Scheme+"://"+u.Host)
		}
	}
	return out
}

// consoleAPI is what the console learns about reaching the API: the
// proxy and the sandbox this server runs, and the origins it may call
// directly.
func consoleAPI(cfg serveConfig) ui.APIConfig {
	api := ui.APIConfig{ConnectSources: cfg.options.ConnectSources}
	proxiesSandbox := cfg.sandbox && cfg.apiURL == ""
	if cfg.sandbox {
		api.Sandbox = &ui.SandboxConfig{
			Path:           strings.TrimPrefix(sandboxMount+sandbox.StandardBase, "/"),
			BackOfficePath: strings.TrimPrefix(sandboxMount+sandbox.BackOfficeBase, "/"),
			Proxied:        proxiesSandbox,
			APIKey:         sandbox.DefaultAPIKey,
			Token:          sandbox.DefaultToken,
			Identity:       sandbox.DefaultIdentity.String(),
		}
		if proxiesSandbox && !cfg.apiKey.IsZero() {
			api.Sandbox.APIKey = "" // the server's, which the page never sees
		}
	}
	api.FourEyes = cfg.fourEyes.on
	api.Proxy = cfg.apiURL != "" || proxiesSandbox
	api.Record = api.Proxy && (cfg.store != "" || cfg.stateDir != "")
	api.SharedEvents = cfg.store != "" && (cfg.webhooks.Enabled() || cfg.sandbox) // the sandbox makes a key
	api.BackOfficeProxy = cfg.backOfficeURL != "" || proxiesSandbox
	api.ServerKey = api.Proxy && !cfg.apiKey.IsZero()
	api.BackOfficeServerKey = api.BackOfficeProxy && !cfg.backOfficeKey.IsZero()
	if !proxiesSandbox {
		api.ProxyTarget, api.BackOfficeTarget = cfg.apiURL, cfg.backOfficeURL
	}
	return api
}

// sandboxMount is where serve mounts the sandbox below the console's root.
const sandboxMount = "/sandbox"

// sandboxScope names the sandbox's bulks in the record of bulks.
const sandboxScope = "sandbox"

// serveConsole runs the server until ctx is done; ready receives the
// console's URL once it listens.
func serveConsole(ctx context.Context, cfg serveConfig, ready func(url string)) error {
	if err := cfg.checkExposure(); err != nil {
		return err
	}
	if err := cfg.checkFourEyes(); err != nil {
		return err
	}
	var db *postgres.DB
	// joined is the receiver once made: with -store, the server is healthy
	// once its receiver has joined the shared events too.
	var joined atomic.Pointer[receiver.Receiver]
	if cfg.store != "" {
		if cfg.webhooks.Dir != "" {
			return fmt.Errorf("-store keeps the webhook events in the database: leave out -events-dir")
		}
		var err error
		if db, err = postgres.Connect(cfg.store); err != nil {
			return err
		}
		defer db.Close() // after the servers have shut down
		// The server listens at once; until its database answers it says
		// it is unhealthy, refuses webhooks with 503 (senders retry) and
		// refuses executions it cannot check.
		cfg.options.Check = func(ctx context.Context) error {
			if err := db.Health(ctx); err != nil {
				return err
			}
			if r := joined.Load(); r != nil && !r.Ready() {
				return errors.New("the webhook receiver is not following the shared events")
			}
			return nil
		}
		cfg.webhooks.Shared = db.Events()
		go cfg.waitForStore(ctx, db)
	}
	// Opened before listening: a record another server holds stops this
	// one at once.
	rule, records, err := cfg.openFourEyes(db)
	if err != nil {
		return err
	}
	if records != nil {
		defer records.Close() // after the servers have shut down
	}
	bulks, err := cfg.openBulkRecord(db)
	if err != nil {
		return err
	}
	if f, ok := bulks.(io.Closer); ok {
		defer f.Close() // after the servers have shut down
	}
	stopWatch, err := cfg.watchStateDir(ctx, rule, &bulks)
	if err != nil {
		return err
	}
	defer stopWatch()
	cfg.options.API = consoleAPI(cfg)
	s, err := server.New(cfg.options)
	if err != nil {
		return err
	}
	var rcv *receiver.Receiver
	m := metrics.New(func() int {
		if rcv == nil {
			return 0
		}
		return rcv.Streams()
	})
	console, err := cfg.access.protect(cfg.addr, s.Prefix(), s, auth.Refusals{Logger: cfg.logger, Failed: m.AuthFailure, Throttled: m.AuthThrottled})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("console listener: %w", err)
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String() + s.Prefix()
	listeners := []listener{{ln: ln, h: console}}

	// The webhook listener, when asked for, serves the receiver's POST
	// /webhooks/… and the health check, nothing else.
	var webhooks, sandboxWebhooks *http.ServeMux
	var webhookBase string // where the sandbox posts its events
	if cfg.webhookAddr != "" {
		wln, err := net.Listen("tcp", cfg.webhookAddr)
		if err != nil {
			return fmt.Errorf("webhook listener: %w", err)
		}
		defer wln.Close()
		webhooks = http.NewServeMux()
		webhooks.Handle("GET /healthz", server.HealthOf(cfg.options.Check))
		listeners = append(listeners, listener{ln: wln, h: webhooks})
		webhookBase = "http://" + wln.Addr().String() + "/webhooks"
		// Webhooks arrive on the other listener only.
		s.Handle("webhooks/", http.NotFoundHandler())
	}

	// scope names the proxied API's bulks in the record of bulks; "" names
	// them by the API's URL.
	scope := ""
	// apiTransport reaches the proxied API; nil: over the network.
	var apiTransport http.RoundTripper
	var inside *sandboxInside // the sandbox, in memory (serve_sandbox.go)
	if cfg.sandbox {
		if cfg.webhooks.Key.IsZero() {
			if cfg.webhooks.Key, err = webhook.NewRandomKey(); err != nil {
				return fmt.Errorf("making a webhook key for the sandbox: %w", err)
			}
		}
		receiver := "" // the sandbox posts its events in memory…
		if webhooks != nil {
			receiver = webhookBase // …or to the webhook listener
		}
		key := sandbox.DefaultAPIKey // the sandbox's own, for direct calls…
		if cfg.apiURL == "" && !cfg.apiKey.IsZero() {
			key = cfg.apiKey.Value() // …or the server's, when the proxy leads to it
		}
		if inside, err = startSandbox(key, cfg.webhooks.Key, receiver, cfg.logger); err != nil {
			return err
		}
		defer inside.close()
		listeners = append(listeners, listener{ln: inside.ln, h: inside.mux})
		if webhooks == nil {
			sandboxWebhooks = inside.mux
		}
		if cfg.apiURL == "" {
			cfg.apiURL, cfg.backOfficeURL = inside.urls()
			apiTransport, scope = inside.transport(), sandboxScope
		}
	}
	// The metrics, on the console listener behind its sign-in.
	s.Handle("GET metrics", m.Handler())
	// The console asks here whether its operator may execute a bulk and
	// which bulks await a second operator (serve_foureyes.go).
	handleFourEyes(s, rule)
	if cfg.apiURL != "" {
		pc := proxy.Config{APIURL: cfg.apiURL, BackOfficeURL: cfg.backOfficeURL, APIKey: cfg.apiKey.Value(), BackOfficeAPIKey: cfg.backOfficeKey.Value(), Transport: apiTransport, Logger: cfg.logger, Observe: m.ProxyCall}
		if rule != nil {
			pc.FourEyes, pc.Refused = rule, m.FourEyesRefusal
		}
		h, err := proxy.New(pc)
		if err != nil {
			return err
		}
		s.Handle("api/", h)
		s.Handle("backoffice/", h)
		if bulks != nil {
			rc := bulkrecord.Config{APIURL: cfg.apiURL, BackOfficeURL: cfg.backOfficeURL, APIKey: cfg.apiKey.Value(), BackOfficeAPIKey: cfg.backOfficeKey.Value(), Transport: apiTransport, Cache: bulks, Scope: scope}
			s.Handle("POST record/{api}", bulkrecord.Handler(rc))
		}
	}
	if inside != nil {
		h, err := inside.consoleRoutes(rule, scope == sandboxScope, m.FourEyesRefusal, cfg.logger)
		if err != nil {
			return err
		}
		s.Handle(sandboxMount+"/", h)
	}
	if cfg.webhooks.Enabled() {
		cfg.webhooks.OnEvent = m.Event
		if rcv, err = receiver.New(cfg.webhooks); err != nil {
			return err
		}
		joined.Store(rcv)
		if webhooks == nil {
			rcv.Mount(s.Mux())
		} else {
			h := rcv.Handler()
			s.Handle("GET events", h)
			s.Handle("GET events/stream", h)
			webhooks.Handle("POST /webhooks/", h)
		}
		if sandboxWebhooks != nil {
			sandboxWebhooks.Handle("POST /webhooks/", rcv.Handler())
		}
		listeners[0].onShutdown = append(listeners[0].onShutdown, rcv.CloseStreams)
		defer rcv.Close() // after the servers have shut down
	}

	ready(base)
	if cfg.webhookAddr != "" && cfg.webhookReady != nil {
		cfg.webhookReady(webhookBase)
	}
	return serveAll(ctx, listeners...)
}

// A listener is one address serve answers on, with its handler.
type listener struct {
	ln         net.Listener
	h          http.Handler
	onShutdown []func()
}

// serveAll serves every listener until ctx is done or one of them fails,
// then shuts them all down.
func serveAll(ctx context.Context, ls ...listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(ls))
	for _, l := range ls {
		go func() {
			err := serve(ctx, l.ln, l.h, l.onShutdown...)
			if err != nil {
				err = fmt.Errorf("serving on %s: %w", l.ln.Addr(), err)
			}
			cancel()
			errs <- err
		}()
	}
	var first error
	for range ls {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}
