package ui

import (
	"net/url"

	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The steps of a submission.
const (
	submitNone      = "none"      // no document handed over
	submitPreparing = "preparing" // the worker plans it
	submitConfirm   = "confirm"   // the confirmation step
	submitSending   = "sending"   // chunks are being sent
	submitDone      = "done"      // every chunk is submitted
	submitStopped   = "stopped"   // a refusal, a failure or a stop
)

// submitPage is the submission of the current document: a confirmation
// step with the control totals and any earlier submission of the same
// content, then the chunks sent with a progress bar, then the bulks made.
// Below it, the journal lists every submission of this browser, and
// offers to resume an interrupted one with its original refs.
type submitPage struct {
	app.Compo

	// page is the component's own context: a job's answer updates the
	// page through it, since the control that started the job may be
	// gone by then (go-app drops updates of unmounted elements).
	page app.Context

	api  APIConfig
	doc  CurrentDocument
	step string

	// validOnly and newBulk are the operator's explicit choices; repeats
	// is the answer to the elements earlier bulks hold
	// (wire.RepeatsLeaveOut or wire.RepeatsAgain), "" before one.
	validOnly bool
	newBulk   bool
	repeats   string
	prepared  wire.Confirmation
	// warningsAccepted is the operator's word that the plan's warnings
	// were checked (see submit-warnings.go).
	warningsAccepted bool

	progress wire.Progress
	cancel   func()
	result   wire.Submitted
	failure  *wire.APIFailure
	message  string

	journal journalView

	announcement string
}

func newSubmitPage() *submitPage { return &submitPage{step: submitNone} }

func (p *submitPage) OnMount(ctx app.Context) {
	p.page, p.journal.page = ctx, ctx
	mark("submit-opened")
	p.api = loadConfig().API
	ctx.GetState(CurrentDocumentState, &p.doc)
	p.journal.load(ctx, nil)
	if p.doc.ID == 0 {
		p.step = submitNone
		return
	}
	p.prepare(ctx)
}

func (p *submitPage) OnDismount() {
	// A submission under way goes on in the worker: leaving the page does
	// not stop it, and the journal shows it.
	p.cancel = nil
}

func (p *submitPage) Render() app.UI {
	return newShell().Route(SubmitPath).Announcement(p.announcement).Content(
		p.renderDocument(),
		p.journal.render(p.api, p.resumed),
	)
}

func (p *submitPage) renderDocument() app.UI {
	switch p.step {
	case submitNone:
		return app.P().ID("submit-status").Class("lead").Body(
			app.Text(t("No file is ready to submit. ")),
			app.A().Href(href("/")).Text(t("Load one on the Import page")),
			app.Text(t("; earlier submissions are listed below.")),
		)
	case submitPreparing:
		return app.P().ID("submit-status").Class("status").Text(tf("Preparing %s…", p.doc.FileName))
	}
	pr := p.prepared
	return app.Section().ID("submission").Class("result").DataSet("step", p.step).Aria("labelledby", "submission-title").Body(
		app.H2().ID("submission-title").Text(pr.FileName),
		p.renderSummary(),
		p.renderTarget(),
		p.renderPriors(),
		p.renderWarnings(),
		p.renderRepeats(),
		p.renderChoice(),
		p.renderAction(),
	)
}

// renderSummary shows what will be sent: kind, counts, bulks and the
// control totals.
func (p *submitPage) renderSummary() app.UI {
	pr := p.prepared
	return app.Div().Body(
		app.Dl().Class("summary").Body(
			textItem("confirm-kind", t("Kind"), kindTitle(pr.Kind)+behalfSuffix(pr.BackOffice)),
			summaryItem("confirm-elements", t("Elements in the file"), pr.Elements, ""),
			summaryItem("confirm-invalid", t("Invalid"), pr.Invalid, "bad"),
			summaryItem("confirm-sending", t("To send"), pr.Sending, "ok"),
			summaryItem("confirm-bulks", t("Bulks"), len(pr.Chunks), ""),
		),
		app.Div().Class("confirm-reading").Body(
			app.If(len(pr.Reading) > 0, func() app.UI { return app.P().Class("field-label").Text(t("How the file was read")) }),
			renderStatements("confirm-reading", pr.Reading),
			renderSchedule("confirm-schedule", pr.Schedule),
		),
		app.If(len(pr.Totals) > 0, func() app.UI {
			return app.Table().ID("control-totals").Class("table").Body(
				app.Caption().Text(t("Control totals of the elements sent")),
				app.THead().Body(app.Tr().Body(app.Th().Text(t("Currency")), app.Th().Class("num").Text(t("Total")), app.Th().Class("num").Text(t("Elements")))),
				app.TBody().Body(app.Range(pr.Totals).Slice(func(i int) app.UI {
					tot := pr.Totals[i]
					row := app.Tr().DataSet("currency", tot.Label)
					if tot.Invalid {
						row = row.Class("invalid-currency").Title(t("amounts whose currency is not a valid ISO 4217 code, summed in minor units"))
					}
					return row.Body(
						app.Td().Text(totalLabel(tot)+codesNote(tot.Codes, tot.MoreCodes)),
						app.Td().Class("num", "total-amount").Text(totalAmount(tot)),
						app.Td().Class("num").Text(count(tot.Count)),
					)
				})),
			)
		}),
		app.If(len(pr.Chunks) > 1, func() app.UI {
			return app.Div().Body(
				app.P().ID("chunking").Class("note").Text(tf("A bulk holds at most 10,000 elements: the %s elements go as %s.", count(pr.Sending), plural(len(pr.Chunks), "bulk", "bulks"))),
				techDetails("chunking-details", t("Each part has its own idempotency-ref: sent twice, it still makes one bulk.")),
			)
		}),
		app.If(len(pr.Chunks) > 0, func() app.UI {
			total := 0
			for _, c := range pr.Chunks {
				total += c.Bytes
			}
			return app.P().ID("confirm-size").Class("note").DataSet("bytes", total).Text(tf("Size to send: %s.", byteSize(total)))
		}),
	)
}

// renderTarget says where the bulk goes, and that it is the sandbox.
func (p *submitPage) renderTarget() app.UI {
	c := p.connection()
	call := techDetails("submit-call", tf("The API call: %s.", p.prepared.Endpoint))
	if c.isSandbox(p.api) {
		return app.Div().Body(
			app.P().ID("submit-target").Class("notice").Body(app.Strong().Text(t("Sandbox: ")), app.Text(tf("sent %s to its stand-in API; no money moves.", c.target()))),
			call,
		)
	}
	return app.Div().Body(app.P().ID("submit-target").Class("note").Text(tf("Sent %s.", c.target())), call)
}

// renderPriors warns of earlier submissions of the same chunks, naming
// their bulks.
func (p *submitPage) renderPriors() app.UI {
	pr := p.prepared
	if len(pr.Priors) == 0 {
		return nil
	}
	title := t("This file was submitted before")
	switch {
	case pr.NewBulk:
		title = t("Submitting again as new bulks")
	case p.interrupted():
		title = t("An earlier submission of this file was interrupted")
	}
	return app.Div().ID("priors").Class("warning-box").Role("alert").Body(
		app.P().Class("failure-title").Text(title),
		app.Ul().Body(app.Range(pr.Priors).Slice(func(i int) app.UI {
			prior := pr.Priors[i]
			li := app.Li().Text(prior.Warning)
			if prior.BulkID != "" {
				li = app.Li().Body(app.Text(prior.Warning+" "), app.A().Href(bulkHref(prior.BulkID, pr.BackOffice)).Text(tf("Open bulk %s", prior.BulkID)))
			}
			return li
		})),
		app.If(pr.NewBulk, func() app.UI {
			return app.Div().Body(
				app.P().Text(t("The parts go as new ones: the API will make new bulks, and the operations run again.")),
				techDetails("priors-details", t("They get new idempotency-refs.")),
			)
		}).ElseIf(p.interrupted(), func() app.UI {
			return app.Div().Body(
				app.P().Text(t("Sending now resumes it: the API returns the bulks it already made instead of making them twice.")),
				techDetails("priors-details", t("The parts keep their original idempotency-refs.")),
			)
		}).Else(func() app.UI {
			return app.P().Text(t("Sending the same parts again returns the same bulks. To run these operations a second time, submit them again as new bulks."))
		}),
	)
}

// repeatsShown is how many repeated elements the page lists.
const repeatsShown = 50

// renderRepeats lists the elements that earlier bulks hold already, from
// this browser's journal and the API's record, and asks what to do with
// them: leave them out, or submit them again.
func (p *submitPage) renderRepeats() app.UI {
	r := p.prepared.Repeats
	if r == nil {
		return nil
	}
	note := app.If(r.RecordError != "", func() app.UI { return app.P().ID("repeats-record").Class("note").Text(r.RecordError) })
	if r.Count == 0 {
		return note
	}
	title := tf("%s of the %s to send were submitted before, in %s", count(r.Count), plural(r.ToSend, "element", "elements"), plural(len(r.Bulks), "bulk", "bulks"))
	if r.Count == 1 {
		title = tf("%s of the %s to send was submitted before, in %s", count(r.Count), plural(r.ToSend, "element", "elements"), plural(len(r.Bulks), "bulk", "bulks"))
	}
	box := app.Div().ID("repeats").Class("warning-box").Role("alert").DataSet("count", r.Count).Body(
		app.P().Class("failure-title").Text(title),
		app.P().Text(t("Sending them makes their operations run a second time (a transfer paid twice). The earlier bulks:")),
		app.Ul().ID("repeat-bulks").Class("bulk-links").Body(app.Range(r.Bulks).Slice(func(i int) app.UI {
			return app.Li().Body(app.A().Href(bulkHref(r.Bulks[i], p.prepared.BackOffice)).DataSet("bulk", r.Bulks[i]).Text(tf("bulk %s", r.Bulks[i])))
		})),
		repeatedElements("repeat-elements", r, repeatsShown),
		note,
	)
	if p.step != submitConfirm || p.prepared.Blocked != "" {
		return box
	}
	return app.Div().Body(box, app.Div().Class("actions").Body(
		app.Button().ID("repeats-leave-out").Type("button").Class("button").Text(tf("Leave them out: submit the other %s", plural(r.ToSend-r.Count, "element", "elements"))).OnClick(p.answerRepeats(wire.RepeatsLeaveOut)).Disabled(p.awaitingAcceptance()),
		app.Button().ID("repeats-again").Type("button").Class("button", "button-quiet").Text(tf("Submit them again (%s)", plural(r.Count, "element", "elements"))).OnClick(p.answerRepeats(wire.RepeatsAgain)).Disabled(p.awaitingAcceptance()),
	))
}

// repeatedElements lists the first n elements of r that earlier bulks
// hold, and counts the others.
func repeatedElements(id string, r *wire.RepeatsInfo, n int) app.UI {
	shown := r.Elements[:min(len(r.Elements), n)]
	return app.Div().Body(
		app.Ul().ID(id).Body(app.Range(shown).Slice(func(i int) app.UI {
			return app.Li().DataSet("element", shown[i].Element).Text(shown[i].Text)
		})),
		app.If(r.Count > len(shown), func() app.UI {
			return app.P().Class("note").Text(tf("And %s more.", plural(r.Count-len(shown), "element", "elements")))
		}),
	)
}

// hasRepeats reports whether the confirmation found repeats.
func (p *submitPage) hasRepeats() bool {
	return p.prepared.Repeats != nil && p.prepared.Repeats.Count > 0
}

// answerRepeats sends the plan with the operator's answer to its repeats.
func (p *submitPage) answerRepeats(answer string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.repeats = answer
		p.submit(ctx, e)
	}
}

// interrupted reports whether an earlier attempt with the same refs did
// not finish: sending resumes it.
func (p *submitPage) interrupted() bool {
	for _, prior := range p.prepared.Priors {
		if prior.SameRef && prior.State != wire.StateSubmitted {
			return true
		}
	}
	return false
}

// submittedBefore reports whether every chunk was submitted before with
// the same refs: sending again would only return the same bulks.
func (p *submitPage) submittedBefore() bool {
	pr := p.prepared
	if len(pr.Priors) == 0 || pr.NewBulk {
		return false
	}
	for _, prior := range pr.Priors {
		if !prior.SameRef || prior.State != wire.StateSubmitted {
			return false
		}
	}
	return len(pr.Priors) == len(pr.Chunks)
}

// renderChoice offers the explicit choice to send the valid elements
// only, and the workbook of the ones kept aside.
func (p *submitPage) renderChoice() app.UI {
	pr := p.prepared
	if !asideOffered(pr.Elements, pr.Invalid) {
		return nil
	}
	return newAsideChoice().
		Document(p.doc.ID, pr.Elements, pr.Invalid).
		ValidOnly(p.validOnly).
		Locked(p.step == submitSending || p.step == submitDone).
		OnValidOnly(p.validOnlyChosen).
		OnAnnounce(func(_ app.Context, text string) { p.announcement = text })
}

// renderAction is the step's main control and its outcome.
func (p *submitPage) renderAction() app.UI {
	pr := p.prepared
	switch p.step {
	case submitSending:
		bar := app.Progress().ID("submit-progress").Aria("label", t("Parts sent")).Max(max(p.progress.Total, 1)).Value(p.progress.Done)
		return app.Div().ID("submit-status").Class("status", "status-busy").Body(
			app.P().Text(tf("Sent %s of %s", count(p.progress.Done), plural(max(p.progress.Total, len(pr.Chunks)), "part", "parts"))),
			bar,
			app.Button().ID("stop-submission").Type("button").Class("button", "button-quiet").Text(t("Stop")).OnClick(p.stop),
			app.P().ID("submit-detail").Class("note").Text(p.progress.Detail),
		)
	case submitDone:
		return app.Div().ID("submit-status").Class("all-clear").Role("status").Body(
			app.P().ID("submit-outcome").Text(submitOutcome(p.result)),
			app.If(len(p.result.Existing) > 0, func() app.UI { return existingNotes(p.result) }),
			app.If(p.result.Repeats != nil && p.result.Repeats.LeftOut, func() app.UI {
				left := tf("%s submitted before were left out.", plural(p.result.Repeats.Count, "element", "elements"))
				if p.result.Repeats.Count == 1 {
					left = tf("%s submitted before was left out.", plural(p.result.Repeats.Count, "element", "elements"))
				}
				return app.P().ID("repeats-left-out").Class("note").Text(left)
			}),
			bulkLinks("submitted-bulks", p.result.Submission),
			app.If(receiptOffered(p.result.Submission), func() app.UI {
				return newSubmitReceipt().
					Submission(p.result.Submission).
					Reading(statementTexts(p.prepared.Reading)).
					OnAnnounce(func(_ app.Context, text string) { p.announcement = text })
			}),
		)
	case submitStopped:
		return app.Div().ID("submit-status").Body(
			app.If(p.failure != nil, func() app.UI { return failureView("submit-failure", p.failure) }),
			app.If(p.message != "", func() app.UI { return app.P().Class("alert").Role("alert").Text(p.message) }),
			app.If(len(p.result.Submission.Chunks) > 0, func() app.UI { return bulkLinks("submitted-bulks", p.result.Submission) }),
			app.P().Class("note").Text(t("Nothing of the file is lost: it is still loaded, and the journal keeps where the submission stopped. Sending again resumes it without making any bulk twice.")),
			techDetails("stopped-details", t("The parts are sent again with the same idempotency-refs.")),
			app.Div().Class("actions").Body(
				app.Button().ID("submit-again").Type("button").Class("button").Text(t("Send again")).OnClick(p.submit),
				app.A().Class("button", "button-quiet").Href(href("/")).Text(t("Back to the file")),
			),
		)
	}
	if pr.Blocked != "" {
		return app.P().ID("submit-blocked").Class("alert").Role("alert").Text(pr.Blocked)
	}
	if missing := p.connection().ready(p.api, pr.BackOffice); missing != "" {
		return app.Div().ID("submit-blocked").Class("alert").Role("alert").Body(
			app.Text(tf("The connection is not ready: %s ", missing)),
			app.A().Href(href("/settings")).Text(t("Open the connection settings")),
		)
	}
	label := tf("Submit %s as %s", plural(pr.Sending, "element", "elements"), plural(len(pr.Chunks), "bulk", "bulks"))
	switch {
	case pr.NewBulk:
		label = tf("Submit %s again as %s", plural(pr.Sending, "element", "elements"), plural(len(pr.Chunks), "new bulk", "new bulks"))
	case p.interrupted():
		label = t("Resume: send the parts not sent yet")
	}
	return app.Div().Class("actions").Body(
		app.If(!p.submittedBefore() && !p.hasRepeats(), func() app.UI {
			return app.Button().ID("confirm-submit").Type("button").Class("button").Text(label).OnClick(p.submit).Disabled(p.awaitingAcceptance())
		}),
		app.If(len(pr.Priors) > 0 && !pr.NewBulk, func() app.UI {
			return app.Button().ID("submit-new-bulk").Type("button").Class("button", "button-quiet").Text(t("Submit again as a new bulk…")).OnClick(p.submitAsNew)
		}),
		app.A().Class("button", "button-quiet").Href(href("/")).Text(t("Back to the file")),
	)
}

// connection is the current connection.
func (p *submitPage) connection() Connection {
	connections.Lock()
	defer connections.Unlock()
	if connections.set {
		return connections.current
	}
	return defaultConnection(p.api)
}

func (p *submitPage) validOnlyChosen(ctx app.Context, on bool) {
	p.validOnly = on
	p.prepare(ctx)
}

func (p *submitPage) submitAsNew(ctx app.Context, e app.Event) {
	p.newBulk = true
	p.prepare(ctx)
}

// prepare asks the worker for the plan and the confirmation's figures.
func (p *submitPage) prepare(ctx app.Context) {
	p.step = submitPreparing
	p.failure, p.message, p.repeats, p.warningsAccepted = nil, "", "", false
	conn := p.connection().forWorker(p.doc.BackOffice)
	req := wire.PrepareSubmission{Document: p.doc.ID, ValidOnly: p.validOnly, NewBulk: p.newBulk, Connection: &conn}
	runJob(p.page, wire.JobPrepareSubmission, req, nil, func(r wire.Confirmation, _ app.Value, err error) {
		if err != nil {
			p.step, p.message = submitStopped, errorText(err)
			p.announcement = p.message
			return
		}
		p.prepared, p.step = r, submitConfirm
		p.announcement = p.confirmation()
		ctx.Defer(func(app.Context) { mark("confirm-shown") })
	})
}

// confirmation reads the confirmation step out for screen readers.
func (p *submitPage) confirmation() string {
	pr := p.prepared
	if pr.Blocked != "" {
		return pr.Blocked
	}
	s := tf("Ready to submit %s of %s as %s.", plural(pr.Sending, "element", "elements"), kindTitle(pr.Kind), plural(len(pr.Chunks), "bulk", "bulks"))
	for _, tot := range pr.Totals {
		s += " " + tf("Total %s %s.", totalLabel(tot), totalAmount(tot))
	}
	if m := markedStatements(pr.Reading); m != "" {
		s += " " + m
	}
	if len(pr.Priors) > 0 {
		s += " " + pr.Priors[0].Warning
	}
	if n := p.warningCount(); n > 0 {
		s += " " + tf("%s to check: tick “I have checked these warnings” to submit.", plural(n, "warning", "warnings"))
	}
	return s
}

// submit sends the prepared plan; after a stop it sends the same plan
// again, which resumes it.
func (p *submitPage) submit(ctx app.Context, e app.Event) {
	if p.step == submitSending || p.prepared.Plan == "" || p.awaitingAcceptance() {
		return
	}
	p.step = submitSending
	p.progress = wire.Progress{Total: len(p.prepared.Chunks)}
	p.failure, p.message = nil, ""
	p.announcement = t("Submitting…")
	mark("submit-start")
	req := wire.Submit{Plan: p.prepared.Plan, Connection: p.connection().forWorker(p.prepared.BackOffice), Repeats: p.repeats}
	p.cancel = runJob(p.page, wire.JobSubmit, req, func(pr wire.Progress) {
		p.progress = pr
		// Reload the journal as soon as it holds the submission.
		if pr.Done == 0 && len(p.journal.list.Submissions) == 0 {
			p.journal.load(ctx, nil)
		}
	}, func(r wire.Submitted, _ app.Value, err error) {
		p.cancel = nil
		p.finished(ctx, r, err)
	})
}

// resumed shows a submission the journal resumed as this page's own.
func (p *submitPage) resumed(ctx app.Context, r wire.Submitted, err error) {
	if p.step == submitNone || p.step == submitStopped || p.step == submitDone {
		p.result = r
	}
	stopped := r.Repeats != nil && r.Repeats.Stopped // the journal asks about them
	if err == nil && r.Failure == nil && !stopped && p.step == submitStopped {
		p.step = submitDone
	}
}

// finished shows a submission's outcome.
func (p *submitPage) finished(ctx app.Context, r wire.Submitted, err error) {
	p.result = r
	p.journal.load(ctx, nil)
	if err == nil && r.Repeats != nil && r.Repeats.Stopped {
		// Nothing was sent: repeats the operator has not answered for
		// (found since the confirmation). Ask again.
		p.prepared.Repeats, p.repeats, p.step = r.Repeats, "", submitConfirm
		p.announcement = tf("Nothing was sent: %s of the file were submitted before.", plural(r.Repeats.Count, "element", "elements"))
		if r.Repeats.Count == 1 {
			p.announcement = tf("Nothing was sent: %s of the file was submitted before.", plural(r.Repeats.Count, "element", "elements"))
		}
		return
	}
	switch {
	case jobCanceled(err):
		p.step, p.message = submitStopped, t("Stopped. The journal keeps the parts not yet submitted; sending again resumes without making any bulk twice.")
	case err != nil:
		p.step, p.message = submitStopped, errorText(err)
	case r.Failure != nil:
		p.step, p.failure = submitStopped, r.Failure
	default:
		p.step = submitDone
		mark("submit-done")
		// The page's own context: the button that sent the plan is gone.
		tellSubmission(p.page, p.prepared, r.Submission)
	}
	switch {
	case p.failure != nil:
		p.announcement = tf("The submission stopped: %s", p.failure.Summary)
		tellFailure("submit", tf("The submission stopped: %s", failureSummary(p.failure)))
	case p.message != "":
		p.announcement = p.message
		tellFailure("submit", p.message)
	default:
		p.announcement = tf("Submitted as %s.", plural(len(r.Submission.Chunks), "bulk", "bulks"))
	}
}

func (p *submitPage) stop(ctx app.Context, e app.Event) {
	if p.cancel != nil {
		p.cancel()
	}
}

// statementTexts are the statements of a reading, in words.
func statementTexts(ss []reading.Statement) []string {
	var out []string
	for _, st := range ss {
		out = append(out, st.Text)
	}
	return out
}

// textItem is a summary item whose value is text.
func textItem(id, label, value string) app.UI {
	return app.Div().Class("summary-item").Body(
		app.Dt().Text(label),
		app.Dd().ID(id).Class("summary-text").Text(value),
	)
}

// behalfSuffix says in the operator's words that a bulk goes on behalf of
// an identity, through the back-office API.
func behalfSuffix(backOffice bool) string {
	if backOffice {
		return t(" (on behalf of an identity)")
	}
	return ""
}

func apiSuffix(backOffice bool) string {
	if backOffice {
		return t(" (back-office)")
	}
	return ""
}

// kindTitle is a kind's title, as the server listed it.
func kindTitle(id string) string {
	for _, k := range loadConfig().Kinds {
		if k.ID == id {
			return t(k.Title)
		}
	}
	return id
}

// bulkHref is the address of a bulk's page.
func bulkHref(id string, backOffice bool) string {
	u := href("/bulk") + "?id=" + url.QueryEscape(id)
	if backOffice {
		u += "&api=backoffice"
	}
	return u
}

// bulkLinks lists a submission's chunks with their bulks.
func bulkLinks(id string, s wire.SubmissionInfo) app.UI {
	return app.Ul().ID(id).Class("bulk-links").Body(app.Range(s.Chunks).Slice(func(i int) app.UI {
		c := s.Chunks[i]
		what := tf("Part %s: %s", count(c.Index+1), plural(c.Elements, "element", "elements"))
		if c.BulkID == "" {
			return app.Li().Text(what + " — " + chunkState(c))
		}
		return app.Li().Body(
			app.Text(what+" — "),
			app.A().Href(bulkHref(c.BulkID, s.BackOffice)).DataSet("bulk", c.BulkID).Text(tf("bulk %s", c.BulkID)),
		)
	}))
}

// chunkState says where a chunk stands, in an operator's words.
func chunkState(c wire.ChunkInfo) string {
	switch c.State {
	case wire.StatePlanned:
		return t("not sent yet")
	case wire.StateSending:
		return tf("sent without an answer (%s)", plural(c.Attempts, "attempt", "attempts"))
	case wire.StateFailed:
		return tf("refused: %s", c.LastError)
	case wire.StateSubmitted:
		return tf("bulk %s", c.BulkID)
	}
	return c.State
}

// byteSize writes a size in bytes for people: "3.4 MB".
func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return local(tf("%.1f MB", float64(n)/(1<<20)))
	case n >= 1<<10:
		return local(tf("%.1f KB", float64(n)/(1<<10)))
	}
	return plural(n, "byte", "bytes")
}
