package ui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bulkReview is the checker's review of a submitted bulk on its page
// (wire.JobReviewBulk): the bulk read back from the API, compared with
// the maker's receipt or typed control totals before anyone executes it.
type bulkReview struct {
	busy     bool
	progress string
	result   *wire.BulkReview
	message  string
	run      int // numbers reviews; a stale answer is dropped

	// against names what the shown result was compared with: the inputs
	// may have changed since; receiptUsed, control and read are the
	// receipt's name, the typed totals and when the bulk was read, for the
	// review's record.
	against     string
	receiptUsed string
	control     *wire.ControlTotals
	read        time.Time
	recordNote  string

	// The look-up of the bulk's elements in other bulks, which follows
	// the review (JobBulkRepeats): its answer, or its progress or failure.
	repeats        *wire.RepeatsInfo
	repeatsChecked bool
	repeatsNote    string

	receiptName string
	receiptText string
	receiptErr  string
	count       string
	totals      string

	// The bulk's elements, for the grid (bulk-review-grid.go): as the
	// review sent them, the filter the checker chose and the view it
	// gives; viewSeq numbers the views (a new one starts the grid at its
	// top), marks the checks that marked elements since.
	elements     *bulkElements
	filter       elementFilter
	view         *elementView
	viewSeq      int
	marks        int
	aboveText    string
	aboveProblem string

	// server is the comparison with the receipt the server kept of the
	// bulk (bulk-review-server.go), serverBusy while it runs.
	server     *wire.ServerReceiptCompared
	serverBusy bool
	// auto starts the review once the bulk is read: the checker came
	// from the queue of bulks awaiting approval to review it.
	auto bool
}

// renderReview is the "Review before executing" section of a SUBMITTED
// bulk.
func (p *bulkPage) renderReview() app.UI {
	r := &p.review
	btn := app.Button().ID("run-review").Type("button").Class("button").Text(t("Review the bulk")).OnClick(p.runReview)
	if r.busy {
		btn = btn.Disabled(true)
	}
	receiptHint := t("The receipt the maker saved when submitting (JSON, or its page to print). It is read in this browser.")
	if p.api.FourEyes {
		receiptHint = t("Not needed for a bulk submitted through this server, which kept the maker's receipt: the review compares with it. Load one for a bulk submitted elsewhere.")
	}
	if r.receiptName != "" {
		receiptHint = tf("Loaded: %s", r.receiptName)
	}
	// Once the bulk has left SUBMITTED, the review shown is kept for its
	// record, and a new one is no longer "before executing".
	open := p.bulk.Status == wire.BulkSubmitted
	title := t("Review before executing")
	if !open {
		title = t("The review before executing")
	}
	return app.Section().ID("bulk-review").Class("bulk-review").Aria("labelledby", "review-title").Body(
		app.H3().ID("review-title").Text(title),
		app.If(open, func() app.UI { return p.renderReviewInputs(btn, receiptHint) }),
		app.P().ID("review-progress").Class("hint").Role("status").Text(r.progress),
		app.If(r.message != "", func() app.UI { return app.P().ID("review-message").Class("alert").Role("alert").Text(r.message) }),
		app.If(r.result != nil && r.result.Failure != nil, func() app.UI { return failureView("review-failure", r.result.Failure) }),
		// Always present, so that screen readers hear the verdict change;
		// first, so that it is seen before the figures behind it.
		app.Div().ID("review-verdict-live").Aria("live", "polite").Body(p.renderVerdict()),
		app.If(r.result != nil && r.result.Failure == nil, p.renderReviewResult),
		p.renderElements(),
		app.If(r.result != nil && r.result.Failure == nil, func() app.UI {
			note := t("The review as shown, with who reviewed it and, once the bulk is executed, who approved it and when.")
			if r.recordNote != "" {
				note = r.recordNote
			}
			return app.Div().ID("review-record").Class("actions").Body(
				app.Button().ID("download-review").Type("button").Class("button", "button-quiet").Text(t("Download the review")).OnClick(p.downloadReview),
				app.P().ID("review-record-note").Class("note").Text(note),
			)
		}),
	)
}

// renderReviewInputs are what the checker compares the bulk with: the
// maker's receipt, or control totals, and the button that reads it.
func (p *bulkPage) renderReviewInputs(btn app.HTMLButton, receiptHint string) app.UI {
	r := &p.review
	return app.Div().Body(
		app.P().Class("note").Text(t("Reads the bulk back from the API: what will run, not what the file said. Compare it with the maker's receipt or with the control totals you were given.")),
		app.Div().Class("review-inputs").Body(
			app.Div().Class("field").Body(
				app.Label().For("review-receipt").Text(t("Load the maker's receipt")),
				app.Input().ID("review-receipt").Type("file").Class("input").Class(loadedClass(r.receiptName)).Accept(".json,application/json,.html,text/html").
					Aria("describedby", "review-receipt-hint").OnChange(p.reviewReceiptChosen),
				app.Span().ID("review-receipt-hint").Class("hint").Text(receiptHint),
				app.If(r.receiptErr != "", func() app.UI {
					return app.P().ID("review-receipt-error").Class("warning-text").Role("alert").Text(r.receiptErr)
				}),
			),
			app.Div().Class("field", "field-narrow").Body(
				app.Label().For("review-count").Text(t("Control count")),
				app.Input().ID("review-count").Type("text").Class("input").Attr("inputmode", "numeric").Value(r.count).
					Aria("describedby", "review-count-hint").Attr("autocomplete", "off").
					OnInput(func(ctx app.Context, e app.Event) { r.count = ctx.JSSrc().Get("value").String() }),
				app.Span().ID("review-count-hint").Class("hint").Text(t("Elements, as 10,000; empty if not given.")),
			),
			app.Div().Class("field").Body(
				app.Label().For("review-control-totals").Text(t("Control totals")),
				app.Input().ID("review-control-totals").Type("text").Class("input").Value(r.totals).Placeholder(t("EUR 1,234.56; USD 20.00")).
					Aria("describedby", "review-totals-hint").Attr("autocomplete", "off").Spellcheck(false).
					OnInput(func(ctx app.Context, e app.Event) { r.totals = ctx.JSSrc().Get("value").String() }),
				app.Span().ID("review-totals-hint").Class("hint").Text(t("One per currency, separated by semicolons; empty if not given.")),
			),
		),
		app.Div().Class("actions").Body(btn),
	)
}

// checkRepeats looks for the reviewed bulk's elements in other bulks.
func (p *bulkPage) checkRepeats(run int, id string, conn wire.Connection) {
	r := &p.review
	r.repeatsNote = t("Looking for these elements in other bulks…")
	mark("review-checking")
	runJob(p.page, wire.JobBulkRepeats, wire.BulkRepeats{Connection: conn, BulkID: id}, func(pr wire.Progress) {
		if run == r.run && pr.Detail != "" {
			r.repeatsNote = pr.Detail
			if pr.Total > 0 {
				r.repeatsNote = tf("%s: %s of %s", pr.Detail, count(pr.Done), count(pr.Total))
			}
		}
	}, func(f wire.BulkRepeatsFound, _ app.Value, err error) {
		if run != r.run || id != p.id {
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
				p.announcement = tf("%s are in other bulks too.", plural(f.Repeats.Count, "element", "elements"))
				if f.Repeats.Count == 1 {
					p.announcement = tf("%s is in other bulks too.", plural(f.Repeats.Count, "element", "elements"))
				}
			}
		}
		p.page.Defer(func(app.Context) { mark("review-repeats-shown") })
	})
}

// downloadReview writes the review shown as the checker's record
// (wire.ReviewRecord), asking the server first who approved the bulk.
func (p *bulkPage) downloadReview(ctx app.Context, e app.Event) {
	r := &p.review
	rv, id := r.result, p.id
	if rv == nil {
		return
	}
	ctx.Async(func() {
		f, err := loadFourEyes(ctx, id)
		ctx.Dispatch(func(app.Context) {
			if id != p.id || rv != r.result {
				return
			}
			rec := wire.ReviewRecord{Version: wire.ReviewRecordVersion, ReviewedAt: r.read.UTC(), Receipt: r.receiptUsed,
				ServerReceipt: r.server != nil && r.server.Kept == wire.ReceiptCompared, Control: r.control, Matches: rv.Matches(), Review: *rv}
			if r.repeatsChecked {
				rec.Repeats = r.repeats
			}
			if err == nil {
				rec.ReviewedBy = f.You
				if f.Known != nil && *f.Known {
					rec.SubmittedBy, rec.SubmittedAt = f.SubmittedBy, f.SubmittedAt
					rec.ApprovedBy, rec.ApprovedAt = f.ExecutedBy, f.ExecutedAt
				}
			}
			data, jerr := json.MarshalIndent(rec, "", "  ")
			if jerr != nil {
				r.recordNote = tf("The review could not be written: %s", errorText(jerr))
				return
			}
			name := downloadName("bulk-" + id + ".review.json")
			// The record quotes the operator's data: inert for spreadsheets.
			download(app.ValueOf(string(inert.JSON(data))+"\n"), name, "application/json")
			r.recordNote = tf("%s: the review of bulk %s.", name, id)
			if rec.ApprovedBy != "" {
				r.recordNote = tf("%s: the review of bulk %s, approved by %s.", name, id, rec.ApprovedBy)
			}
			p.announcement = r.recordNote
		})
	})
}

func (p *bulkPage) renderReviewResult() app.UI {
	rv := p.review.result
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
		p.renderRepeatsCheck(),
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
func (p *bulkPage) renderRepeatsCheck() app.UI {
	r := &p.review
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
func (p *bulkPage) renderVerdict() app.UI {
	r := &p.review
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

func (p *bulkPage) reviewReceiptChosen(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	r := &p.review
	r.receiptErr = ""
	readText(file, func(text, errText string) {
		p.page.Dispatch(func(ctx app.Context) {
			if errText != "" {
				r.receiptName, r.receiptText, r.receiptErr = "", "", tf("The receipt was not loaded: %s", errText)
				return
			}
			r.receiptName, r.receiptText = name, text
			// A review already shown is compared with the receipt at once.
			if r.result != nil && !r.busy {
				p.runReview(ctx, app.Event{})
			}
		})
	})
	// The same file can be chosen again once changed on disk.
	ctx.JSSrc().Set("value", "")
}

// controlTotals reads what the checker typed, as they write numbers
// (money.ParseTyped); nil when nothing was. A count or a total that
// cannot be read is refused with how to type it.
func (r *bulkReview) controlTotals() (*wire.ControlTotals, error) {
	c := wire.ControlTotals{Lang: string(consoleLang)}
	if s := strings.TrimSpace(r.count); s != "" {
		n, err := money.ParseTyped(s, 0, typedSeparators())
		if err != nil || n < 0 || n > 1<<31 {
			return nil, saidError(tf("the control count %q is not a number of elements", s))
		}
		count := int(n)
		c.Count = &count
	}
	for _, t := range strings.FieldsFunc(r.totals, func(c rune) bool { return c == ';' || c == '\n' }) {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		if _, _, err := money.ParseCurrencyAmount(t, typedSeparators()); err != nil {
			return nil, saidError(typedProblem(err, ""))
		}
		c.Totals = append(c.Totals, t)
	}
	if c.Count == nil && len(c.Totals) == 0 {
		return nil, nil
	}
	return &c, nil
}

// reviewOnArrival starts the review of a bulk awaiting approval that the
// checker opened from the queue to review.
func (p *bulkPage) reviewOnArrival(ctx app.Context) {
	r := &p.review
	if !r.auto || p.bulk.Status != wire.BulkSubmitted || r.result != nil || r.busy {
		return
	}
	r.auto = false
	p.runReview(ctx, app.Event{})
}

func (p *bulkPage) runReview(ctx app.Context, e app.Event) {
	r := &p.review
	control, err := r.controlTotals()
	if err != nil {
		r.message = wire.Sentence(errorText(err))
		return
	}
	conn := currentConnection(ctx)
	if missing := conn.ready(p.api, p.backOffice); missing != "" {
		r.message = missing
		return
	}
	r.run++
	run, id := r.run, p.id
	r.busy, r.message, r.progress = true, "", t("Reading the bulk…")
	against := lang.Mark("the control totals")
	if r.receiptText != "" {
		against = lang.Mark("the receipt")
		if control != nil {
			against = lang.Mark("the receipt and the control totals")
		}
	}
	receiptName := ""
	if r.receiptText != "" {
		receiptName = r.receiptName
	}
	req := wire.ReviewBulk{Connection: conn.forWorker(p.backOffice), BulkID: id, Receipt: r.receiptText, Control: control}
	mark("review-start")
	runJob(p.page, wire.JobReviewBulk, req, func(pr wire.Progress) {
		switch {
		case run != r.run:
		case pr.Total > 0:
			if pr.Done == pr.Total {
				mark("review-read")
			}
			r.progress = tf("Reading operations %s of %s", count(pr.Done), count(pr.Total))
		}
	}, func(rv wire.BulkReview, data app.Value, err error) {
		if run != r.run || id != p.id {
			return
		}
		mark("review-received")
		r.busy, r.progress = false, ""
		if err != nil {
			r.message, r.result = errorText(err), nil
			return
		}
		r.result, r.against, r.receiptUsed, r.control, r.read, r.recordNote = &rv, against, receiptName, control, time.Now(), ""
		r.repeats, r.repeatsChecked, r.repeatsNote = nil, false, ""
		r.server, r.serverBusy, r.elements, r.view = nil, false, nil, nil
		p.page.Defer(func(app.Context) { mark("review-shown") })
		if rv.Failure != nil {
			return
		}
		if els, err := readReviewElements(data); err != nil {
			r.message = tf("The elements could not be shown: %s", errorText(err))
		} else {
			r.takeElements(els)
			r.elements.setDifferences(rv.Differences)
			r.marked()
		}
		if receiptName == "" && p.api.FourEyes {
			p.compareServerReceipt(run, id, req.Connection)
		} else {
			p.checkRepeats(run, id, req.Connection)
		}
		switch {
		case rv.Failure != nil:
			p.announcement = tf("The bulk could not be read: %s", rv.Failure.Summary)
		case !rv.Compared:
			p.announcement = tf("Bulk read: %s.", plural(rv.Elements, "element", "elements"))
		case rv.Matches():
			p.announcement = t("The bulk matches.")
		default:
			p.announcement = tf("The bulk does not match: %s.", plural(len(rv.Differences)+len(rv.Unread), "difference", "differences"))
		}
	})
}
