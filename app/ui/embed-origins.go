package ui

import (
	"net/url"
	"strings"
)

// originAllowed reports whether origin (a message's event.origin, or the
// origin a host page says it has) is one of sources, the server's
// -frame-ancestors: "'self'" stands for self, the console's own origin,
// and "https://*.example.com" for the subdomains of example.com. No
// sources means the console's own origin alone, as the header says.
func originAllowed(sources []string, self, origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	if len(sources) == 0 {
		sources = []string{"'self'"}
	}
	for _, src := range sources {
		switch src {
		case "'none'":
			return false
		case "'self'":
			if strings.EqualFold(origin, self) {
				return true
			}
			continue
		}
		if sourceMatches(src, origin) {
			return true
		}
	}
	return false
}

// sourceMatches matches origin against one origin source: its scheme,
// its host (a leading "*." matching any subdomain, not the domain
// itself) and its port, the scheme's default when the source names none.
func sourceMatches(src, origin string) bool {
	s, err := url.Parse(strings.TrimSuffix(src, "/"))
	if err != nil || s.Host == "" {
		return false
	}
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" || o.Path != "" {
		return false
	}
	if !strings.EqualFold(s.Scheme, o.Scheme) || portOf(s) != portOf(o) {
		return false
	}
	want, got := strings.ToLower(s.Hostname()), strings.ToLower(o.Hostname())
	if rest, wild := strings.CutPrefix(want, "*."); wild {
		return strings.HasSuffix(got, "."+rest)
	}
	return want == got
}

// portOf is the port of an origin, its scheme's default when unsaid.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
