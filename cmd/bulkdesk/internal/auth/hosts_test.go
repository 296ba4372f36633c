package auth_test

import (
	"net/http/httptest"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

func TestHosts(t *testing.T) {
	allowed, err := auth.ParseHosts("localhost,127.0.0.1 [::1], console.example:8443")
	if err != nil {
		t.Fatal(err)
	}
	h := auth.Hosts(allowed, whoami)
	for host, want := range map[string]int{
		"localhost": 200, "localhost:8080": 200, "LOCALHOST:1": 200, "127.0.0.1:9": 200, "[::1]:8080": 200, "[::1]": 200,
		"console.example:8443": 200, "console.example": 421, "console.example:443": 421,
		"evil.example": 421, "evil.example:8080": 421, "127.0.0.2:8080": 421, "": 421,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		if res, _ := do(h, r); res.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, res.StatusCode, want)
		}
	}
	if _, err := auth.ParseHosts("https://console.example/"); err == nil {
		t.Error("a URL was accepted as a host")
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:0": true, "[::1]:80": true, "127.1.2.3:1": true,
		"0.0.0.0:0": false, ":8080": false, "[::]:80": false, "10.0.0.1:80": false, "console.example:80": false, "nonsense": false,
	} {
		if got := auth.IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}
