package ui

import (
	"net/url"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// connectionKey is the sessionStorage item of an operator who chose to
// keep the connection for the tab. Nothing of it is ever written to
// localStorage, a URL, a log or an export.
const connectionKey = "bulkdesk.connection"

// Connection is where the console sends bulks and with which credentials,
// as the operator set it on the Connection settings page.
type Connection struct {
	// Direct calls the API at APIURL and BackOfficeURL rather than through
	// the server's same-origin proxy (api/ and backoffice/).
	Direct        bool   `json:"direct,omitempty"`
	APIURL        string `json:"apiURL,omitempty"`
	BackOfficeURL string `json:"backOfficeURL,omitempty"`
	APIKey        string `json:"apiKey,omitempty"`
	// Token is the standard API's bearer token.
	Token string `json:"token,omitempty"`
	// Identity is whom back-office calls act for (CORPORATE:1001), and
	// BackOfficeToken the token POST /access_token issued for it.
	Identity        string `json:"identity,omitempty"`
	BackOfficeToken string `json:"backOfficeToken,omitempty"`
	// KeepForTab keeps the connection in the tab's sessionStorage, so that
	// it survives a reload; otherwise it lives in the page's memory only.
	KeepForTab bool `json:"keepForTab,omitempty"`
}

// String never shows the secrets.
func (c Connection) String() string {
	return "ui.Connection{" + c.target() + "}"
}

// GoString is String, so that %#v shows no secret either.
func (c Connection) GoString() string { return c.String() }

// connections keeps the connection in the page's memory: it survives
// moving between pages, not a reload.
var connections struct {
	sync.Mutex
	set     bool
	current Connection
}

// currentConnection returns the connection: the one in memory, else the
// one the operator kept for the tab, else the server's defaults (the
// sandbox's, when it runs one).
func currentConnection(ctx app.Context) Connection {
	connections.Lock()
	defer connections.Unlock()
	if connections.set {
		return connections.current
	}
	var kept Connection
	if app.IsClient && ctx.SessionStorage().Get(connectionKey, &kept) == nil && kept.KeepForTab {
		connections.current, connections.set = kept, true
		return kept
	}
	return defaultConnection(loadConfig().API)
}

// setConnection stores the connection in memory, and in the tab's
// sessionStorage only if the operator asked for it; otherwise any copy
// kept earlier is removed.
func setConnection(ctx app.Context, c Connection) error {
	connections.Lock()
	connections.current, connections.set = c, true
	connections.Unlock()
	if !app.IsClient {
		return nil
	}
	if c.KeepForTab {
		return ctx.SessionStorage().Set(connectionKey, c)
	}
	ctx.SessionStorage().Del(connectionKey)
	return nil
}

// forgetConnection drops the connection from memory and the tab.
func forgetConnection(ctx app.Context) {
	connections.Lock()
	connections.current, connections.set = Connection{}, false
	connections.Unlock()
	if app.IsClient {
		ctx.SessionStorage().Del(connectionKey)
	}
}

// defaultConnection is the connection before the operator sets one: the
// sandbox's public credentials when the server runs it, through the proxy
// when the proxy leads to it.
func defaultConnection(api APIConfig) Connection {
	var c Connection
	c.Direct = !api.Proxy
	if sb := api.Sandbox; sb != nil {
		// Its own URLs too, for an operator who chooses direct calls.
		c.APIKey, c.Token, c.Identity = sb.APIKey, sb.Token, sb.Identity
		c.APIURL, c.BackOfficeURL = localURL(sb.Path), localURL(sb.BackOfficePath)
		c.Direct = !sb.Proxied
	}
	return c
}

// localURL is the absolute URL of a path below the console's root.
func localURL(path string) string {
	origin := ""
	if app.IsClient {
		if loc := app.Window().Get("location"); loc.Truthy() {
			origin = loc.Get("origin").String()
		}
	}
	return origin + href("/"+strings.TrimPrefix(path, "/"))
}

// urls returns the base URLs the connection calls.
func (c Connection) urls() (api, backOffice string) {
	if !c.Direct {
		return localURL("api"), localURL("backoffice")
	}
	return strings.TrimSpace(c.APIURL), strings.TrimSpace(c.BackOfficeURL)
}

// forWorker is the connection as a job of the worker takes it, for the
// standard or the back-office API.
func (c Connection) forWorker(backOffice bool) wire.Connection {
	apiURL, boURL := c.urls()
	wc := wire.Connection{
		APIURL: apiURL, BackOfficeURL: boURL, APIKey: strings.TrimSpace(c.APIKey), Token: strings.TrimSpace(c.Token),
		BackOfficeToken: c.BackOfficeToken, BackOffice: backOffice,
	}
	wc.Proxy = !c.Direct
	if c.serverKey(loadConfig().API, backOffice) {
		// The server puts its own in place of any the page would send.
		wc.APIKey, wc.ServerKey = "", true
	}
	if !c.Direct && loadConfig().API.Record {
		wc.Record = localURL("record")
	}
	return wc
}

// isSandbox reports whether the connection leads to the server's sandbox.
func (c Connection) isSandbox(api APIConfig) bool {
	sb := api.Sandbox
	if sb == nil {
		return false
	}
	if !c.Direct {
		return sb.Proxied
	}
	return strings.TrimRight(strings.TrimSpace(c.APIURL), "/") == localURL(sb.Path)
}

// serverKey says whether the server supplies the api-key of the connection's
// calls to the standard API (or, with backOffice, the back-office API):
// those through its proxy, when it was given the key.
func (c Connection) serverKey(api APIConfig, backOffice bool) bool {
	if c.Direct {
		return false
	}
	if backOffice {
		return api.BackOfficeServerKey
	}
	return api.ServerKey
}

// readyForToken says what is missing before POST /access_token can be
// asked; "" when nothing is.
func (c Connection) readyForToken(api APIConfig) string {
	_, boURL := c.urls()
	switch {
	case !c.Direct && !api.BackOfficeProxy:
		return t("This console's server forwards no back-office calls: choose direct calls and enter the back-office base URL.")
	case boURL == "":
		return t("Enter the back-office API's base URL.")
	case strings.TrimSpace(c.APIKey) == "" && !c.serverKey(api, true):
		return t("Enter the api-key: the back-office API issues tokens to it.")
	case strings.TrimSpace(c.Identity) == "":
		return t("Enter the identity the token is to act for, such as CORPORATE:1001.")
	}
	return ""
}

// ready says what is missing before the connection can call the standard
// API (or, with backOffice, the back-office API); "" when nothing is.
func (c Connection) ready(api APIConfig, backOffice bool) string {
	apiURL, boURL := c.urls()
	switch {
	case !c.Direct && !api.Proxy:
		return t("This console's server forwards no API calls: choose direct calls and enter the API's base URL.")
	case !c.Direct && backOffice && !api.BackOfficeProxy:
		return t("This console's server forwards no back-office calls: choose direct calls and enter the back-office base URL.")
	case apiURL == "":
		return t("Enter the API's base URL.")
	case backOffice && boURL == "":
		return t("Enter the back-office API's base URL.")
	case strings.TrimSpace(c.APIKey) == "" && !c.serverKey(api, backOffice):
		return t("Enter the api-key.")
	case !backOffice && strings.TrimSpace(c.Token) == "":
		return t("Enter the bearer token.")
	case backOffice && c.BackOfficeToken == "":
		return t("Obtain a back-office token for an identity.")
	}
	return ""
}

// target names where the connection points, for people and String.
func (c Connection) target() string {
	if !c.Direct {
		return t("through this console's server")
	}
	return tf("directly to %s", c.APIURL)
}

// unreachableOrigin returns the origin of a direct URL that the console's
// content security policy does not let it call, or "".
func unreachableOrigin(api APIConfig, raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	origin := u.Scheme + "://" + u.Host
	if origin == strings.TrimSuffix(localURL("/"), "/") {
		return ""
	}
	for _, src := range api.ConnectSources {
		if strings.EqualFold(strings.TrimRight(src, "/"), origin) {
			return ""
		}
	}
	return origin
}
