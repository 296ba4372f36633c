package auth

import (
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr is the address of the client that sent r: the TCP peer, or,
// when the peer is one of the trusted proxies, the nearest address in
// X-Forwarded-For that is not one of theirs. A client can write any
// X-Forwarded-For it likes, so only what trusted proxies appended, read
// from the right, is believed; an entry that does not read as an address
// ends the reading there.
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	client, ok := peerAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0 && inPrefixes(client, trusted); i-- {
		a, ok := hopAddr(strings.TrimSpace(hops[i]))
		if !ok {
			break
		}
		client = a
	}
	return client.String()
}

// hopAddr reads one entry of X-Forwarded-For: an address, which some
// proxies write with a port.
func hopAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		a = ap.Addr()
	}
	return a.Unmap().WithZone(""), true
}

// clientKey is what the failures of a client address are counted under:
// an IPv6 address by its /64, since one machine is commonly given a
// whole /64 to pick addresses from.
func clientKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Is6() {
		return addr
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}
