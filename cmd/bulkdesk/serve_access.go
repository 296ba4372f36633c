package main

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// The values of -auth.
const (
	authNone   = "none"
	authHeader = "header"
	authBasic  = "basic"
)

// howToChoose ends the refusals of -auth none on a network.
const howToChoose = "choose who may use it: -auth header -trusted-proxies CIDRS behind a sign-on portal that names the user in X-Forwarded-User, or -auth basic -auth-file HTPASSWD"

// access says who may use the console listener and under which names.
type access struct {
	mode   string // authNone, authHeader or authBasic; "" is authNone
	header string
	// trusted are the portal's addresses with -auth header, the load
	// balancer's with -auth basic.
	trusted []netip.Prefix
	users   *auth.Users
	// hosts are the Host headers the console listener answers; empty
	// means the default for its address (see allowedHosts).
	hosts []string
	// now is the clock of the Basic sessions and throttle; time.Now
	// when nil (tests stop it).
	now func() time.Time
}

// parseAccess reads -auth and the flags that go with it. The password
// file is read now, so that a bad one stops serve before it listens.
func parseAccess(mode, header, trusted, file, hosts string) (access, error) {
	a := access{mode: mode, header: header}
	var err error
	if a.hosts, err = auth.ParseHosts(hosts); err != nil {
		return access{}, fmt.Errorf("-allowed-hosts: %w", err)
	}
	switch mode {
	case authNone:
	case authHeader:
		if strings.TrimSpace(header) == "" {
			return access{}, fmt.Errorf("-auth header needs -auth-header, such as %s", auth.DefaultHeader)
		}
		if a.trusted, err = auth.ParsePrefixes(trusted); err != nil {
			return access{}, fmt.Errorf("-trusted-proxies: %w", err)
		}
		if len(a.trusted) == 0 {
			return access{}, fmt.Errorf("-auth header needs -trusted-proxies, the CIDRs of the portal that sets %s: from anywhere else the header could be written by anyone", header)
		}
	case authBasic:
		if file == "" {
			return access{}, fmt.Errorf("-auth basic needs -auth-file, an htpasswd file of bcrypt hashes (htpasswd -B)")
		}
		if a.users, err = auth.LoadHtpasswd(file); err != nil {
			return access{}, fmt.Errorf("-auth-file: %w", err)
		}
		// Optional here: a load balancer whose X-Forwarded-For names the
		// client whose failed sign-ins are counted.
		if a.trusted, err = auth.ParsePrefixes(trusted); err != nil {
			return access{}, fmt.Errorf("-trusted-proxies: %w", err)
		}
	default:
		return access{}, fmt.Errorf("-auth %q: use none, header or basic", mode)
	}
	return a, nil
}

// checkExposure refuses what would serve the console, or take webhooks,
// without authentication beyond this machine, or with authentication
// nobody can pass.
func (cfg serveConfig) checkExposure() error {
	a := cfg.access
	if a.mode == "" || a.mode == authNone {
		for _, l := range []struct{ flag, addr string }{{"-addr", cfg.addr}, {"-webhook-addr", cfg.webhookAddr}} {
			if l.addr != "" && !auth.IsLoopback(l.addr) {
				return fmt.Errorf("%s %s is not a loopback address and -auth is none, which would serve the console to anyone who can reach it: listen on 127.0.0.1, or %s", l.flag, l.addr, howToChoose)
			}
		}
	} else if cfg.webhooks.Enabled() && cfg.webhookAddr == "" {
		return fmt.Errorf("with -auth %s, webhooks on the console listener would need a signed-in user, which the API cannot be: give -webhook-addr, a listener of their own", a.mode)
	}
	if cfg.webhookAddr != "" && !cfg.webhooks.Enabled() && !cfg.sandbox {
		return fmt.Errorf("-webhook-addr needs -webhook-key (or -sandbox): without a key there is no receiver to serve")
	}
	if len(a.hosts) == 0 {
		if _, err := allowedHosts(cfg.addr); err != nil {
			return err
		}
	}
	return nil
}

// allowedHosts is the default of -allowed-hosts: the loopback names on a
// loopback address, else the host of -addr. An address on every
// interface has no name of its own, so it needs the flag.
func allowedHosts(addr string) ([]string, error) {
	if auth.IsLoopback(addr) {
		return auth.LoopbackHosts, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-addr %q: %w", addr, err)
	}
	if ip, err := netip.ParseAddr(host); host == "" || err == nil && ip.IsUnspecified() {
		return nil, fmt.Errorf("-addr %s listens on every interface: give -allowed-hosts, the names the console is reached by (such as bulkdesk.internal.example)", addr)
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return []string{strings.ToLower(host)}, nil
}

// protect puts the console behind the Host check and the sign-in, except
// GET /healthz: a load balancer's probe has neither a user nor, often,
// the console's name; and GET manifest.webmanifest, behind the Host check
// only: Chromium sometimes fetches a web app manifest without cookies or
// Basic credentials whatever its link asks, and the manifest holds the
// console's name, colours and icons' paths, nothing an operator entered.
// The sign-ins refused go to the log and the metrics in refusals.
func (a access) protect(addr, prefix string, console http.Handler, refusals auth.Refusals) (http.Handler, error) {
	h := console
	switch a.mode {
	case authHeader:
		h = auth.HeaderWith(a.header, a.trusted, refusals, h)
	case authBasic:
		var err error
		if h, err = auth.Basic(a.users, auth.BasicOptions{CookiePath: prefix, TrustedProxies: a.trusted, Refusals: refusals, Now: a.now}, h); err != nil {
			return nil, err
		}
	}
	hosts := a.hosts
	if len(hosts) == 0 {
		var err error
		if hosts, err = allowedHosts(addr); err != nil {
			return nil, err
		}
	}
	h = auth.Hosts(hosts, h)
	manifest := auth.Hosts(hosts, console)
	health, webManifest := prefix+"healthz", prefix+"manifest.webmanifest"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch {
		case read && r.URL.Path == health:
			console.ServeHTTP(w, r)
		case read && r.URL.Path == webManifest:
			manifest.ServeHTTP(w, r)
		default:
			h.ServeHTTP(w, r)
		}
	}), nil
}
