package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the checker's review found, as the review shows it: the bulk's
// figures read back, the elements other bulks hold too, and the verdict
// against the maker's receipt or the control totals with every
// difference.

// checkRepeats looks for the reviewed bulk's elements in other bulks.
func (r *bulkReview) checkRepeats(run int, id string, conn wire.Connection) {
	r.repeatsNote = t("Looking for these elements in other bulks…")
	mark("review-checking")
	runJob(r.ctx, wire.JobBulkRepeats, wire.BulkRepeats{Connection: conn, BulkID: id}, func(pr wire.Progress) {
		if run == r.run && pr.Detail != "" {
			r.repeatsNote = pr.Detail
			if pr.Total > 0 {
				r.repeatsNote = tf("%s: %s of %s", pr.Detail, count(pr.Done), count(pr.Total))
			}
		}
	}, func(f wire.BulkRepeatsFound, _ app.Value, err error) {
		if run != r.run || id != r.IbulkID {
			return
		}
		switch {
		case err != nil:
			r.repeatsNote = tf("Other bulks could not be checked for these elements: %s", errorText(err))
		case f.Failure != nil:
			r.repeatsNote = tf("Other bulks could not be checked for these elements: %s", f.Failure.Summary)
		default:
			r.repeats, r.repeatsChecked = f.Repeats, true
			if r.elements != nil && len(f.Elements) > 0 {
				r.elements.setRepeats(f.Elements)
				r.marked()
			}
			if f.Repeats != nil && f.Repeats.Count > 0 {
				if f.Repeats.Count == 1 {
					r.announce(tf("%s is in other bulks too.", plural(f.Repeats.Count, "element", "elements")))
				} else {
					r.announce(tf("%s are in other bulks too.", plural(f.Repeats.Count, "element", "elements")))
				}
			}
		}
		r.ctx.Defer(func(app.Context) { mark("review-repeats-shown") })
	})
}

func (r *bulkReview) renderReviewResult() app.UI {
	rv := r.result
	return app.Div().ID("review-result").Body(
		app.Dl().Class("summary").Body(
			summaryItem("review-elements", t("Elements"), rv.Elements, ""),
			summaryItem("review-invalid-count", t("Invalid"), rv.InvalidCount, "bad"),
		),
		app.Dl().ID("review-facts").Class("facts").Body(
			app.Div().Body(app.Dt().Text(t("Totals")), app.Dd().ID("review-totals").Body(totalsList(rv.Totals, rv.MovesMoney))),
			app.Div().Body(app.Dt().Text(t("Body SHA-256")), app.Dd().ID("review-hash").Body(
				app.Code().Title(rv.BodySHA256).Text(shortHash(rv.BodySHA256)),
			)),
			app.Div().Body(app.Dt().Text(t("Validated with")), app.Dd().ID("review-contract").Text(t(rv.Contract))),
		),
		r.renderRepeatsCheck(),
		app.If(len(rv.Notes) > 0, func() app.UI {
			return app.Ul().ID("review-notes").Class("plain-list", "warning-text").Body(app.Range(rv.Notes).Slice(func(i int) app.UI { return app.Li().Text(rv.Notes[i]) }))
		}),
		app.If(len(rv.Sources) > 0, func() app.UI {
			// A salary run draws on many sources: folded, it leaves the
			// invalid elements in sight.
			return app.Details().ID("review-sources-details").Open(len(rv.Sources) <= 5).Body(
				app.Summary().Text(sourcesTitle(rv)),
				app.Div().Class("table-scroll").Body(app.Table().ID("review-sources").Class("table").Body(
					app.THead().Body(app.Tr().Body(
						app.Th().Scope("col").Text(t("Source")),
						app.Th().Scope("col").Class("num").Text(t("Elements")),
						app.Th().Scope("col").Class("num").Text(t("Total")),
					)),
					app.TBody().Body(app.Range(rv.Sources).Slice(func(i int) app.UI {
						s := rv.Sources[i]
						return app.Tr().Body(app.Td().Text(s.Source), app.Td().Class("num").Text(count(s.Count)), app.Td().Class("num").Text(amountsText(s.Totals)))
					})),
				)),
			)
		}),
		app.If(rv.InvalidCount > 0, func() app.UI {
			title := plural(rv.InvalidCount, "invalid element", "invalid elements")
			if rv.InvalidCount > len(rv.Invalid) {
				title = tf("%s, the first %s listed", title, count(len(rv.Invalid)))
			}
			return app.Div().ID("review-invalid").Body(
				app.H4().Text(title),
				app.Ul().Class("plain-list").Body(app.Range(rv.Invalid).Slice(func(i int) app.UI {
					el := rv.Invalid[i]
					return app.Li().DataSet("element", el.Element).Body(
						app.Strong().Text(tf("Sequence %d: ", el.Element)),
						app.Text(strings.Join(el.Problems, " ")),
					)
				})),
			)
		}),
	)
}

// sourcesTitle names the totals per source, and how many are listed.
func sourcesTitle(rv *wire.BulkReview) string {
	if rv.SourceCount > len(rv.Sources) {
		return tf("Totals per source (%s, the %s with the most elements listed)", plural(rv.SourceCount, "source", "sources"), count(len(rv.Sources)))
	}
	return tf("Totals per source (%s)", plural(rv.SourceCount, "source", "sources"))
}

// renderRepeatsCheck says how the look-up of the bulk's elements in other
// bulks goes, then what it found.
func (r *bulkReview) renderRepeatsCheck() app.UI {
	if !r.repeatsChecked {
		return app.P().ID("review-repeats").Class("hint").DataSet("checking", true).Text(r.repeatsNote)
	}
	if r.repeats == nil {
		return app.P().ID("review-repeats").Class("hint").DataSet("count", 0).Text(t("No other bulk of the API's record or of this browser's journal holds any of these elements."))
	}
	return renderReviewRepeats(r.repeats)
}

// renderReviewRepeats says which elements of the bulk other bulks hold
// too: executing it would pay them again.
func renderReviewRepeats(rp *wire.RepeatsInfo) app.UI {
	if rp == nil {
		return nil
	}
	var items []app.UI
	if rp.Count > 0 {
		bulks := strings.Join(rp.Bulks, ", ")
		var head string
		switch {
		case rp.Count == 1 && len(rp.Bulks) == 1:
			head = tf("%s of the %s elements is in another bulk too (%s): executing this bulk would send them again.", count(rp.Count), count(rp.ToSend), bulks)
		case rp.Count == 1:
			head = tf("%s of the %s elements is in other bulks too (%s): executing this bulk would send them again.", count(rp.Count), count(rp.ToSend), bulks)
		case len(rp.Bulks) == 1:
			head = tf("%s of the %s elements are in another bulk too (%s): executing this bulk would send them again.", count(rp.Count), count(rp.ToSend), bulks)
		default:
			head = tf("%s of the %s elements are in other bulks too (%s): executing this bulk would send them again.", count(rp.Count), count(rp.ToSend), bulks)
		}
		items = append(items, app.P().Body(app.Strong().Text(head)))
		shown := rp.Elements[:min(len(rp.Elements), 20)]
		items = append(items, app.Details().Body(
			app.Summary().Text(t("Which elements")),
			app.Ul().Class("plain-list").Body(app.Range(shown).Slice(func(i int) app.UI {
				return app.Li().DataSet("element", shown[i].Element).Text(shown[i].Text)
			})),
			app.If(rp.Count > len(shown), func() app.UI {
				return app.P().Class("hint").Text(tf("and %s more", count(rp.Count-len(shown))))
			}),
		))
	}
	if rp.RecordError != "" {
		items = append(items, app.P().Class("hint").Text(rp.RecordError))
	}
	class := "note"
	if rp.Count > 0 {
		class = "warning-box"
	}
	return app.Div().ID("review-repeats").Class(class).DataSet("count", rp.Count).Body(items...)
}

// renderVerdict says whether the bulk holds what the receipt or the
// control totals say, and lists every difference.
func (r *bulkReview) renderVerdict() app.UI {
	rv := r.result
	if rv == nil || rv.Failure != nil {
		return nil
	}
	if r.serverBusy {
		return app.P().ID("review-verdict").Class("hint").Text(t("Comparing with the receipt the server kept…"))
	}
	if !rv.Compared {
		nothing := t("Nothing compared: load the maker's receipt or type control totals, then review again.")
		if r.server != nil && serverReceiptWhy(r.server) != "" {
			nothing = serverReceiptWhy(r.server) + " " + nothing
		}
		return app.P().ID("review-verdict").Class("hint").Text(nothing)
	}
	with := app.If(r.comparedWith() != "", func() app.UI { return app.P().ID("review-compared-with").Class("note").Text(r.comparedWith()) })
	if rv.Matches() {
		return app.Div().Body(
			app.P().ID("review-verdict").Class("verdict", "verdict-accepted").DataSet("match", true).Body(app.Strong().Text(tf("Matches %s", t(r.against)))),
			with,
		)
	}
	lines := append(append([]string{}, rv.Unread...), differenceTexts(rv.Differences)...)
	return app.Div().Body(
		app.P().ID("review-verdict").Class("verdict", "verdict-rejected").DataSet("match", false).Body(app.Strong().Text(t("Does not match"))),
		with,
		app.Ul().ID("review-differences").Class("plain-list").Body(app.Range(lines).Slice(func(i int) app.UI { return app.Li().Text(lines[i]) })),
	)
}

// maxElementDifferences is how many elements that differ from the
// receipt the verdict names: the grid marks every one.
const maxElementDifferences = 10

// differenceTexts says each difference, the first maxElementDifferences
// elements' alone, then how many more elements differ.
func differenceTexts(ds []wire.Difference) []string {
	out := make([]string, 0, len(ds))
	elements := 0
	for _, d := range ds {
		if d.Index != nil {
			if elements++; elements > maxElementDifferences {
				continue
			}
		}
		out = append(out, d.Text)
	}
	if more := elements - maxElementDifferences; more > 0 {
		out = append(out, tf("and %s more: the grid below marks every one.", plural(more, "element", "elements")))
	}
	return out
}

// totalsList shows totals per currency as the confirmation of Execute
// does.
func totalsList(ts []wire.Total, movesMoney bool) app.UI {
	if len(ts) == 0 {
		if !movesMoney {
			return app.Text(t("no amounts"))
		}
		return app.Text(t("no readable amount"))
	}
	return app.Ul().Class("plain-list").Body(app.Range(ts).Slice(func(i int) app.UI {
		tot := ts[i]
		return app.Li().DataSet("currency", tot.Label).Body(
			app.Strong().Class("total-amount").Text(totalLabel(tot)+" "+totalAmount(tot)),
			app.Text(tf(" in %s", plural(tot.Count, "element", "elements"))),
		)
	}))
}

func amountsText(ts []wire.Total) string {
	parts := make([]string, len(ts))
	for i, tot := range ts {
		parts[i] = totalLabel(tot) + " " + totalAmount(tot)
	}
	return strings.Join(parts, " · ")
}

// shortHash is the start of a hex hash, enough to tell bodies apart at a
// glance; the full one is the element's title.
func shortHash(h string) string {
	if len(h) <= 16 {
		return h
	}
	return h[:16] + "…"
}
