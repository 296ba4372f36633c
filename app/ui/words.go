package ui

import (
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// langKey is the localStorage key of the language the operator chose in
// Settings; without it the console follows the browser's languages.
const langKey = "bulkdesk-lang"

// consoleLang is the language the console speaks. The server renders the
// first HTML in English; the browser switches when the page starts.
var consoleLang = lang.English

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
	if l, ok := lang.Parse(storedLanguage()); ok {
		setLanguage(l)
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
}
