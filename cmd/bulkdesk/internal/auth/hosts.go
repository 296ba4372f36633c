package auth

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// LoopbackHosts are the names a console listening on a loopback address
// is reached by.
var LoopbackHosts = []string{"localhost", "127.0.0.1", "[::1]"}

// ParseHosts reads a comma- or space-separated list of host names, each
// with or without a port ("console.example", "10.1.2.3:8443",
// "[::1]"). A name without a port matches the name on any port.
func ParseHosts(s string) ([]string, error) {
	var out []string
	for _, h := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if strings.ContainsAny(h, "/@?#") {
			return nil, fmt.Errorf("allowed host %q: give a host name, optionally with :port, not a URL", h)
		}
		out = append(out, strings.ToLower(h))
	}
	return out, nil
}

// Hosts returns next behind a check of the Host header: a request for any
// host not in allowed is answered 421 Misdirected Request. A page on
// another site that has its name resolve to this server's address (DNS
// rebinding) sends its own name in Host, and so is turned away.
func Hosts(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, allowed) {
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, "this server does not serve the host named in the request", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed matches a Host header against the list: an entry with a
// port must match exactly, one without matches on any port.
func hostAllowed(host string, allowed []string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
		if strings.Contains(h, ":") {
			name = "[" + h + "]" // IPv6, written as in the list
		}
	}
	for _, a := range allowed {
		if a == host || a == name {
			return true
		}
	}
	return false
}

// IsLoopback reports whether a listen address (host:port) is on a
// loopback interface only: localhost, 127.0.0.0/8 or ::1. An empty host
// or 0.0.0.0 listens on every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
