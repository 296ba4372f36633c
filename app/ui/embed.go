package ui

import (
	"encoding/json"
	"net/url"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A host page (a portal) shows the console in a frame through embed.js
// and hears what happens in it by messages; cmd/bulkdesk/EMBEDDING.md is
// their contract. This file holds the embedding itself: what
// the frame's URL asked for, kept for the frame's life, and whether an
// origin may take part.

// EmbeddersEnv is the go-app environment variable through which the
// server hands the console the sources of its -frame-ancestors, as a JSON
// list: the only origins the console talks to when framed.
const EmbeddersEnv = "BULKDESK_EMBEDDERS"

// embedProtocol is the version of the messages, in each one's "bulkdesk".
const embedProtocol = 1

// embedKey is the frame's sessionStorage item holding the embedding, so
// that a reload inside the frame stays embedded.
const embedKey = "bulkdesk.embed"

// The modes a host opens the console in.
const (
	embedValidate = "validate" // read, check and fix the file; no submission
	embedSubmit   = "submit"   // the whole flow
)

// embedding is what the host page asked for in the frame's URL.
type embedding struct {
	// Origin is the host page's origin, where messages go.
	Origin     string `json:"origin"`
	Mode       string `json:"mode"`
	Kind       string `json:"kind,omitempty"`
	BackOffice bool   `json:"backOffice,omitempty"`
	Lang       string `json:"lang,omitempty"`
	Theme      string `json:"theme,omitempty"`
}

var embedded struct {
	once sync.Once
	on   bool
	e    embedding
}

// currentEmbedding returns the embedding of this frame, read once from
// the page's URL (embed=1) or from the frame's sessionStorage.
func currentEmbedding() (embedding, bool) {
	embedded.once.Do(func() {
		if !app.IsClient {
			return
		}
		embedded.e, embedded.on = readEmbedding()
	})
	return embedded.e, embedded.on
}

// isEmbedded reports whether the console runs in a host page's frame.
func isEmbedded() bool {
	_, on := currentEmbedding()
	return on
}

// embedMode is the host's mode, "" when not embedded.
func embedMode() string {
	e, on := currentEmbedding()
	if !on {
		return ""
	}
	return e.Mode
}

func readEmbedding() (embedding, bool) {
	win := app.Window()
	store := win.Get("sessionStorage")
	q, _ := url.ParseQuery(trimQuestion(win.Get("location").Get("search").String()))
	if q.Get("embed") == "1" {
		e := embedding{
			Origin:     q.Get("origin"),
			Mode:       q.Get("mode"),
			Kind:       q.Get("kind"),
			BackOffice: q.Get("backOffice") == "1" || q.Get("backOffice") == "true",
			Lang:       q.Get("lang"),
			Theme:      q.Get("theme"),
		}
		if e.Mode != embedValidate {
			e.Mode = embedSubmit
		}
		if b, err := json.Marshal(e); err == nil && store.Truthy() {
			store.Call("setItem", embedKey, string(b))
		}
		return e, true
	}
	if !store.Truthy() {
		return embedding{}, false
	}
	v := store.Call("getItem", embedKey)
	if !v.Truthy() {
		return embedding{}, false
	}
	var e embedding
	if json.Unmarshal([]byte(v.String()), &e) != nil {
		return embedding{}, false
	}
	return e, true
}

func trimQuestion(s string) string {
	if len(s) > 0 && s[0] == '?' {
		return s[1:]
	}
	return s
}

// embedders are the sources the server allows to frame the console.
var embedders = sync.OnceValue(func() []string {
	var sources []string
	if s := app.Getenv(EmbeddersEnv); s != "" {
		if err := json.Unmarshal([]byte(s), &sources); err != nil {
			app.Log("reading the console's embedders:", err)
			return []string{"'none'"}
		}
	}
	return sources
})

// ownOrigin is the console's own origin.
func ownOrigin() string {
	return app.Window().Get("location").Get("origin").String()
}

// hostAllowed reports whether origin may embed the console and talk to it.
func hostAllowed(origin string) bool {
	return originAllowed(embedders(), ownOrigin(), origin)
}

// markEmbedded marks the document for the stylesheet: embedded, and in
// the host's theme.
func markEmbedded(e embedding) {
	root := app.Window().Get("document").Get("documentElement")
	root.Call("setAttribute", "data-embed", e.Mode)
	theme := e.Theme
	if theme != "light" && theme != "dark" {
		// "auto", or none: as the operator's browser is set.
		theme = "light"
		if mm := app.Window().Get("matchMedia"); mm.Truthy() && app.Window().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Bool() {
			theme = "dark"
		}
	}
	root.Call("setAttribute", "data-theme", theme)
}
