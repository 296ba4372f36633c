package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// bulksPage is the Bulks page. It says what it will hold; its features come
// with the packages that do the work.
type bulksPage struct{ app.Compo }

func newBulksPage() *bulksPage { return &bulksPage{} }

func (p *bulksPage) Render() app.UI {
	return plannedPage("/bulks",
		"Bulks you submit from this console will be listed here with their state (submitted, running, paused, finished, canceled) and their progress. From this page you will execute, pause, resume or cancel a bulk process and watch it finish.",
		"Submitting a bulk needs the connection settings and the API client; until then, import and validate files on the Import page.")
}
