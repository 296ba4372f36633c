package ui

import (
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pollEvery is how often the page reads a running bulk again.
const pollEvery = time.Second

// bulkPage is one bulk process, a parent of the parts the operator works
// through: the bulk's facts and state, polled while it runs; the actions
// its state allows (bulkActions); the checker's review of a submitted
// bulk (bulkReview); its result workbook (bulkResults); and its
// operations, each placed at the row of the operator's file it came from
// (bulkOperations). Each part owns its state; the page keeps what they
// share: the bulk named, as last read, the connection, and what the
// server says of its totals and of who may execute it.
type bulkPage struct {
	app.Compo

	// page is the component's own context: a job's answer updates the
	// page through it, since the control that started the job may be
	// gone by then (go-app drops updates of unmounted elements).
	page app.Context

	api        APIConfig
	id         string
	backOffice bool
	conn       wire.Connection
	// missing says why the connection is not ready, "" when it is.
	missing string
	// autoReview starts the review once the bulk is read: the checker
	// came from the queue of bulks awaiting approval to review it.
	autoReview bool

	bulk    *wire.BulkInfo
	failure *wire.APIFailure
	message string
	polls   int // numbers poll chains; a stale one stops
	unwatch func()
	// reads numbers the readings of the bulk that call for its
	// operations again: the list follows them.
	reads int

	// totals are the bulk's totals per currency, nil until read.
	totals *wire.BulkTotals
	// fourEyes is what the server says of who may execute the bulk, nil
	// until it answered (or when it has no such rule); fourEyesErr why it
	// did not.
	fourEyes    *fourEyes
	fourEyesErr string

	announcement string
}

func newBulkPage() *bulkPage { return &bulkPage{} }

func (p *bulkPage) OnMount(ctx app.Context) {
	p.page = ctx
	p.api = loadConfig().API
}

func (p *bulkPage) OnNav(ctx app.Context) {
	p.page = ctx
	p.api = loadConfig().API
	q := ctx.Page().URL().Query()
	p.id, p.backOffice = q.Get("id"), q.Get("api") == "backoffice"
	conn := currentConnection(ctx)
	p.conn, p.missing = conn.forWorker(p.backOffice), conn.ready(p.api, p.backOffice)
	p.autoReview = q.Get("review") == "1"
	p.bulk, p.failure, p.message = nil, nil, ""
	p.fourEyes, p.fourEyesErr = nil, ""
	p.loadFourEyes(ctx)
	p.totals = nil
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
	return newShell().Route("/bulk").Announcement(p.announcement).Content(p.content()...)
}

// content is the page's parts. Every part keeps its place whether shown
// or not (slot): go-app matches a parent's children by place, and a part
// moved would be mounted afresh, its component's state lost.
func (p *bulkPage) content() []app.UI {
	return []app.UI{
		app.P().Body(app.A().Href(href("/bulks")).Text(t("All bulks"))),
		slot(p.message != "", func() app.UI { return app.P().ID("bulk-message").Class("alert").Role("alert").Text(p.message) }),
		slot(p.failure != nil, func() app.UI { return failureView("bulk-failure", p.failure) }),
		slot(p.bulk != nil, p.renderBulk),
	}
}

func (p *bulkPage) renderBulk() app.UI {
	b := p.bulk
	return app.Section().ID("bulk").DataSet("status", b.Status).DataSet("bulk", b.BulkID).Aria("labelledby", "bulk-title").Body(p.bulkParts()...)
}

// bulkParts are the bulk's facts, then the parts the operator works
// through, each a component in its place (see content).
func (p *bulkPage) bulkParts() []app.UI {
	b := p.bulk
	return []app.UI{
		app.H2().ID("bulk-title").Text(tf("Bulk %s", b.BulkID) + apiSuffix(p.backOffice)),
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
		newBulkReview().Bulk(p.id, b.Status).Connection(p.conn, p.missing).FourEyes(p.api.FourEyes).Auto(p.autoReview).OnAnnounce(p.announce),
		newBulkActions().Bulk(p.id, b, p.totals).FourEyes(p.api.FourEyes, p.fourEyes, p.fourEyesErr).Connection(p.conn, p.missing).OnActed(p.acted),
		newBulkResults().Bulk(p.id, p.conn).OnAnnounce(p.announce),
		newBulkOperations().Bulk(p.id, p.conn).Read(p.reads),
	}
}

// slot is ui when shown, else an empty text that keeps its place.
func slot(shown bool, ui func() app.UI) app.UI {
	if !shown {
		return app.Text("")
	}
	return ui()
}

// announce tells screen readers what a part of the page did.
func (p *bulkPage) announce(_ app.Context, text string) { p.announcement = text }

// acted shows the bulk as an action left it: an executed or cancelled
// bulk leaves the queue of those awaiting approval.
func (p *bulkPage) acted(ctx app.Context, action string, r wire.BulkResult, err error) {
	if err == nil && r.Failure == nil {
		// The host hears of the action before the state it led to.
		tellBulk(action, "", r.Bulk)
	}
	p.show(ctx, r, err, true)
	switch {
	case err != nil:
		tellFailure(action, errorText(err))
	case r.Failure != nil:
		tellFailure(action, failureSummary(r.Failure))
	case p.bulk != nil:
		p.announcement = tf("%s: the bulk is %s.", actionLabel(action), statusWord(p.bulk.Status))
		queue.refresh(true)
	}
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
	kind := kindOf(*b)
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

// loadTotals reads the bulk's totals (the worker keeps them once read).
func (p *bulkPage) loadTotals(ctx app.Context) {
	if p.missing != "" {
		return
	}
	id := p.id
	req := wire.GetBulkTotals{Connection: p.conn, BulkID: id}
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
	return slot(p.fourEyes != nil && p.fourEyes.approval() != "", func() app.UI {
		return app.P().ID("four-eyes-approval").Class("note").Text(p.fourEyes.approval())
	})
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

// refresh reads the bulk; withOps has its operations read again too.
func (p *bulkPage) refresh(ctx app.Context, withOps bool) {
	if p.missing != "" {
		p.message = tf("The connection is not ready: %s", p.missing)
		return
	}
	req := wire.GetBulk{Connection: p.conn, BulkID: p.id}
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
	tellBulk("", before, p.bulk)
	if before != p.bulk.Status {
		withOps = true
		if before != "" {
			p.announcement = tf("The bulk is %s.", statusWord(p.bulk.Status))
			p.loadFourEyes(ctx) // an execution is its approval
		}
	}
	if withOps {
		p.reads++
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
