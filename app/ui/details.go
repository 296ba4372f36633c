package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// techDetails holds, closed under "Details", what a sentence on the page
// leaves to the technically minded: the API's own terms (its paths, the
// request body, idempotency-refs, SHA-256) and the browser's storage. The
// plain sentence stays on the page, in the operator's words; this follows
// it.
func techDetails(id, text string) app.UI {
	return app.Details().ID(id).Class("tech-details").Body(
		app.Summary().Text(t("Details")),
		app.P().Text(text),
	)
}
