package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// webhooksPage is the Webhooks page. It says what it will hold; its features come
// with the packages that do the work.
type webhooksPage struct{ app.Compo }

func newWebhooksPage() *webhooksPage { return &webhooksPage{} }

func (p *webhooksPage) Render() app.UI {
	return plannedPage("/webhooks",
		"Paste a webhook's payload and its signature headers (signature and signature-v2) to check, here in the browser, that they were signed with your secret, and to see which part differs when they were not.",
		"The verifier needs the webhook signing code, which is not part of this console yet.")
}
