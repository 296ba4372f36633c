package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// settingsPage is the Connection settings page: where the console sends
// bulks, through the server's proxy or directly, and with which
// credentials. Credentials stay in the page's memory unless the operator
// keeps them for the tab.
type settingsPage struct {
	app.Compo

	// page is the component's own context: a job's answer updates the
	// page through it, since the control that started the job may be
	// gone by then (go-app drops updates of unmounted elements).
	page app.Context

	api  APIConfig
	conn Connection

	tokenBusy    bool
	tokenFailure *wire.APIFailure

	testBusy    bool
	testResult  string
	testFailure *wire.APIFailure

	announcement string

	// contract is the "API contract" section (contract-settings.go).
	contract contractView
}

func newSettingsPage() *settingsPage { return &settingsPage{} }

func (p *settingsPage) OnMount(ctx app.Context) {
	p.page = ctx
	p.api = loadConfig().API
	p.conn = currentConnection(ctx)
	p.contractMount()
}

func (p *settingsPage) Render() app.UI {
	c := p.conn
	return newShell().Route("/settings").Announcement(p.announcement).Content(
		app.P().Class("lead").Text(t("Where the console sends bulks, and with which credentials. Credentials stay in this page's memory unless you keep them for the tab; they are never kept in the browser beyond it, nor written to the page's address, logs or exports.")),
		techDetails("credentials-details", t("Never to localStorage or IndexedDB; kept for the tab, they go to its sessionStorage alone.")),
		app.If(c.isSandbox(p.api), func() app.UI {
			return app.Div().ID("sandbox-notice").Class("notice").Role("note").Body(
				app.Strong().Text(t("This is the sandbox. ")),
				app.Text(t("The server runs a stand-in of the API in its memory, with public credentials prefilled below: bulks submitted here move no money and are gone when the server stops.")),
			)
		}),
		app.Section().Class("settings-group").Aria("labelledby", "route-title").Body(
			app.H2().ID("route-title").Text(t("How the console reaches the API")),
			p.routeChoice("route-proxy", false, t("Through this console's server (same origin)"), p.proxyHint()),
			p.routeChoice("route-direct", true, t("Directly"), t("The browser calls the API itself: the API must allow this console's origin (CORS), and this server must list the API's origin (bulkdesk serve -connect-src).")),
			app.If(c.Direct, func() app.UI {
				return app.Div().Body(
					p.textField("api-url", t("Standard API base URL"), c.APIURL, "https://api.example.com/multi", "url", func(v string) { p.conn.APIURL = v }),
					p.originWarning(c.APIURL),
					p.textField("backoffice-url", t("Back-office API base URL"), c.BackOfficeURL, "https://api.example.com/multi/backoffice", "url", func(v string) { p.conn.BackOfficeURL = v }),
					p.originWarning(c.BackOfficeURL),
				)
			}),
		),
		app.Section().Class("settings-group").Aria("labelledby", "credentials-title").Body(
			app.H2().ID("credentials-title").Text(t("Credentials")),
			p.apiKeyField(),
			p.secretField("token", t("Bearer token (standard API)"), c.Token, func(v string) { p.conn.Token = v }),
			p.keepChoice(),
			app.Div().Class("actions").Body(
				p.testButton(),
				app.Button().ID("forget-credentials").Type("button").Class("button", "button-quiet").Text(t("Forget the credentials")).OnClick(p.forget),
				app.If(p.api.Sandbox != nil && !c.isSandbox(p.api), func() app.UI {
					return app.Button().ID("use-sandbox").Type("button").Class("button", "button-quiet").Text(t("Use the sandbox")).OnClick(p.useSandbox)
				}),
			),
			app.If(p.testResult != "", func() app.UI {
				return app.P().ID("test-result").Class("all-clear").Role("status").Text(p.testResult)
			}),
			app.If(p.testFailure != nil, func() app.UI { return failureView("test-failure", p.testFailure) }),
		),
		app.Section().Class("settings-group").Aria("labelledby", "backoffice-title").Body(
			app.H2().ID("backoffice-title").Text(t("Back-office API")),
			app.P().Class("note").Text(t("Back-office bulks (card spend rules, transfers) act for an identity: the console asks POST /access_token for a token for it, with the api-key alone, and keeps the token like the other credentials.")),
			p.textField("identity", t("Identity (TYPE:ID)"), c.Identity, "CORPORATE:1001", "text", func(v string) {
				// A token acts for the identity it was issued for.
				p.conn.Identity, p.conn.BackOfficeToken = v, ""
			}),
			app.Div().Class("actions").Body(p.tokenButton()),
			app.P().ID("backoffice-token").Role("status").Text(p.tokenStatus()),
			app.If(p.tokenFailure != nil, func() app.UI { return failureView("token-failure", p.tokenFailure) }),
		),
		p.languageSection(),
		p.timeZoneSection(),
		p.contractSection(),
	)
}

// proxyHint says where the proxy forwards, or that there is none.
func (p *settingsPage) proxyHint() string {
	a := p.api
	switch {
	case !a.Proxy:
		return t("This server forwards no API calls (it was started without -api-url or -sandbox).")
	case a.Sandbox != nil && a.Sandbox.Proxied:
		return t("The server forwards api/… and backoffice/… to its sandbox. No CORS is needed.")
	}
	if a.BackOfficeProxy {
		return tf("The server forwards api/… to %s and backoffice/… to %s. No CORS is needed.", a.ProxyTarget, a.BackOfficeTarget)
	}
	return tf("The server forwards api/… to %s. No CORS is needed.", a.ProxyTarget)
}

func (p *settingsPage) routeChoice(id string, direct bool, label, hint string) app.UI {
	radio := app.Input().Type("radio").ID(id).Name("route").Aria("describedby", id+"-hint").OnChange(func(ctx app.Context, e app.Event) {
		p.conn.Direct = direct
		p.changed(ctx)
	})
	if p.conn.Direct == direct {
		radio = radio.Checked(true)
	}
	if !direct && !p.api.Proxy {
		radio = radio.Disabled(true)
	}
	return app.Div().Class("check", "choice").Body(
		radio,
		app.Label().For(id).Body(
			app.Span().Text(label),
			app.Span().ID(id+"-hint").Class("hint").Text(hint),
		),
	)
}

func (p *settingsPage) textField(id, label, value, placeholder, typ string, set func(string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type(typ).Class("input").Value(value).Placeholder(placeholder).
			Attr("autocomplete", "off").Spellcheck(false).
			OnInput(func(ctx app.Context, e app.Event) {
				set(ctx.JSSrc().Get("value").String())
				p.changed(ctx)
			}),
	)
}

// apiKeyField is the api-key's input, or, for calls through a server that
// supplies the key, a note that it does: the browser never holds that key.
// Direct calls keep the field, since the server cannot add their header.
func (p *settingsPage) apiKeyField() app.UI {
	if !p.conn.serverKey(p.api, false) {
		return p.secretField("api-key", "api-key", p.conn.APIKey, func(v string) { p.conn.APIKey = v })
	}
	return app.P().ID("server-key-note").Class("note").Role("note").Text(t("This console's server supplies the api-key for calls through it: you need not enter it."))
}

// secretField is an input for a credential: masked, never autocompleted
// or checked for spelling (which would send it to a dictionary service).
func (p *settingsPage) secretField(id, label, value string, set func(string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type("password").Class("input").Value(value).
			Attr("autocomplete", "off").Spellcheck(false).
			OnInput(func(ctx app.Context, e app.Event) {
				set(ctx.JSSrc().Get("value").String())
				p.changed(ctx)
			}),
	)
}

func (p *settingsPage) keepChoice() app.UI {
	box := app.Input().Type("checkbox").ID("keep-for-tab").Aria("describedby", "keep-for-tab-hint").OnChange(func(ctx app.Context, e app.Event) {
		p.conn.KeepForTab = ctx.JSSrc().Get("checked").Bool()
		p.changed(ctx)
		if p.conn.KeepForTab {
			p.announcement = t("The credentials are kept for this tab until it is closed.")
		} else {
			p.announcement = t("The credentials are kept in this page's memory only.")
		}
	})
	if p.conn.KeepForTab {
		box = box.Checked(true)
	}
	return app.Div().Class("check", "choice").Body(
		box,
		app.Label().For("keep-for-tab").Body(
			app.Span().Text(t("Keep the credentials for this tab")),
			app.Span().ID("keep-for-tab-hint").Class("hint").Text(t("They then survive a reload of this tab, until it is closed. Otherwise they live in this page's memory and a reload forgets them.")),
		),
	)
}

// originWarning warns that the content security policy will refuse a
// direct call to a URL's origin.
func (p *settingsPage) originWarning(raw string) app.UI {
	origin := unreachableOrigin(p.api, raw)
	if origin == "" {
		return nil
	}
	return app.P().Class("warning-text").Text(tf("This console's server does not list %s among the origins the page may call: start it with -connect-src %s.", origin, origin))
}

// changed applies an edit: the connection is the operator's from now on.
func (p *settingsPage) changed(ctx app.Context) {
	if err := setConnection(ctx, p.conn); err != nil {
		p.announcement = tf("The credentials could not be kept for the tab: %s", errorText(err))
	}
	p.testResult, p.testFailure = "", nil
}

func (p *settingsPage) forget(ctx app.Context, e app.Event) {
	forgetConnection(ctx)
	p.conn = Connection{Direct: p.conn.Direct, APIURL: p.conn.APIURL, BackOfficeURL: p.conn.BackOfficeURL}
	setConnection(ctx, p.conn)
	p.testResult, p.testFailure, p.tokenFailure = "", nil, nil
	p.announcement = t("The credentials are forgotten.")
}

func (p *settingsPage) useSandbox(ctx app.Context, e app.Event) {
	p.conn = defaultConnection(p.api)
	p.changed(ctx)
	p.announcement = t("The sandbox's public credentials are set.")
}

func (p *settingsPage) testButton() app.UI {
	b := app.Button().ID("test-connection").Type("button").Class("button").Text(t("Test the connection")).OnClick(p.test)
	if p.testBusy {
		b = b.Disabled(true)
	}
	return b
}

// test lists one bulk: it proves the URL, the api-key and the token.
func (p *settingsPage) test(ctx app.Context, e app.Event) {
	if missing := p.conn.ready(p.api, false); missing != "" {
		p.testFailure = &wire.APIFailure{Class: wire.ClassOther, Summary: missing, Chunk: wire.NoChunk}
		return
	}
	p.testBusy, p.testResult, p.testFailure = true, "", nil
	req := wire.ListBulks{Connection: p.conn.forWorker(false), Limit: 1}
	runJob(p.page, wire.JobBulks, req, nil, func(r wire.BulkList, _ app.Value, err error) {
		p.testBusy = false
		switch {
		case err != nil:
			p.testFailure = &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}
		case r.Failure != nil:
			p.testFailure = r.Failure
		default:
			p.testResult = tf("Connected: the API answers, and lists %s for this token.", plural(r.Count, "bulk", "bulks"))
		}
		p.announcement = p.testResult
	})
}

func (p *settingsPage) tokenButton() app.UI {
	b := app.Button().ID("obtain-token").Type("button").Class("button").Text(t("Obtain a back-office token")).OnClick(p.obtainToken)
	if p.tokenBusy {
		b = b.Disabled(true)
	}
	return b
}

func (p *settingsPage) tokenStatus() string {
	switch {
	case p.tokenBusy:
		return t("Asking the back-office API for a token…")
	case p.conn.BackOfficeToken != "":
		return tf("A back-office token for %s is held.", p.conn.Identity)
	}
	return t("No back-office token yet.")
}

// obtainToken asks POST /access_token for the identity named.
func (p *settingsPage) obtainToken(ctx app.Context, e app.Event) {
	p.tokenFailure = nil
	if missing := p.conn.readyForToken(p.api); missing != "" {
		p.tokenFailure = &wire.APIFailure{Class: wire.ClassOther, Summary: missing, Chunk: wire.NoChunk}
		return
	}
	p.tokenBusy = true
	req := wire.AccessTokenRequest{Connection: p.conn.forWorker(true), Identity: p.conn.Identity}
	runJob(p.page, wire.JobAccessToken, req, nil, func(r wire.AccessToken, _ app.Value, err error) {
		p.tokenBusy = false
		switch {
		case err != nil:
			p.tokenFailure = &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}
		case r.Failure != nil:
			p.tokenFailure = r.Failure
		default:
			p.conn.BackOfficeToken, p.conn.Identity = r.Token, r.Identity
			p.changed(ctx)
			p.announcement = tf("A back-office token for %s is held.", r.Identity)
		}
	})
}
