package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the pages show of the approval queue (approvalqueue.go): a count
// beside Bulks in the navigation, and the list at the top of the Bulks
// page.

// navCount is the count of bulks awaiting the operator's approval beside
// a navigation link, for Bulks alone; nil when none await.
func navCount(path string) app.UI {
	if path != "/bulks" {
		return nil
	}
	bulks, more, _ := queue.awaitingYou()
	if len(bulks) == 0 {
		return nil
	}
	n := count(len(bulks))
	if more {
		n += "+"
	}
	return app.Span().Body(
		app.Span().ID("nav-queue-count").Class("nav-count").Aria("hidden", "true").Text(n),
		app.Span().Class("visually-hidden").Text(tf(" (%s awaiting your approval)", n)),
	)
}

// queueHref opens a bulk of the queue and starts its review.
func queueHref(b queuedBulk) string {
	return bulkHref(b.BulkID, b.API == "backoffice") + "&review=1"
}

// queueTotals writes a queued bulk's totals on one line, as the
// console's language writes numbers.
func queueTotals(b queuedBulk) string {
	parts := make([]string, len(b.Totals))
	for i, a := range b.Totals {
		parts[i] = totalLabel(a.total()) + " " + totalAmount(a.total())
	}
	if len(parts) == 0 {
		return t("no amounts")
	}
	return strings.Join(parts, " · ")
}

// renderQueue lists the bulks awaiting the operator's approval, newest
// first: the bulks others submitted through this server that nobody has
// executed or cancelled yet.
func (p *bulksPage) renderQueue() app.UI {
	bulks, more, loaded := queue.awaitingYou()
	if !loaded || !loadConfig().API.FourEyes {
		return nil
	}
	var body app.UI
	switch {
	case queue.readProblem() != "" && len(bulks) == 0:
		body = app.P().ID("queue-problem").Class("warning-text").Text(queue.readProblem())
	case len(bulks) == 0:
		body = app.P().ID("queue-empty").Class("note").Text(t("No bulk awaits your approval."))
	default:
		body = app.Div().Class("table-scroll").Body(app.Table().ID("queue-table").Class("table").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text(t("Bulk")), app.Th().Scope("col").Text(t("Submitted by")), app.Th().Scope("col").Text(t("Submitted")),
				app.Th().Scope("col").Text(t("File")), app.Th().Scope("col").Text(t("Kind")),
				app.Th().Scope("col").Class("num").Text(t("Elements")), app.Th().Scope("col").Text(t("Totals")),
			)),
			app.TBody().Body(app.Range(bulks).Slice(func(i int) app.UI {
				b := bulks[i]
				file := b.FileName
				if file == "" {
					file = t("not named")
				}
				return app.Tr().DataSet("bulk", b.BulkID).Body(
					app.Td().Body(
						app.A().Href(bulkHref(b.BulkID, b.API == "backoffice")).Text(b.BulkID),
						app.A().Class("bulk-review-link", "queue-review").Href(queueHref(b)).Aria("label", tf("Review bulk %s before executing it", b.BulkID)).Text(t("Review")),
					),
					app.Td().Class("queue-maker").Text(b.SubmittedBy),
					app.Td().Class("queue-submitted").Text(dateTime(b.SubmittedAt.Local())),
					app.Td().Class("queue-file").Text(file),
					app.Td().Class("queue-kind").Text(kindTitle(b.Kind)),
					app.Td().Class("num", "queue-elements").Text(count(b.Elements)),
					app.Td().Class("queue-totals").Text(queueTotals(b)),
				)
			})),
		))
	}
	title := t("Awaiting your approval")
	if len(bulks) > 0 {
		title = tf("Awaiting your approval (%s)", count(len(bulks)))
	}
	return app.Section().ID("approval-queue").Class("approval-queue").Aria("labelledby", "queue-title").Body(
		app.H2().ID("queue-title").Text(title),
		app.P().Class("hint").Text(t("Bulks other operators submitted through this server, which only another operator may execute: review each before executing it.")),
		body,
		app.If(more, func() app.UI {
			return app.P().Class("hint").Text(tf("The newest %s are listed; open older ones from the list below.", count(queueLimit)))
		}),
	)
}
