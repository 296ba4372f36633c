package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The warnings of what is sent stop nothing, but a submission carries
// them to the API: the confirmation lists them by sort, each with its
// first cells, and Submit waits until the operator says they were
// checked. A new plan (valid elements only, new bulks) asks again.

// renderWarnings lists the warnings to accept and the box that accepts
// them.
func (p *submitPage) renderWarnings() app.UI {
	pr := p.prepared
	if len(pr.Warnings) == 0 || pr.Blocked != "" {
		return nil
	}
	box := app.Input().Type("checkbox").ID("accept-warnings").OnChange(func(ctx app.Context, e app.Event) {
		p.warningsAccepted = ctx.JSSrc().Get("checked").Bool()
	})
	box = box.Checked(p.warningsAccepted)
	if p.step != submitConfirm {
		box = box.Disabled(true)
	}
	return app.Div().ID("warnings-to-accept").Class("warning-box").Body(
		app.P().Class("failure-title").Text(tf("%s to check before sending", plural(p.warningCount(), "warning", "warnings"))),
		app.P().Text(t("None of them stops the submission, but each is likely a mistake, and some make operations fail when the bulk runs. Correct them in the file, or accept them as they are.")),
		app.Ul().ID("warning-kinds").Body(app.Range(pr.Warnings).Slice(func(i int) app.UI {
			w := pr.Warnings[i]
			return app.Li().DataSet("code", w.Code).DataSet("count", w.Count).Body(
				app.Strong().Text(tf("%s: %s", w.Title, count(w.Count))),
				app.Ul().Body(app.Range(w.First).Slice(func(j int) app.UI {
					f := w.First[j]
					return app.Li().Text(tf("%s: %s", problemPlace(f), f.Message))
				})),
				app.If(w.Count > len(w.First), func() app.UI {
					return app.P().Class("note").Text(tf("And %s more.", count(w.Count-len(w.First))))
				}),
			)
		})),
		app.Div().Class("check", "choice").Body(box, app.Label().For("accept-warnings").Text(t("I have checked these warnings"))),
	)
}

// warningCount is how many warnings the operator accepts by sending.
func (p *submitPage) warningCount() int {
	n := 0
	for _, w := range p.prepared.Warnings {
		n += w.Count
	}
	return n
}

// awaitingAcceptance reports whether Submit waits for the warnings to be
// accepted.
func (p *submitPage) awaitingAcceptance() bool {
	return p.warningCount() > 0 && !p.warningsAccepted
}
