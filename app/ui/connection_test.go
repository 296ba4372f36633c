package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

var withSandbox = APIConfig{
	Proxy: true, BackOfficeProxy: true,
	Sandbox: &SandboxConfig{Path: "sandbox/multi", BackOfficePath: "sandbox/multi/backoffice", Proxied: true, APIKey: "k", Token: "t", Identity: "CORPORATE:1001"},
}

func TestTheSandboxIsTheDefaultConnection(t *testing.T) {
	c := defaultConnection(withSandbox)
	if c.Direct || c.APIKey != "k" || c.Token != "t" || c.Identity != "CORPORATE:1001" || c.KeepForTab {
		t.Errorf("default connection %#v", c)
	}
	if !c.isSandbox(withSandbox) || c.ready(withSandbox, false) != "" {
		t.Errorf("the sandbox's connection is not ready: %q", c.ready(withSandbox, false))
	}
	if got := c.ready(withSandbox, true); !strings.Contains(got, "back-office token") {
		t.Errorf("back-office calls without a token: %q", got)
	}
	// Its direct URLs are there for an operator who chooses direct calls.
	direct := c
	direct.Direct = true
	if !strings.HasSuffix(direct.APIURL, "/sandbox/multi") || !strings.HasSuffix(direct.BackOfficeURL, "/sandbox/multi/backoffice") || !direct.isSandbox(withSandbox) {
		t.Errorf("the sandbox's direct URLs: %#v", direct)
	}
	w := c.forWorker(false)
	if !strings.HasSuffix(w.APIURL, "/api") || !strings.HasSuffix(w.BackOfficeURL, "/backoffice") || w.APIKey != "k" || w.Token != "t" || w.BackOffice {
		t.Errorf("through the proxy the worker calls %+v", w)
	}

	// The sandbox beside a real API: the proxy leads to the real one, and
	// the sandbox is called directly, on the console's own origin.
	beside := withSandbox
	sb := *beside.Sandbox
	sb.Proxied = false
	beside.Sandbox, beside.ProxyTarget = &sb, "https://api.example/multi"
	c = defaultConnection(beside)
	if !c.Direct || !strings.HasSuffix(c.APIURL, "/sandbox/multi") || !c.isSandbox(beside) {
		t.Errorf("beside a real API: %#v", c)
	}
	if origin := unreachableOrigin(beside, c.APIURL); origin != "" {
		t.Errorf("the console's own origin %q is said unreachable", origin)
	}

	// Without a sandbox nothing is prefilled.
	plain := defaultConnection(APIConfig{Proxy: true})
	if plain.APIKey != "" || plain.Token != "" || plain.isSandbox(APIConfig{Proxy: true}) || !strings.Contains(plain.ready(APIConfig{Proxy: true}, false), "api-key") {
		t.Errorf("a console without a sandbox: %#v", plain)
	}
}

func TestAConnectionSaysWhatIsMissing(t *testing.T) {
	noProxy := APIConfig{}
	for _, tc := range []struct {
		c          Connection
		api        APIConfig
		backOffice bool
		want       string
	}{
		{Connection{}, noProxy, false, "forwards no API calls"},
		{Connection{Direct: true}, noProxy, false, "API's base URL"},
		{Connection{Direct: true, APIURL: "https://a"}, noProxy, false, "api-key"},
		{Connection{Direct: true, APIURL: "https://a", APIKey: "k"}, noProxy, false, "bearer token"},
		{Connection{Direct: true, APIURL: "https://a", APIKey: "k", Token: "t"}, noProxy, false, ""},
		{Connection{Direct: true, APIURL: "https://a", APIKey: "k", Token: "t"}, noProxy, true, "back-office API's base URL"},
		{Connection{APIKey: "k"}, APIConfig{Proxy: true}, true, "forwards no back-office calls"},
		{Connection{APIKey: "k", BackOfficeToken: "b"}, withSandbox, true, ""},
	} {
		if got := tc.c.ready(tc.api, tc.backOffice); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("ready(%#v, back-office %t) = %q, want %q", tc.c, tc.backOffice, got, tc.want)
		}
	}
	if got := (Connection{APIKey: "k"}).readyForToken(withSandbox); !strings.Contains(got, "identity") {
		t.Errorf("a token without an identity: %q", got)
	}
}

func TestNoSecretIsShownByAConnection(t *testing.T) {
	c := Connection{Direct: true, APIURL: "https://a", APIKey: "secret-key", Token: "secret-token", BackOfficeToken: "secret-bo"}
	w := c.forWorker(true)
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%#v", c), fmt.Sprintf("%+v", c), fmt.Sprint(w), fmt.Sprintf("%#v", w), fmt.Sprintf("%v", []wire.Connection{w})} {
		if strings.Contains(s, "secret") {
			t.Errorf("a connection shows a secret: %s", s)
		}
	}
	if w.BackOfficeToken != "secret-bo" || !w.BackOffice {
		t.Errorf("the worker does not get the back-office token: %+v", w.BackOffice)
	}
}

func TestDirectCallsOutsideTheConnectSourcesAreFlagged(t *testing.T) {
	api := APIConfig{ConnectSources: []string{"https://api.example"}}
	if got := unreachableOrigin(api, "https://api.example/multi"); got != "" {
		t.Errorf("an allowed origin is flagged: %q", got)
	}
	if got := unreachableOrigin(api, "https://other.example:8443/multi"); got != "https://other.example:8443" {
		t.Errorf("an origin outside the list gives %q", got)
	}
}
