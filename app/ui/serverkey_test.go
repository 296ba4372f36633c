package ui

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A server that supplies the api-key, through its proxy, for both APIs.
var withServerKey = APIConfig{Proxy: true, BackOfficeProxy: true, ServerKey: true, BackOfficeServerKey: true}

// Through a server that supplies the api-key, a connection asks for none
// and tells the worker so; a direct connection still asks for it.
func TestAConnectionThroughAServerThatSuppliesTheKeyAsksForNone(t *testing.T) {
	t.Setenv(ConfigEnv, EncodeConfig(Config{API: withServerKey}))
	c := Connection{Token: "t", Identity: "CORPORATE:1001"}
	if got := c.ready(withServerKey, false); got != "" {
		t.Errorf("the standard API through the server: %q missing", got)
	}
	if got := c.readyForToken(withServerKey); got != "" {
		t.Errorf("a back-office token through the server: %q missing", got)
	}
	c.BackOfficeToken = "bo"
	if got := c.ready(withServerKey, true); got != "" {
		t.Errorf("the back-office API through the server: %q missing", got)
	}
	for _, backOffice := range []bool{false, true} {
		typed := c
		typed.APIKey = "an-operators-key"
		if w := typed.forWorker(backOffice); !w.ServerKey || w.APIKey != "" || !w.Proxy {
			t.Errorf("the worker's connection (back office %t): %v, server key %t", backOffice, w, w.ServerKey)
		}
	}

	// The server adds no header to a direct call.
	direct := c
	direct.Direct, direct.APIURL, direct.BackOfficeURL = true, "https://api.example/multi", "https://api.example/multi/backoffice"
	if got := direct.ready(withServerKey, false); !strings.Contains(got, "api-key") {
		t.Errorf("a direct call without api-key: %q missing", got)
	}
	if got := direct.readyForToken(withServerKey); !strings.Contains(got, "api-key") {
		t.Errorf("a direct back-office token without api-key: %q missing", got)
	}
	if w := direct.forWorker(false); w.ServerKey {
		t.Errorf("a direct call is said to get the server's key: %v", w)
	}

	// Without the server's key for the back-office API, its calls need one.
	standardOnly := withServerKey
	standardOnly.BackOfficeServerKey = false
	if got := c.readyForToken(standardOnly); !strings.Contains(got, "api-key") {
		t.Errorf("a back-office token when the server has only the standard key: %q missing", got)
	}
}

// The settings page shows no api-key field for calls through a server that
// supplies the key, but a note that it does; direct calls keep the field.
func TestTheSettingsPageAsksForNoKeyTheServerSupplies(t *testing.T) {
	p := &settingsPage{api: withServerKey}
	if note := app.HTMLString(p.apiKeyField()); strings.Contains(note, `id="api-key"`) || !strings.Contains(note, `id="server-key-note"`) || !strings.Contains(note, "supplies the api-key") {
		t.Errorf("through the server: %s", note)
	}
	p.conn.Direct = true
	if field := app.HTMLString(p.apiKeyField()); !strings.Contains(field, `id="api-key"`) || strings.Contains(field, "server-key-note") {
		t.Errorf("direct calls: %s", field)
	}
	p = &settingsPage{api: APIConfig{Proxy: true}}
	if field := app.HTMLString(p.apiKeyField()); !strings.Contains(field, `id="api-key"`) {
		t.Errorf("a server without the key: %s", field)
	}
}
