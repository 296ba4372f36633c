package ui

import (
	"slices"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Polling of a running bulk, and the size of a page of operations.
const (
	pollEvery          = time.Second
	operationsPageSize = 50
)

var operationStatuses = wire.OperationStates()

// bulkPage is one bulk process: its state and progress, polled while it
// runs; the actions its state allows; its operations, each placed at the
// row of the operator's file it came from; and its result workbook.
type bulkPage struct {
	app.Compo

	// page is the component's own context: a job's answer updates the
	// page through it, since the control that started the job may be
	// gone by then (go-app drops updates of unmounted elements).
	page app.Context

	api        APIConfig
	id         string
	backOffice bool

	bulk    *wire.BulkInfo
	failure *wire.APIFailure
	message string
	acting  string
	mode    string
	polls   int // numbers poll chains; a stale one stops
	unwatch func()

	opStatus   string
	opOffset   int
	ops        wire.OperationList
	opsLoaded  bool
	opsFailure *wire.APIFailure
	opsRun     int

	workbookBusy bool
	workbookNote string
	workbookFail *wire.APIFailure

	// totals are the bulk's totals per currency, nil until read.
	totals *wire.BulkTotals
	// confirming is set while the confirmation of Execute is open.
	confirming bool
	// fourEyes is what the server says of who may execute the bulk, nil
	// until it answered (or when it has no such rule); fourEyesErr why it
	// did not.
	fourEyes    *fourEyes
	fourEyesErr string
	// review is the checker's review of a submitted bulk.
	review bulkReview

	announcement string
}

func newBulkPage() *bulkPage { return &bulkPage{mode: wire.ModeOnFailureContinue} }

func (p *bulkPage) OnMount(ctx app.Context) {
	p.page = ctx
	p.api = loadConfig().API
}

func (p *bulkPage) OnNav(ctx app.Context) {
	p.page = ctx
	p.api = loadConfig().API
	q := ctx.Page().URL().Query()
	p.id, p.backOffice = q.Get("id"), q.Get("api") == "backoffice"
	p.bulk, p.failure, p.message = nil, nil, ""
	p.fourEyes, p.fourEyesErr = nil, ""
	p.loadFourEyes(ctx)
	p.opStatus, p.opOffset, p.ops, p.opsLoaded = "", 0, wire.OperationList{}, false
	p.totals, p.confirming = nil, false
	p.review = bulkReview{auto: q.Get("review") == "1"}
	if p.id == "" {
		p.message = t("No bulk is named: open one from the list of bulks.")
		return
	}
	p.refresh(ctx, true)
	p.loadTotals(ctx)
	// The bulk_process_end event of the bulk, when the server's receiver
	// gets it, shows the end at once rather than at the next poll.
	p.stopWatching()
	id := p.id
	p.unwatch = watchBulkEnds(ctx, id, func(ctx app.Context, _ webhook.Event) {
		if id == p.id {
			p.refresh(ctx, true)
		}
	})
}

func (p *bulkPage) OnDismount() {
	p.polls++
	p.stopWatching()
}

func (p *bulkPage) stopWatching() {
	if p.unwatch != nil {
		p.unwatch()
		p.unwatch = nil
	}
}

func (p *bulkPage) Render() app.UI {
	return newShell().Route("/bulk").Announcement(p.announcement).Content(
		app.P().Body(app.A().Href(href("/bulks")).Text(t("All bulks"))),
		app.If(p.message != "", func() app.UI { return app.P().ID("bulk-message").Class("alert").Role("alert").Text(p.message) }),
		app.If(p.failure != nil, func() app.UI { return failureView("bulk-failure", p.failure) }),
		app.If(p.bulk != nil, p.renderBulk),
	)
}

func (p *bulkPage) renderBulk() app.UI {
	b := p.bulk
	return app.Section().ID("bulk").DataSet("status", b.Status).DataSet("bulk", b.BulkID).Aria("labelledby", "bulk-title").Body(
		app.H2().ID("bulk-title").Text(tf("Bulk %s", b.BulkID)+apiSuffix(p.backOffice)),
		app.Dl().Class("summary").Body(
			app.Div().Class("summary-item", "summary-wide").Body(app.Dt().Text(t("State")), app.Dd().ID("bulk-status").Class("summary-text").Body(bulkStateBadge(*b))),
			summaryItem("bulk-operations", t("Elements"), b.Operations, ""),
			summaryItem("bulk-completed", t("Completed"), b.Counts[wire.OperationCompleted], "ok"),
			summaryItem("bulk-failed", t("Failed"), b.Counts[wire.OperationFailed], "bad"),
			summaryItem("bulk-cancelled", t("Cancelled"), b.Counts[wire.OperationCancelled], "warn"),
		),
		app.Div().Class("status", "status-busy").Body(
			app.P().ID("bulk-progress-label").Text(progressText(*b)),
			app.Progress().ID("bulk-progress").Aria("labelledby", "bulk-progress-label").Max(max(b.Operations, 1)).Value(b.Done),
		),
		p.renderFacts(),
		app.P().Class("note").Text(p.facts()),
		p.renderApproval(),
		// A review shown stays after Execute: its record names the approval.
		app.If(b.Status == wire.BulkSubmitted || p.review.result != nil, p.renderReview),
		p.renderActions(),
		app.If(slices.Contains(b.Actions, wire.ActionExecute), p.renderConfirm),
		p.renderWorkbook(),
		p.renderOperations(),
	)
}

// facts are the bulk's other details in one line.
func (p *bulkPage) facts() string {
	b := p.bulk
	s := b.Operation
	switch b.Mode {
	case wire.ModeOnFailureContinue:
		s += " · " + t("set to go on past failed operations")
	case wire.ModeOnFailureStop:
		s += " · " + t("set to stop at the first failed operation")
	case "":
	default:
		s += " · " + tf("mode %s", b.Mode)
	}
	if b.Started != 0 {
		s += " · " + tf("started %s", millis(b.Started))
	}
	if b.Finished != 0 {
		s += " · " + tf("finished %s", millis(b.Finished))
	}
	return s
}

// renderFacts tells the bulk apart from the others: its kind, when it
// was submitted, from which file, and its totals.
func (p *bulkPage) renderFacts() app.UI {
	b := p.bulk
	kind := b.Operation
	if b.Kind != "" {
		kind = kindTitle(b.Kind)
	}
	totals := totalsText(p.totals)
	if totals == "" {
		totals = t("reading the operations…")
	}
	return app.Dl().ID("bulk-facts").Class("facts").Body(
		fact("bulk-kind", t("Kind"), kind),
		fact("bulk-submitted", t("Submitted"), p.submittedText()),
		fact("bulk-source", t("File"), sourceWords(*b, p.fourEyes)),
		app.Div().Body(app.Dt().Text(t("Totals")), app.Dd().ID("bulk-totals").DataSet("loaded", p.totals != nil).Text(totals)),
	)
}

// submittedText says when the bulk was submitted, as this browser's
// journal recorded or else the server's four-eyes rule, and by whom.
func (p *bulkPage) submittedText() string { return submittedWords(*p.bulk, p.fourEyes) }

// fact is a term and its value in a list of facts.
func fact(id, term, value string) app.UI {
	return app.Div().Body(app.Dt().Text(term), app.Dd().ID(id).Text(value))
}

// renderConfirm is the confirmation Execute opens: what is about to run,
// and what happens when an operation fails. Only its own button
// executes; Escape or Close closes it.
func (p *bulkPage) renderConfirm() app.UI {
	b := p.bulk
	kind := b.Operation
	if b.Kind != "" {
		kind = kindTitle(b.Kind)
	}
	var totals app.UI = app.Dd().ID("confirm-totals").DataSet("loaded", false).Text(t("Reading the operations…"))
	switch tot := p.totals; {
	case tot != nil && tot.MovesMoney && tot.Failure == nil && len(tot.Totals) > 0:
		totals = app.Dd().ID("confirm-totals").DataSet("loaded", true).Body(app.Ul().Class("plain-list").Body(
			app.Range(tot.Totals).Slice(func(i int) app.UI {
				ct := tot.Totals[i]
				return app.Li().DataSet("currency", ct.Label).Body(
					app.Strong().Class("total-amount").Text(totalLabel(ct)+" "+totalAmount(ct)),
					app.Text(tf(" in %s", plural(ct.Count, "element", "elements"))),
				)
			}),
		))
	case tot != nil:
		totals = app.Dd().ID("confirm-totals").DataSet("loaded", true).Text(totalsText(tot))
	}
	return app.Dialog().ID("execute-confirm").Class("dialog").Aria("labelledby", "execute-confirm-title").
		// A close event arrives after its dialog closed, and may come
		// after the dialog was opened again: only a closed dialog is.
		On("close", func(ctx app.Context, e app.Event) {
			if !ctx.JSSrc().Get("open").Bool() {
				p.confirming = false
			}
		}).
		Body(
			app.H3().ID("execute-confirm-title").Text(tf("Execute bulk %s?", b.BulkID)),
			app.Dl().Class("facts").Body(
				fact("confirm-kind", t("Kind"), kind),
				fact("confirm-count", t("Elements"), count(b.Operations)),
				app.Div().Body(app.Dt().Text(t("Totals")), totals),
				fact("confirm-source", t("File"), sourceAndTime(*b, p.fourEyes)),
				fact("confirm-mode", t("When an operation fails"), modeWords(p.mode)),
			),
			app.P().Class("note").Text(t("The operations start as soon as you execute, one after the other. A running bulk can be paused or cancelled; what has run stays done.")),
			app.Div().Class("actions").Body(
				// Nothing runs before the totals are there to be checked.
				app.Button().ID("confirm-execute").Type("button").Class("button").Disabled(p.totals == nil).
					Text(tf("Execute %s", plural(b.Operations, "operation", "operations"))).OnClick(p.confirmExecute),
				app.Button().ID("cancel-execute").Type("button").Class("button", "button-quiet").AutoFocus(true).Text(t("Close")).OnClick(p.closeConfirm),
			),
		)
}

// openConfirm shows the confirmation of Execute as a modal dialog.
func (p *bulkPage) openConfirm(ctx app.Context) {
	p.confirming = true
	if !app.IsClient {
		return
	}
	if d := app.Window().GetElementByID("execute-confirm"); d.Truthy() && !d.Get("open").Bool() {
		d.Call("showModal")
	}
}

func (p *bulkPage) closeConfirm(ctx app.Context, e app.Event) {
	p.confirming = false
	if !app.IsClient {
		return
	}
	if d := app.Window().GetElementByID("execute-confirm"); d.Truthy() && d.Get("open").Bool() {
		d.Call("close")
	}
}

func (p *bulkPage) confirmExecute(ctx app.Context, e app.Event) {
	if !p.confirming || p.totals == nil {
		return
	}
	p.closeConfirm(ctx, e)
	p.run(ctx, wire.ActionExecute)
}

// loadTotals reads the bulk's totals (the worker keeps them once read).
func (p *bulkPage) loadTotals(ctx app.Context) {
	conn := currentConnection(ctx)
	if missing := conn.ready(p.api, p.backOffice); missing != "" {
		return
	}
	id := p.id
	req := wire.GetBulkTotals{Connection: conn.forWorker(p.backOffice), BulkID: id}
	runJob(p.page, wire.JobBulkTotals, req, nil, func(t wire.BulkTotals, _ app.Value, err error) {
		if id != p.id {
			return
		}
		if err != nil {
			t = wire.BulkTotals{BulkID: id, Failure: &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}}
		}
		p.totals = &t
	})
}

// renderApproval says who approved the bulk, once the server's four-eyes
// rule has seen another operator execute it.
func (p *bulkPage) renderApproval() app.UI {
	if p.fourEyes == nil || p.fourEyes.approval() == "" {
		return nil
	}
	return app.P().ID("four-eyes-approval").Class("note").Text(p.fourEyes.approval())
}

// loadFourEyes asks the server whether this operator may execute the
// bulk under its four-eyes rule, and who they are; with the rule, Execute
// waits for the answer. When the server does not answer, Execute is
// offered: the server still refuses what its rule forbids.
func (p *bulkPage) loadFourEyes(ctx app.Context) {
	if !app.IsClient || p.id == "" {
		return // the server renders the page's first HTML without asking itself
	}
	id := p.id
	ctx.Async(func() {
		f, err := loadFourEyes(ctx, id)
		ctx.Dispatch(func(app.Context) {
			if id != p.id {
				return
			}
			if err != nil {
				p.fourEyesErr = errorText(err)
				return
			}
			p.fourEyes = &f
		})
	})
}

// renderActions offers only the transitions the state allows.
func (p *bulkPage) renderActions() app.UI {
	b := p.bulk
	if len(b.Actions) == 0 {
		return app.P().ID("bulk-actions").Class("note").Text(t("The bulk has ended: no action can change it."))
	}
	return app.Div().ID("bulk-actions").Class("actions").Body(
		app.Range(b.Actions).Slice(func(i int) app.UI {
			a := b.Actions[i]
			label := actionLabel(a)
			if a == wire.ActionExecute {
				label += "…"
			}
			btn := app.Button().ID("action-"+a).Type("button").Class("button").Text(label).
				OnClick(func(ctx app.Context, e app.Event) { p.act(ctx, a) }, app.EventScope(a)) // see pager
			if a == wire.ActionCancel {
				btn = btn.Class("button-quiet")
			}
			if p.acting != "" {
				btn = btn.Disabled(true)
			}
			if a != wire.ActionExecute {
				return btn
			}
			if p.api.FourEyes {
				switch {
				case p.fourEyes == nil && p.fourEyesErr == "":
					return app.P().ID("four-eyes").Class("note").Text(t("Asking the server who may execute this bulk…"))
				case p.fourEyes != nil && !p.fourEyes.allowed():
					return app.P().ID("four-eyes").Class("note", "four-eyes").Text(p.fourEyes.why())
				}
			}
			return app.Div().Class("execute").Body(
				app.Label().For("execute-mode").Text(t("When an operation fails")),
				app.Select().ID("execute-mode").Class("select").OnChange(func(ctx app.Context, e app.Event) {
					p.mode = ctx.JSSrc().Get("value").String()
				}).Body(
					option(wire.ModeOnFailureContinue, t("Continue with the others"), p.mode == wire.ModeOnFailureContinue),
					option(wire.ModeOnFailureStop, t("Stop the bulk"), p.mode == wire.ModeOnFailureStop),
				),
				btn,
			)
		}),
	)
}

func actionLabel(a string) string {
	switch a {
	case wire.ActionExecute:
		return t("Execute")
	case wire.ActionPause:
		return t("Pause")
	case wire.ActionResume:
		return t("Resume")
	case wire.ActionCancel:
		return t("Cancel the bulk")
	}
	return a
}

// act runs an action; execute opens its confirmation, and cancel asks
// first, since neither can be undone.
func (p *bulkPage) act(ctx app.Context, a string) {
	if p.acting != "" {
		return
	}
	if a == wire.ActionExecute {
		p.openConfirm(ctx)
		return
	}
	if a == wire.ActionCancel && app.IsClient && !app.Window().Call("confirm", tf("Cancel bulk %s? Operations not yet run will never run.", p.id)).Bool() {
		return
	}
	p.run(ctx, a)
}

// run sends an action and shows the bulk after it.
func (p *bulkPage) run(ctx app.Context, a string) {
	if p.acting != "" {
		return
	}
	conn := currentConnection(ctx)
	if missing := conn.ready(p.api, p.backOffice); missing != "" {
		p.message = tf("The connection is not ready: %s", missing)
		return
	}
	p.acting, p.failure = a, nil
	req := wire.BulkAction{Connection: conn.forWorker(p.backOffice), BulkID: p.id, Action: a}
	if a == wire.ActionExecute {
		req.Mode = p.mode
	}
	runJob(p.page, wire.JobBulkAction, req, nil, func(r wire.BulkResult, _ app.Value, err error) {
		p.acting = ""
		p.show(ctx, r, err, true)
		if r.Failure == nil && err == nil {
			p.announcement = tf("%s: the bulk is %s.", actionLabel(a), statusWord(p.bulk.Status))
			queue.refresh(true) // an executed or cancelled bulk leaves the queue
		}
	})
}

// refresh reads the bulk; withOps reads its operations too.
func (p *bulkPage) refresh(ctx app.Context, withOps bool) {
	conn := currentConnection(ctx)
	if missing := conn.ready(p.api, p.backOffice); missing != "" {
		p.message = tf("The connection is not ready: %s", missing)
		return
	}
	req := wire.GetBulk{Connection: conn.forWorker(p.backOffice), BulkID: p.id}
	runJob(p.page, wire.JobBulk, req, nil, func(r wire.BulkResult, _ app.Value, err error) {
		p.show(ctx, r, err, withOps)
	})
}

// show takes new details; while the bulk runs it polls again.
func (p *bulkPage) show(ctx app.Context, r wire.BulkResult, err error, withOps bool) {
	switch {
	case err != nil:
		p.message = errorText(err)
		return
	case r.Failure != nil:
		p.failure = r.Failure
	}
	if r.Bulk == nil {
		return
	}
	if r.Failure == nil {
		p.failure = nil
	}
	before := ""
	if p.bulk != nil {
		before = p.bulk.Status
	}
	p.bulk = r.Bulk
	p.reviewOnArrival(ctx)
	if before != p.bulk.Status {
		withOps = true
		if before != "" {
			p.announcement = tf("The bulk is %s.", statusWord(p.bulk.Status))
			p.loadFourEyes(ctx) // an execution is its approval
		}
	}
	if withOps {
		p.loadOperations(ctx)
	}
	p.polls++
	if p.bulk.Status == wire.BulkRunning {
		chain := p.polls
		p.page.After(pollEvery, func(ctx app.Context) {
			if chain == p.polls && p.Mounted() {
				p.refresh(ctx, false)
			}
		})
	}
}

func (p *bulkPage) renderOperations() app.UI {
	l := p.ops
	return app.Section().ID("operations").DataSet("loaded", p.opsLoaded).Aria("labelledby", "operations-title").Body(
		app.H3().ID("operations-title").Text(t("Operations")),
		app.Div().Class("filters").Body(
			app.Div().Class("field").Body(
				app.Label().For("operation-status").Text(t("State")),
				app.Select().ID("operation-status").Class("select").OnChange(func(ctx app.Context, e app.Event) {
					p.opStatus, p.opOffset = ctx.JSSrc().Get("value").String(), 0
					p.loadOperations(ctx)
				}).Body(
					option("", t("Every state"), p.opStatus == ""),
					app.Range(operationStatuses).Slice(func(i int) app.UI {
						return option(operationStatuses[i], statusWord(operationStatuses[i]), operationStatuses[i] == p.opStatus)
					}),
				),
			),
		),
		app.If(p.opsFailure != nil, func() app.UI { return failureView("operations-failure", p.opsFailure) }),
		app.If(p.opsLoaded && len(l.Operations) == 0, func() app.UI {
			return app.P().Class("note").Text(t("No operation in this state."))
		}),
		app.If(len(l.Operations) > 0, func() app.UI {
			return app.Div().Body(
				app.Div().Class("table-scroll").Body(app.Table().ID("operations-table").Class("table").Body(
					app.Caption().Text(tf("%s to %s of %s", count(l.Offset+1), count(l.Offset+len(l.Operations)), plural(l.Count, "operation", "operations"))),
					app.THead().Body(app.Tr().Body(
						app.Th().Class("num").Text(t("Sequence")), app.Th().Text(t("In your file")), app.Th().Text(t("State")),
						app.Th().Text(receiverHeading(l.MovesMoney, l.ReceiverType)),
						app.If(l.MovesMoney, func() app.UI { return app.Th().Class("num").Text(t("Amount")) }),
						app.If(l.HasReference, func() app.UI { return app.Th().Text(t("Reference")) }),
						app.Th().Text(t("Error")),
					)),
					app.TBody().Body(app.Range(l.Operations).Slice(func(i int) app.UI {
						op := l.Operations[i]
						return app.Tr().DataSet("sequence", op.Sequence).DataSet("status", op.Status).Body(
							app.Td().Class("num").Text(count(op.Sequence)),
							app.Td().Class("operation-place").Text(placeOf(op.Element, op.Sheet, op.Row)),
							app.Td().Body(statusBadge(op.Status)),
							app.Td().Class("operation-receiver").Text(counterpartyText(op.Keys.Counterparty)),
							app.If(l.MovesMoney, func() app.UI { return app.Td().Class("num", "operation-amount").Text(keyAmountText(op.Keys.Amount)) }),
							app.If(l.HasReference, func() app.UI { return app.Td().Class("operation-reference").Text(op.Keys.Reference) }),
							app.Td().Class("operation-error").Text(op.Error),
						)
					})),
				)),
				pager("operations", l.Offset, len(l.Operations), l.Count, operationsPageSize, func(ctx app.Context, offset int) {
					p.opOffset = offset
					p.loadOperations(ctx)
				}),
			)
		}),
	)
}

// loadOperations reads the page of operations the filter asks for.
func (p *bulkPage) loadOperations(ctx app.Context) {
	conn := currentConnection(ctx)
	p.opsRun++
	run := p.opsRun
	req := wire.ListOperations{Connection: conn.forWorker(p.backOffice), BulkID: p.id, Status: p.opStatus, Offset: p.opOffset, Limit: operationsPageSize}
	runJob(p.page, wire.JobOperations, req, nil, func(l wire.OperationList, _ app.Value, err error) {
		if run != p.opsRun {
			return
		}
		p.opsLoaded = true
		switch {
		case err != nil:
			p.opsFailure = &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}
		case l.Failure != nil:
			p.opsFailure = l.Failure
		default:
			p.ops, p.opsFailure = l, nil
		}
	})
}

func (p *bulkPage) renderWorkbook() app.UI {
	btn := app.Button().ID("result-workbook").Type("button").Class("button", "button-quiet").Text(t("Download the result workbook")).OnClick(p.downloadResults)
	if p.workbookBusy {
		btn = btn.Disabled(true)
	}
	return app.Div().Class("workbook").Body(
		btn,
		app.P().Class("hint").Text(t("Every row of your file with its bulk, its operation's state, whom it paid, the amount and the reference, and the error of a failed operation or the API's response to the others; the failed rows come first, on a sheet that loads again as it is, to fix and submit.")),
		app.If(p.workbookNote != "", func() app.UI { return app.P().ID("workbook-note").Role("status").Text(p.workbookNote) }),
		app.If(p.workbookFail != nil, func() app.UI { return failureView("workbook-failure", p.workbookFail) }),
	)
}

func (p *bulkPage) downloadResults(ctx app.Context, e app.Event) {
	p.workbookBusy, p.workbookNote, p.workbookFail = true, t("Reading the operations…"), nil
	req := wire.ResultWorkbook{Connection: currentConnection(ctx).forWorker(p.backOffice), BulkID: p.id}
	runJob(p.page, wire.JobResultWorkbook, req, func(pr wire.Progress) {
		if pr.Total > 0 {
			p.workbookNote = tf("Reading the operations: %s of %s…", count(pr.Done), count(pr.Total))
		}
	}, func(f wire.ResultFile, data app.Value, err error) {
		p.workbookBusy = false
		switch {
		case err != nil:
			p.workbookNote = errorText(err)
		case f.Failure != nil:
			p.workbookNote, p.workbookFail = "", f.Failure
		default:
			download(data, f.Name, f.Type)
			p.workbookNote = tf("%s: %s, %s failed.", downloadName(f.Name), plural(f.Rows, "row", "rows"), count(f.Failed))
			p.announcement = p.workbookNote
		}
	})
}
