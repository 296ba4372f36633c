package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// contentSecurityPolicy returns the policy of every response. The console
// loads nothing from other hosts and runs no inline script or style;
// 'wasm-unsafe-eval' lets it compile its WebAssembly, and worker-src its
// service worker and Web Worker.
func contentSecurityPolicy(frameAncestors, connect []string) (string, error) {
	ancestors := []string{"'self'"}
	if len(frameAncestors) > 0 {
		if err := checkSources("frame-ancestors", frameAncestors); err != nil {
			return "", err
		}
		ancestors = frameAncestors
	}
	connectSrc := []string{"'self'"}
	if err := checkSources("connect-src", connect); err != nil {
		return "", err
	}
	connectSrc = append(connectSrc, connect...)
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self' 'wasm-unsafe-eval'",
		"style-src 'self'",
		"img-src 'self' data:",
		"connect-src " + strings.Join(connectSrc, " "),
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors " + strings.Join(ancestors, " "),
	}, "; "), nil
}

// ParseSources splits a list of origins given on the command line or in
// the environment, separated by spaces or commas.
func ParseSources(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// checkSources accepts 'self', 'none' (alone) and origins such as
// https://portal.example.com or https://*.example.com:8443.
func checkSources(directive string, sources []string) error {
	for _, src := range sources {
		switch src {
		case "'self'":
			continue
		case "'none'":
			if len(sources) > 1 {
				return fmt.Errorf("%s: 'none' cannot be combined with other sources", directive)
			}
			continue
		}
		u, err := url.Parse(src)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil ||
			strings.ContainsAny(src, ";,'\" ") {
			return fmt.Errorf("%s: %q is not an origin such as https://portal.example.com", directive, src)
		}
	}
	return nil
}

// secure adds the security headers to every response.
func secure(csp string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		// Nothing of the console's URLs is sent to other sites.
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		h.ServeHTTP(w, r)
	})
}
