package ui

import (
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// languageSection is the Settings section that chooses the console's
// language: the browser's, or one the operator picks, kept in this
// browser.
func (p *settingsPage) languageSection() app.UI {
	chosen := ""
	if app.IsClient {
		if l, ok := lang.Parse(storedLanguage()); ok {
			chosen = string(l)
		}
	}
	return app.Section().Class("settings-group").Aria("labelledby", "language-title").Body(
		app.H2().ID("language-title").Text(t("Language")),
		app.Div().Class("field").Body(
			app.Label().For("language").Text(t("Language of the console")),
			app.Select().ID("language").Class("select").Aria("describedby", "language-hint").OnChange(p.languageChosen).Body(
				option("", t("The browser's language"), chosen == ""),
				app.Range(lang.All).Slice(func(i int) app.UI {
					l := lang.All[i]
					return app.Option().Value(string(l)).Lang(string(l)).Text(l.Name()).Selected(chosen == string(l))
				}),
			),
			app.Span().ID("language-hint").Class("hint").Text(t("Numbers, amounts and dates are written as the language writes them. The choice is kept in this browser.")),
		),
	)
}

// languageChosen switches the console's language and opens the page
// again, so that every part of it, the navigation included, is drawn in
// the new language; the connection and the draft stay as they are.
func (p *settingsPage) languageChosen(ctx app.Context, e app.Event) {
	v := ctx.JSSrc().Get("value").String()
	l, ok := lang.Parse(v)
	rememberLanguage(l, !ok)
	chooseLanguage()
	// The worker writes the next messages in the new language.
	p.sendContract(wire.SetContract{Strict: strictSetting()}, "")
	ctx.Navigate(href("/settings"))
}
