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
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema/contract/load"
)

// runSandbox implements "bulkdesk sandbox": serve the sandbox API until
// interrupted.
func runSandbox(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8081", "address to listen on (loopback unless -public)")
	public := fs.Bool("public", false, "allow listening on an address other than loopback")
	apiKey := fs.String("api-key", sandbox.DefaultAPIKey, "the api-key the sandbox accepts")
	token := fs.String("token", sandbox.DefaultToken, "the bearer token the sandbox accepts")
	identity := fs.String("identity", sandbox.DefaultIdentity.String(), "the identity the token acts for, TYPE:ID")
	webhookURL := fs.String("webhook-url", "", "webhook receiver's base URL, such as http://127.0.0.1:8080/webhooks: the signed bulk_process_end event goes to URL/bulk_process_end/watch")
	webhookKey := fs.String("webhook-key", "", "key that signs webhook events (default: the api-key)")
	failShare := fs.Float64("fail-share", 0, "share of operations that fail, 0 to 1")
	rate := fs.Float64("ops-per-second", sandbox.DefaultOpsPerSecond, "how fast a running bulk executes its operations")
	fail500 := fs.Int("fault-500", 0, "answer the first N API requests with 500")
	fail429 := fs.Int("fault-429", 0, "answer the first N API requests with 429")
	failDrop := fs.Int("fault-drop", 0, "act on the first N API requests, then drop their connections")
	quiet := fs.Bool("quiet", false, "do not log requests")
	var cf contractFlags
	cf.registerFile(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bulkdesk sandbox [-addr 127.0.0.1:8081] [-api-key KEY] [-token TOKEN] [-webhook-url URL [-webhook-key KEY]] [-fail-share 0.05] [-ops-per-second 500] [-contract OPENAPI.yml]")
		fmt.Fprintln(stderr, "\nServes a stand-in for the bulk API: the standard API under /multi, the back-office")
		fmt.Fprintln(stderr, "API under /multi/backoffice (and /backoffice). Faults on demand: the sandbox-fault")
		fmt.Fprintln(stderr, "request header (500, 429 or drop; \"; n=N\") or POST /sandbox/faults.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	id, err := bulkapi.ParseIdentity(*identity)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk sandbox:", err)
		return exitUsage
	}
	cfg := sandbox.Config{APIKey: *apiKey, Token: *token, Identity: id, OpsPerSecond: *rate, FailShare: *failShare}
	if cf.file != "" {
		ct, err := readContract(cf.file, true)
		if err != nil {
			fmt.Fprintln(stderr, "bulkdesk sandbox:", err)
			return exitUsage
		}
		cfg.Contract = load.Source(ct)
	}
	if !*quiet {
		cfg.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	if *webhookURL != "" {
		key := *webhookKey
		if key == "" {
			key = *apiKey
		}
		cfg.SendEvent = sandbox.WebhookSender(*webhookURL, webhook.NewKey(key), nil)
	}
	sb, err := sandbox.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk sandbox:", err)
		return exitUsage
	}
	defer sb.Close()
	sb.Faults().Next(sandbox.Fail, *fail500)
	sb.Faults().Next(sandbox.RateLimit, *fail429)
	sb.Faults().Next(sandbox.Drop, *failDrop)

	ln, err := listen(*addr, *public)
	if err != nil {
		fmt.Fprintln(stderr, "bulkdesk sandbox:", err)
		return exitUsage
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "sandbox: standard API at %s%s, back-office API at %s%s\n", base, sandbox.StandardBase, base, sandbox.BackOfficeBase)
	if *apiKey == sandbox.DefaultAPIKey && *token == sandbox.DefaultToken {
		fmt.Fprintf(stdout, "sandbox: default credentials: api-key %q, token %q (identity %s)\n", sandbox.DefaultAPIKey, sandbox.DefaultToken, id)
	}
	ctx, stop := interrupted()
	defer stop()
	if err := serve(ctx, ln, sb); err != nil {
		fmt.Fprintln(stderr, "bulkdesk sandbox:", err)
		return exitInvalid
	}
	return exitOK
}

// listen opens addr, on loopback only unless public is set.
func listen(addr string, public bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); !public && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("address %q is not loopback: the sandbox accepts made-up credentials, so it listens on 127.0.0.1 unless -public is given", addr)
	}
	return net.Listen("tcp", addr)
}

// timeouts bound what one connection may take of a server, so that slow
// or silent clients cannot hold its connections: the request's headers,
// the whole request with its body (a body sent a byte at a time is cut),
// the answer (long enough for a proxied call; the event stream lifts it
// for itself), and an idle keep-alive connection.
type timeouts struct {
	header, read, write, idle time.Duration
}

// serverTimeouts are the servers' timeouts; tests shorten them.
var serverTimeouts = timeouts{header: 10 * time.Second, read: 30 * time.Second, write: 3 * time.Minute, idle: 2 * time.Minute}

// shutdownWait is how long requests under way may take to finish when a
// server stops; then their connections are closed.
const shutdownWait = 10 * time.Second

// serve serves h on ln until ctx ends, then shuts down gracefully, calling
// onShutdown first (to end long-lived streams, which Shutdown waits for).
func serve(ctx context.Context, ln net.Listener, h http.Handler, onShutdown ...func()) error {
	t := serverTimeouts
	srv := &http.Server{Handler: h, ReadHeaderTimeout: t.header, ReadTimeout: t.read, WriteTimeout: t.write, IdleTimeout: t.idle}
	for _, f := range onShutdown {
		srv.RegisterOnShutdown(f)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Shutdown counts a connection that has sent nothing yet (a browser's
	// preconnect) as busy for its first 5 seconds: a shorter wait fails
	// whenever a browser opened one just before the stop.
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		_ = srv.Close()
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
