// Package ui is the console's user interface: go-app components for the
// shell (header, navigation, connectivity badge, announcements) and one page
// per file (*-page.go), registered as routes by Register.
//
// Components stay thin: the CPU work runs in the Web Worker (package
// workerclient sends it jobs), and a component's internal state is
// unexported, because go-app copies a parent's exported fields over a
// child's on every render. Props are exported fields set through small
// setters, as in go-app's own documentation app.
//
// The same components render natively, where the server sends their first
// HTML, and in the browser; browser-only work (the worker, connectivity
// probes) starts in OnMount, which only the browser calls.
package ui

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A route is one page of the console.
type route struct {
	// path is the page's path below the console's root.
	path string
	// title heads the page and names it in the browser's title bar.
	title string
	// nav is the page's name in the navigation bar; "" keeps it out of
	// the bar (pages opened from others, such as one bulk).
	nav  string
	page func() app.Composer
	// section is the path of the bar's entry a page belongs to, when it
	// is not in the bar itself.
	section string
}

// routes are the console's pages, in navigation order. Their paths stay
// clear of the server's own endpoints below the same prefix: the API proxy
// (/api/…, /backoffice/…) and the webhook receiver (POST /webhooks/…,
// GET /events, GET /events/stream).
var routes = []route{
	{"/", lang.Mark("Import a bulk"), lang.Mark("Import"), func() app.Composer { return newImportPage() }, ""},
	{"/bulks", lang.Mark("Bulks"), lang.Mark("Bulks"), func() app.Composer { return newBulksPage() }, ""},
	{"/feed", lang.Mark("Events"), lang.Mark("Events"), func() app.Composer { return newEventsPage() }, ""},
	{"/webhooks", lang.Mark("Webhook verifier"), lang.Mark("Webhooks"), func() app.Composer { return newWebhooksPage() }, ""},
	{"/settings", lang.Mark("Connection settings"), lang.Mark("Settings"), func() app.Composer { return newSettingsPage() }, ""},
	{helpPath, lang.Mark("Help"), lang.Mark("Help"), func() app.Composer { return newHelpPage() }, ""},
	{SubmitPath, lang.Mark("Submit a bulk"), "", func() app.Composer { return newSubmitPage() }, "/"},
	{"/bulk", lang.Mark("Bulk"), "", func() app.Composer { return newBulkPage() }, "/bulks"},
}

// navRoutes are the routes of the navigation bar.
func navRoutes() []route {
	var out []route
	for _, r := range routes {
		if r.nav != "" {
			out = append(out, r)
		}
	}
	return out
}

var registerOnce sync.Once

// Register declares the console's pages to go-app. The console's wasm and
// the server both call it: the server renders each page's first HTML.
func Register() {
	registerOnce.Do(func() {
		chooseLanguage()
		for _, r := range routes {
			app.Route(r.path, r.page)
		}
	})
}

// Paths returns the path of every page, for the server to list in the
// service worker's cache: each page then opens offline.
func Paths() []string {
	paths := make([]string, len(routes))
	for i, r := range routes {
		paths[i] = r.path
	}
	return paths
}

// routeOf returns the route at path.
func routeOf(path string) route {
	for _, r := range routes {
		if r.path == path {
			return r
		}
	}
	return routes[0]
}

// ConfigEnv is the go-app environment variable through which the server
// hands the console its Config.
const ConfigEnv = "BULKDESK_CONFIG"

// Config is what the console learns from the server that serves it.
type Config struct {
	// Kinds are the bulk kinds an operator can choose. The server knows
	// them from package schema, which the page's wasm leaves out for size.
	Kinds []Kind `json:"kinds"`
	// WorkerScript and WorkerWasm are the URLs of worker.js and worker.wasm.
	WorkerScript string `json:"workerScript"`
	WorkerWasm   string `json:"workerWasm"`
	// APIWorkerWasm is the URL of apiworker.wasm, the second worker's
	// program (it calls the API and writes workbooks), which the first
	// starts.
	APIWorkerWasm string `json:"apiWorkerWasm,omitempty"`
	// ContractScript and ContractWasm are the URLs of contract.js and
	// contract.wasm, the OpenAPI reader the Settings page starts when an
	// operator loads a contract file.
	ContractScript string `json:"contractScript,omitempty"`
	ContractWasm   string `json:"contractWasm,omitempty"`
	// API says how the server lets the console reach the API.
	API APIConfig `json:"api"`
}

// APIConfig is what the server offers for calling the API: its
// same-origin proxy, its sandbox, and the origins the page may call
// directly. It holds no secret but the sandbox's public credentials.
type APIConfig struct {
	// Proxy is set when the server forwards api/… to the standard API;
	// BackOfficeProxy when it forwards backoffice/… to the back-office
	// API. ProxyTarget and BackOfficeTarget say where, for the operator.
	Proxy            bool   `json:"proxy,omitempty"`
	BackOfficeProxy  bool   `json:"backOfficeProxy,omitempty"`
	ProxyTarget      string `json:"proxyTarget,omitempty"`
	BackOfficeTarget string `json:"backOfficeTarget,omitempty"`
	// Sandbox is set when the server runs the sandbox API.
	Sandbox *SandboxConfig `json:"sandbox,omitempty"`
	// ConnectSources are the origins, besides the console's own, that the
	// page's content security policy lets it call directly.
	ConnectSources []string `json:"connectSources,omitempty"`
	// FourEyes is set when the server keeps the operator who submitted a
	// bulk from executing it: a bulk's page asks it who may.
	FourEyes bool `json:"fourEyes,omitempty"`
	// Record is set when the server keeps the repeat check's record of
	// the API's bulks (POST record/api, record/backoffice) for calls through
	// its proxy: every browser, and every server sharing its database,
	// then reads a bulk's operations once.
	Record bool `json:"record,omitempty"`
	// SharedEvents is set when the server's webhook events are those of
	// every server on its database (-store), not its own alone.
	SharedEvents bool `json:"sharedEvents,omitempty"`
	// ServerKey is set when the server adds the API's api-key to every
	// call through its proxy (-api-key-file), and BackOfficeServerKey when
	// it does to back-office calls: the operator then enters no api-key
	// for them. The key itself stays on the server.
	ServerKey           bool `json:"serverKey,omitempty"`
	BackOfficeServerKey bool `json:"backOfficeServerKey,omitempty"`
}

// SandboxConfig describes the sandbox API the server runs: where it is
// and its public default credentials, which the connection settings
// prefill; no api-key when the server supplies it (APIConfig.ServerKey).
type SandboxConfig struct {
	// Path and BackOfficePath are the sandbox's base URLs below the
	// console's root ("sandbox/multi").
	Path           string `json:"path"`
	BackOfficePath string `json:"backOfficePath"`
	// Proxied is set when the proxy's api/ and backoffice/ lead to it.
	Proxied  bool   `json:"proxied,omitempty"`
	APIKey   string `json:"apiKey"`
	Token    string `json:"token"`
	Identity string `json:"identity"`
}

// A Kind is a bulk kind as the console offers it.
type Kind struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// BackOffice says the kind has a back-office variant.
	BackOffice bool `json:"backOffice,omitempty"`
}

// EncodeConfig returns c as the value of ConfigEnv.
func EncodeConfig(c Config) string {
	b, _ := json.Marshal(c) // strings and bools: cannot fail
	return string(b)
}

// loadConfig reads the Config the server passed; a console served without
// one has no kinds and no worker, and says so.
func loadConfig() Config {
	var c Config
	if s := app.Getenv(ConfigEnv); s != "" {
		if err := json.Unmarshal([]byte(s), &c); err != nil {
			app.Log("reading the console's configuration:", err)
		}
	}
	return c
}

// rootPrefix is the path under which the console is served, ending in "/":
// "/" or, behind a portal's reverse proxy, something like "/console/".
func rootPrefix() string {
	if app.IsServer {
		// The server's resolver adds its prefix to every link it renders;
		// go-app's environment is the process's there, shared by servers.
		return "/"
	}
	return clientRootPrefix()
}

// clientRootPrefix reads the page's root prefix once: it is fixed for the
// page's life, and each read is a call into JavaScript, made for every
// link of every row a list draws.
var clientRootPrefix = sync.OnceValue(func() string {
	p := app.Getenv("GOAPP_ROOT_PREFIX")
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
})

// href returns the URL of the page at path, under the console's root.
func href(path string) string {
	return rootPrefix() + strings.TrimPrefix(path, "/")
}
