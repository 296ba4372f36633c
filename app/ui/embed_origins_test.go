package ui

import "testing"

func TestOnlyTheFrameAncestorsMayEmbedTheConsole(t *testing.T) {
	const self = "https://bulkdesk.example"
	portal := []string{"https://portal.example.com", "https://*.corp.example:8443"}
	for _, c := range []struct {
		sources []string
		origin  string
		want    bool
	}{
		{nil, self, true},
		{nil, "https://portal.example.com", false},
		{[]string{"'self'"}, self, true},
		{portal, "https://portal.example.com", true},
		{portal, "https://portal.example.com:443", true},
		{portal, "http://portal.example.com", false},
		{portal, "https://portal.example.com:8443", false},
		{portal, "https://evil-portal.example.com", false},
		{portal, "https://portal.example.com.evil.test", false},
		{portal, self, false},
		{portal, "https://admin.corp.example:8443", true},
		{portal, "https://a.b.corp.example:8443", true},
		{portal, "https://corp.example:8443", false},
		{portal, "https://admin.corp.example", false},
		{portal, "null", false},
		{portal, "", false},
		{[]string{"'none'"}, self, false},
		{[]string{"http://127.0.0.1:4001"}, "http://127.0.0.1:4001", true},
		{[]string{"http://127.0.0.1:4001"}, "http://127.0.0.1:4002", false},
	} {
		if got := originAllowed(c.sources, self, c.origin); got != c.want {
			t.Errorf("originAllowed(%q, %q) = %t, want %t", c.sources, c.origin, got, c.want)
		}
	}
}
