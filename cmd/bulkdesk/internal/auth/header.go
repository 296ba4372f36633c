package auth

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// DefaultHeader is the header oauth2-proxy and most sign-on portals name
// the signed-in person with.
const DefaultHeader = "X-Forwarded-User"

// ParsePrefixes reads a comma- or space-separated list of CIDRs, such as
// "10.0.0.0/8, 192.168.1.4/32"; a bare address stands for itself alone.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if a, err := netip.ParseAddr(f); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not a CIDR such as 10.0.0.0/8: %w", f, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// Header returns next behind a check that the request came from one of
// the trusted proxies and names its sender in header. From any other peer
// the header is ignored, so the request is refused (401): anybody who
// reaches the listener directly could write it. A header that is not one
// person's name is refused with 400 Bad Request: given twice, or holding
// a comma (a proxy that appends its value to the client's makes
// "mallory, alice"), quotes, semicolons, control characters, spaces at an
// end or more than 256 bytes. Letters of any script, digits, spaces
// inside and . - _ + @ \ are taken, for logins, email addresses and
// DOMAIN\login.
func Header(header string, trusted []netip.Prefix, next http.Handler) http.Handler {
	return HeaderWith(header, trusted, Refusals{}, next)
}

// HeaderWith is Header telling refusals of the user headers it refuses
// with 400.
func HeaderWith(header string, trusted []netip.Prefix, refusals Refusals, next http.Handler) http.Handler {
	header = http.CanonicalHeaderKey(header)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values := r.Header.Values(header)
		// Whatever happens, the header goes no further: the proxy to
		// the API must not pass it on as if it were the API's.
		r.Header.Del(header)
		if !peerTrusted(r.RemoteAddr, trusted) {
			unauthorized(w, "sign in through the portal: this server accepts requests only from its trusted proxies")
			return
		}
		if len(values) == 0 || len(values) == 1 && values[0] == "" {
			unauthorized(w, "the portal did not name the signed-in user in "+header)
			return
		}
		// More than one line means something on the way added its own
		// beside what the client sent, and which is which cannot be told.
		fault := fmt.Sprintf("given %d times", len(values))
		if len(values) == 1 {
			fault = portalNameFault(values[0])
		}
		if fault != "" {
			refusals.failed(ReasonBadUserHeader, "user header refused", "header", header, "fault", fault,
				"value", loggable(strings.Join(values, "\n")), "peer", r.RemoteAddr)
			refuse(w, http.StatusBadRequest, "the portal's "+header+" does not hold one user's name")
			return
		}
		next.ServeHTTP(w, withUser(r, values[0]))
	})
}

// peerTrusted reports whether the TCP peer (http.Request.RemoteAddr) is in
// one of the prefixes.
func peerTrusted(remoteAddr string, trusted []netip.Prefix) bool {
	a, ok := peerAddr(remoteAddr)
	return ok && inPrefixes(a, trusted)
}

// peerAddr reads the address of the TCP peer (http.Request.RemoteAddr),
// an IPv4 address seen through an IPv6 socket as IPv4.
func peerAddr(remoteAddr string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

func inPrefixes(a netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
