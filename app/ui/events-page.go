package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// eventsPage is the Events page. It says what it will hold; its features come
// with the packages that do the work.
type eventsPage struct{ app.Compo }

func newEventsPage() *eventsPage { return &eventsPage{} }

func (p *eventsPage) Render() app.UI {
	return plannedPage("/feed",
		"The webhook events the console's receiver gets for your bulks will stream in here as they arrive, newest first, with their type, the bulk and element they concern, and whether their signature checked out.",
		"Nothing is received yet: the receiver is not connected to this console.")
}
