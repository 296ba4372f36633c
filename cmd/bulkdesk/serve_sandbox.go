package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/memlisten"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// The sandbox inside "bulkdesk serve". The server's own calls reach it in
// memory (memlisten): the proxy and the record of bulks when it stands in
// for the API, and its webhook sender the receiver when webhooks have no
// listener of their own. No TCP listener is opened for them, so nothing
// outside the process reaches the sandbox around the console listener's
// sign-in and Host check. On the console listener, sandbox/… goes
// through the four-eyes rule as api/… does.

// internalURL is where the server's own calls reach the sandbox; its host
// names nothing, since every connection is dialled in memory.
const internalURL = "http://sandbox.internal"

// sandboxInside is the sandbox serve runs, with what it serves in memory.
type sandboxInside struct {
	ln *memlisten.Listener
	// mux is what ln serves: the sandbox below sandboxMount, and the
	// receiver's webhooks when they have no listener of their own.
	mux *http.ServeMux
	sb  *sandbox.Sandbox
	// api is the sandbox, for paths below sandboxMount.
	api http.Handler
	// rule is the four-eyes rule of its own bulks, when they are not the
	// proxied API's (consoleRoutes).
	rule *approvals.Rule
}

// startSandbox starts the sandbox, which accepts apiKey; it signs its
// events with key and posts them to receiver (the webhook listener's base
// URL), or, when receiver is "", to the receiver mounted on mux at
// /webhooks/.
func startSandbox(apiKey string, key webhook.Key, receiver string, logger *slog.Logger) (*sandboxInside, error) {
	in := &sandboxInside{ln: memlisten.New(), mux: http.NewServeMux()}
	send := sandbox.WebhookSender(receiver, key, nil)
	if receiver == "" {
		send = sandbox.WebhookSender(internalURL+"/webhooks", key, &http.Client{Transport: in.ln.Transport()})
	}
	sb, err := sandbox.New(sandbox.Config{
		APIKey:    apiKey,
		Token:     sandbox.DefaultToken,
		SendEvent: send,
		Logger:    logger,
	})
	if err != nil {
		in.ln.Close()
		return nil, fmt.Errorf("starting the sandbox: %w", err)
	}
	in.sb = sb
	in.api = http.StripPrefix(sandboxMount, sb) // handlers see paths below the prefix
	in.mux.Handle(sandboxMount+"/", in.api)
	return in, nil
}

// urls returns the base URLs of the sandbox's standard and back-office
// APIs, reached through transport.
func (in *sandboxInside) urls() (api, backOffice string) {
	return internalURL + sandboxMount + sandbox.StandardBase, internalURL + sandboxMount + sandbox.BackOfficeBase
}

// transport reaches the sandbox in memory.
func (in *sandboxInside) transport() http.RoundTripper { return in.ln.Transport() }

// close stops the sandbox's runs and deliveries, the writes of its rule,
// and its listener.
func (in *sandboxInside) close() {
	in.sb.Close()
	if in.rule != nil {
		in.rule.Close()
	}
	in.ln.Close()
}

// consoleRoutes returns the handler of sandbox/… on the console listener.
// Without a rule it is the sandbox. With one, the sandbox's APIs
// (sandbox/multi/…, sandbox/multi/backoffice/… and sandbox/backoffice/…)
// go through a proxy that enforces it, so that a maker's execute there is
// refused as under api/…: with rule itself when the proxy's api/ leads to
// the sandbox too (proxied), else with a rule of its own on the same
// records whose bulks are kept apart from the API's. Its fault switch
// (sandbox/sandbox/…) is served as it is, and any other path is 404.
func (in *sandboxInside) consoleRoutes(rule *approvals.Rule, proxied bool, refused func(string), logger *slog.Logger) (http.Handler, error) {
	if rule == nil {
		return in.api, nil
	}
	if !proxied {
		in.rule = &approvals.Rule{Records: rule.Records, AllowUnknown: rule.AllowUnknown, Now: rule.Now, Scope: sandboxScope}
		rule = in.rule
	}
	api, backOffice := in.urls()
	gate, err := proxy.New(proxy.Config{APIURL: api, BackOfficeURL: backOffice, Transport: in.transport(), Logger: logger, FourEyes: rule, Refused: refused})
	if err != nil {
		return nil, err
	}
	// Longest first: the back-office API lies below the standard one.
	routes := []struct {
		from string
		h    http.Handler
	}{
		{sandboxMount + sandbox.BackOfficeBase, rebased(sandboxMount+sandbox.BackOfficeBase, proxy.BackOfficePrefix, gate)},
		// The sandbox's short path of its back-office API.
		{sandboxMount + "/backoffice", rebased(sandboxMount+"/backoffice", proxy.BackOfficePrefix, gate)},
		{sandboxMount + sandbox.StandardBase, rebased(sandboxMount+sandbox.StandardBase, proxy.APIPrefix, gate)},
		{sandboxMount + "/sandbox", in.api},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, rt := range routes {
			if rest, ok := strings.CutPrefix(r.URL.Path, rt.from); ok && (rest == "" || rest[0] == '/') {
				rt.h.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": "no such endpoint in the sandbox: " + r.Method + " " + r.URL.Path})
	}), nil
}

// rebased serves h with the path's prefix from replaced by to, in its
// decoded and its escaped form alike (http.StripPrefix, then to).
func rebased(from, to string, h http.Handler) http.Handler {
	return http.StripPrefix(from, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = to + r.URL.Path
		if r.URL.RawPath != "" {
			r.URL.RawPath = to + r.URL.RawPath
		}
		h.ServeHTTP(w, r)
	}))
}
