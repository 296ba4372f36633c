package ui

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// langKey is the localStorage key of the language the operator chose in
// Settings; without it the console follows the browser's languages. A
// cookie of the same name tells the server, which draws the first HTML.
const langKey = "bulkdesk-lang"

// LanguageCookie is the cookie that carries the operator's choice of
// language to the server: the page the server draws is in use before the
// console's program runs (the import page takes a file at once), so it is
// drawn in the operator's language, not in English.
const LanguageCookie = langKey

// consoleLang is the language the console speaks: in the browser, the
// operator's; on the server, the language of the page being drawn.
var consoleLang = lang.English

// renderMu holds the language still while the server draws a page in it:
// the language is the package's, and requests come in parallel.
var renderMu sync.Mutex

// LoadingText is what the page says in a corner while the console's
// program loads; go-app draws it in English, and the server puts it in
// the page's language.
const LoadingText = "Loading Bulkdesk…"

// LoadingLabel is LoadingText in the console's language.
func LoadingLabel() string { return t("Loading Bulkdesk…") }

// RenderIn runs render, which draws a page on the server, with the console
// speaking l.
func RenderIn(l lang.Tag, render func()) {
	renderMu.Lock()
	defer renderMu.Unlock()
	prev := consoleLang
	consoleLang = l
	defer func() { consoleLang = prev }()
	render()
}

// t is text in the console's language; the catalog test finds every call.
func t(text string) string { return consoleLang.T(text) }

// tf formats in the console's language.
func tf(format string, args ...any) string { return consoleLang.F(format, args...) }

// chooseLanguage sets the console's language from the operator's choice,
// or else the browser's preferences, and says it to the document, which
// screen readers and the browser's spelling and hyphenation follow.
func chooseLanguage() {
	if !app.IsClient {
		return
	}
	// A host page that embeds the console says the language of its
	// frame; the operator's own choice is left as it is.
	if e, on := currentEmbedding(); on {
		if l, ok := lang.Parse(e.Lang); ok {
			setLanguage(l)
			return
		}
	}
	if l, ok := lang.Parse(storedLanguage()); ok {
		setLanguage(l)
		// A choice made before the cookie existed reaches the server too.
		tellServerLanguage(l, false)
		return
	}
	var preferred []string
	if langs := app.Window().Get("navigator").Get("languages"); langs.Truthy() {
		for i := 0; i < langs.Length(); i++ {
			preferred = append(preferred, langs.Index(i).String())
		}
	}
	setLanguage(lang.Choose(preferred))
}

func setLanguage(l lang.Tag) {
	consoleLang = l
	if !app.IsClient {
		return
	}
	// Node, which runs the package's tests under WebAssembly, has no
	// document.
	if doc := app.Window().Get("document"); doc.Truthy() {
		doc.Get("documentElement").Set("lang", string(l))
	}
}

// storedLanguage is the language chosen in Settings, or "".
func storedLanguage() string {
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return ""
	}
	if v := ls.Call("getItem", langKey); v.Truthy() {
		return v.String()
	}
	return ""
}

// rememberLanguage keeps the operator's choice; it holds no secret, so it
// may outlive the tab, unlike the credentials. "" goes back to following
// the browser.
func rememberLanguage(l lang.Tag, follow bool) {
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return
	}
	if follow {
		ls.Call("removeItem", langKey)
	} else {
		ls.Call("setItem", langKey, string(l))
	}
	tellServerLanguage(l, follow)
	// The pages the browser keeps for offline use are drawn again.
	if refresh := app.Window().Get("bulkdeskRefreshPages"); refresh.Truthy() {
		refresh.Invoke()
	}
}

// tellServerLanguage sets or, to follow the browser, clears the cookie that
// says the operator's choice to the server, for the pages it draws.
func tellServerLanguage(l lang.Tag, follow bool) {
	doc := app.Window().Get("document")
	if !doc.Truthy() {
		return // Node, which runs the package's tests, has no document
	}
	if follow {
		doc.Set("cookie", LanguageCookie+"=; Max-Age=0; Path=/; SameSite=Strict")
		return
	}
	doc.Set("cookie", LanguageCookie+"="+string(l)+"; Max-Age=31536000; Path=/; SameSite=Strict")
}
