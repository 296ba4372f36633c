//go:build linux

package main

import (
	"encoding/hex"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeListensOnlyWhereItSaysIt: serve -sandbox opens the console
// listener and the webhook listener, nothing else; the server's own calls
// reach the sandbox and the receiver in memory. A listener of any other
// kind would answer without -auth and for any Host.
func TestServeListensOnlyWhereItSaysIt(t *testing.T) {
	before := tcpListeners(t)
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-webhook-addr", "127.0.0.1:0", "-four-eyes", "-state-dir", t.TempDir())
	own := map[string]bool{hostOf(t, s.url): true, hostOf(t, s.webhooks): true}
	if after := tcpListeners(t); !after[hostOf(t, s.url)] || !after[hostOf(t, s.webhooks)] {
		t.Fatalf("the listeners read %v do not hold the console's %s and the webhooks' %s", after, s.url, s.webhooks)
	}
	for addr := range tcpListeners(t) {
		if before[addr] || own[addr] {
			continue
		}
		res, body := call(t, "GET", "http://"+addr+"/sandbox/multi/bulks", func(r *http.Request) { r.Host = "attacker.example" }, apiCredentials)
		t.Errorf("serve also listens on %s, which answers GET /sandbox/multi/bulks for Host attacker.example, without signing in: %d %.100s", addr, res.StatusCode, body)
	}
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// tcpListeners returns the addresses this process listens on over TCP,
// from its sockets in /proc/self/fd and their states in
// /proc/self/net/tcp and tcp6.
func tcpListeners(t *testing.T) map[string]bool {
	t.Helper()
	fds, err := filepath.Glob("/proc/self/fd/*")
	if err != nil {
		t.Fatal(err)
	}
	mine := make(map[string]bool)
	for _, fd := range fds {
		if link, err := os.Readlink(fd); err == nil && strings.HasPrefix(link, "socket:[") {
			mine[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	out := make(map[string]bool)
	for _, table := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			const listening = "0A"
			if len(f) < 10 || f[3] != listening || !mine[f[9]] {
				continue
			}
			if addr, ok := procAddr(f[1]); ok {
				out[addr.String()] = true
			}
		}
	}
	return out
}

// procAddr reads an address of /proc/net/tcp: the IP as 32-bit words in
// the host's (little-endian) order, then the port, in hex.
func procAddr(s string) (netip.AddrPort, bool) {
	ipHex, portHex, ok := strings.Cut(s, ":")
	ip, err := hex.DecodeString(ipHex)
	port, perr := hex.DecodeString(portHex)
	if !ok || err != nil || perr != nil || len(port) != 2 || len(ip)%4 != 0 {
		return netip.AddrPort{}, false
	}
	for i := 0; i < len(ip); i += 4 {
		ip[i], ip[i+1], ip[i+2], ip[i+3] = ip[i+3], ip[i+2], ip[i+1], ip[i]
	}
	addr, ok := netip.AddrFromSlice(ip)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port[0])<<8|uint16(port[1])), ok
}
