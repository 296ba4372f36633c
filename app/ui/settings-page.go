package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// settingsPage is the Settings page. It says what it will hold; its features come
// with the packages that do the work.
type settingsPage struct{ app.Compo }

func newSettingsPage() *settingsPage { return &settingsPage{} }

func (p *settingsPage) Render() app.UI {
	return plannedPage("/settings",
		"Where the console sends bulks: the API's base URL, whether to use the back-office API, and the api-key and bearer token. Secrets stay in this tab's memory unless you choose otherwise, and never appear in the URL.",
		"No connection can be set up yet: submitting is not part of this console yet.")
}
