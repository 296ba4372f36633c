package ui

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// problemsPageSize is how many more problems "Show more" loads.
const problemsPageSize = 100

// The steps of an import.
const (
	stepChoose = "choose" // the kind and the file
	stepRead   = "read"   // the sheet, the columns and the settings
	stepReview = "review" // the elements, their problems and totals
)

// importPage is the console's home: choose the bulk kind, load a file,
// check how it is read, and review it — every problem at its cell, the
// control totals — before submitting it. The page only renders: the file
// is read, built, validated, edited and exported by jobs in the Web
// Worker, which keeps the document.
//
// Each step is a component of its own, as go-app's documentation app
// builds its pages: importChoose (import-choose.go), importRead
// (import-read.go), importReview (import-review.go) and, at its foot,
// importSubmit (import-submit.go). A step owns what the operator does in
// it, takes what the steps share as props, and hands its changes to the
// page through callbacks. The page keeps only what they share: the kind
// chosen, the open document as read and as built, the job under way,
// the step shown, the draft and the memory of earlier readings.
type importPage struct {
	app.Compo

	kinds      []Kind
	kindID     string
	backOffice bool
	fileName   string

	step string
	// busy is the job under way, nil when none.
	busy    *busyJob
	failure string
	// prep is how the open document is read; sum is its summary once
	// built.
	prep *wire.Prepared
	sum  *wire.Summary

	// focusNext, when set, is the control to move the keyboard focus to
	// once the worker answers: the one that shows the choice just made,
	// when the control that made it goes away.
	focusNext string
	// limits are the amount limits applied, kept with the draft.
	limits []string

	announcement string
	// draft is what the worker last said of the draft of the open file
	// (import-draft.go).
	draft wire.DraftState
	// memory recalls how files with the same headers were read
	// (remembered-mapping.go).
	memory mappingMemory
	// run numbers the loading jobs; the answers of a replaced one are
	// ignored.
	run int
	// ctx is the page's own context, for the worker's answers: an event's
	// context updates only its component, and is dropped once its
	// element is gone.
	ctx app.Context
	// releaseHost ends the page's taking of the host page's files, when
	// the console is embedded.
	releaseHost func()
}

// actionStartOver tells the steps the operator started over: each
// forgets what it holds of the file.
const actionStartOver = "import-start-over"

// A busyJob is a job the page waits for, shown with its progress.
type busyJob struct {
	label    string
	progress wire.Progress
	cancel   func()
}

func newImportPage() *importPage { return &importPage{step: stepChoose, memory: newMappingMemory()} }

func (p *importPage) OnInit() {
	p.kinds = loadConfig().Kinds
	// A host page that embeds the console may name the kind.
	if e, on := currentEmbedding(); on {
		if k, ok := kindByID(p.kinds, e.Kind); ok {
			p.kindID, p.backOffice = k.ID, k.BackOffice && e.BackOffice
		}
	}
}

func (p *importPage) OnMount(ctx app.Context) {
	p.ctx = ctx
	// What the operator did before the page's program ran is taken now,
	// before any event reaches the page; the jobs wait for the browser's
	// turn, which keeps the page's start in short tasks.
	kind := p.kindID
	early := p.takeEarly()
	if p.kindID == kind {
		mountedUnchanged(ctx)
	}
	run := p.run
	hostFile, release := takeEmbedFile(p.fileChosen)
	p.releaseHost = release
	afterYield(ctx, func(ctx app.Context) {
		if !p.Mounted() {
			return
		}
		guardLeaving()
		p.memory.warm(ctx)
		if hostFile != nil {
			// The host page's file came while another page was shown.
			early.drop()
			p.fileChosen(ctx, hostFile)
			return
		}
		if p.run != run {
			// The operator chose a file meanwhile, which replaces the
			// early one and the draft.
			early.drop()
			return
		}
		// A file chosen before the page's program ran replaces the
		// draft, as one chosen now would.
		if p.adoptEarly(ctx, early) {
			return
		}
		if p.prep == nil {
			p.restoreDraft(ctx)
		}
	})
}

func (p *importPage) OnDismount() {
	p.stop()
	if p.releaseHost != nil {
		p.releaseHost()
	}
}

// later runs f on the page's own context, so that what it changes shows.
func (p *importPage) later(f func()) {
	p.ctx.Dispatch(func(app.Context) { f() })
}

func (p *importPage) Render() app.UI {
	return newShell().Route("/").Announcement(p.announcement).Content(
		app.P().Class("lead").Text(t("Check a bulk before you submit it: choose what it does, load the spreadsheet, CSV or JSON file, check how it is read, and fix every problem at its cell.")),
		p.renderSteps(),
		p.renderDraft(),
		p.renderChoose(),
		p.renderStatus(),
		p.memory.render(p),
		p.renderRead(),
		p.renderReview(),
	)
}

// renderReview is the third step and the last, empty unless shown.
func (p *importPage) renderReview() app.UI {
	return newImportReview().
		Summary(p.sum).
		ReadFrom(p.prep != nil && p.prep.KindSuggested, p.prep != nil && !p.prep.Request).
		Current(p.step == stepReview).
		Limits(p.limits).
		OnSummary(func(_ app.Context, s *wire.Summary) { p.updateSummary(s) }).
		OnLimits(func(_ app.Context, l []string) { p.limits = l }).
		OnChangeReading(func(ctx app.Context) { p.goTo(ctx, stepRead) }).
		OnEditSet(p.editSetValue).
		OnSaving(p.saving).
		OnExport(p.export).
		OnAnnounce(func(_ app.Context, text string) { p.announcement = text }).
		OnFail(func(_ app.Context, err error) { p.jobFailed(err) })
}

// renderRead is the second step, empty unless shown.
func (p *importPage) renderRead() app.UI {
	return newImportRead().
		Kinds(p.kinds).
		Prepared(p.prep).
		Current(p.step == stepRead).
		OnPrepare(func(ctx app.Context, req wire.Prepare, label, focus string) {
			p.focusNext = focus
			p.prepare(ctx, req, label)
		}).
		OnValidate(p.validate).
		OnExport(p.export).
		OnAnnounce(func(_ app.Context, text string) { p.announcement = text }).
		OnFail(func(_ app.Context, msg string) { p.fail(msg) })
}

// renderSteps shows where the operator is in the flow.
func (p *importPage) renderSteps() app.UI {
	type step struct {
		id, label string
		open      bool
	}
	steps := []step{
		{stepChoose, t("Choose the kind and the file"), true},
		{stepRead, t("Check how it is read"), p.prep != nil && !p.prep.Request},
		{stepReview, t("Review and fix"), p.sum != nil},
	}
	return app.Nav().Class("steps").Aria("label", t("Import steps")).Body(
		app.Ol().Body(
			app.Range(steps).Slice(func(i int) app.UI {
				s := steps[i]
				li := app.Li().Class("step")
				label := app.Span().Text(fmt.Sprintf("%d. %s", i+1, s.label))
				if s.id == p.step {
					li = li.Class("step-current").Aria("current", "step")
				}
				if s.id != p.step && s.id != stepChoose && s.open {
					return li.Body(app.Button().Type("button").Class("link-button").ID("step-" + s.id).
						Text(fmt.Sprintf("%d. %s", i+1, s.label)).
						OnClick(func(ctx app.Context, e app.Event) { p.goTo(ctx, s.id) }))
				}
				return li.Body(label)
			}),
		),
	)
}

func (p *importPage) goTo(ctx app.Context, step string) {
	p.step = step
	title := "step-title"
	if step == stepReview {
		title = "result-title"
	}
	p.ctx.Defer(func(app.Context) { focusStep(title) })
}

// renderChoose is the first step, always shown.
func (p *importPage) renderChoose() app.UI {
	c := newImportChoose().
		Kinds(p.kinds).
		Kind(p.kindID, p.backOffice).
		Prepared(p.prep).
		OnKind(p.kindChosen).
		OnBackOffice(p.backOfficeChosen).
		OnFile(p.fileChosen).
		OnPaste(p.pasteChosen).
		OnFail(func(_ app.Context, msg string) { p.fail(msg) })
	if p.sum != nil {
		c = c.Built(p.sum.Elements)
	}
	return c
}

func (p *importPage) renderStatus() app.UI {
	switch {
	case p.busy != nil:
		b := p.busy
		label := b.label
		if b.progress.Total > 0 {
			if b.progress.Phase == wire.PhaseValidating {
				label = tf("%s: %s of %s elements", b.label, count(b.progress.Done), count(b.progress.Total))
			} else {
				label = tf("%s: %s of %s rows", b.label, count(b.progress.Done), count(b.progress.Total))
			}
		} else if b.progress.Done > 0 {
			label = tf("%s: %s rows", b.label, count(b.progress.Done))
		}
		bar := app.Progress().ID("progress").Aria("label", b.label)
		if b.progress.Total > 0 {
			bar = bar.Max(b.progress.Total).Value(b.progress.Done)
		}
		return app.Div().ID("status").Class("status", "status-busy").Body(
			app.P().Text(label),
			bar,
			app.If(b.cancel != nil, func() app.UI {
				return app.Button().Type("button").Class("button", "button-quiet").Text(t("Cancel")).OnClick(p.cancelJob)
			}),
		)
	case p.failure != "":
		return app.Div().ID("status").Class("status", "alert").Role("alert").Text(p.failure)
	case p.prep != nil && p.prep.Kind == "":
		return app.P().ID("status").Class("status").Text(tf("%s is loaded. Choose the bulk kind to read it as: its headers do not say.", p.prep.FileName))
	}
	// The words the early script (web/early.js) shows while it reads a
	// file chosen before the program runs, in the page's language.
	return app.Div().ID("status").DataSet("reading", tf("Reading %s", "{file}")).DataSet("pasted", t("Pasted rows"))
}

// option is a select's option. A false boolean attribute is left out: in
// the HTML the server renders, selected="false" would select it.
func option(value, text string, selected bool) app.UI {
	o := app.Option().Value(value).Text(text)
	if selected {
		o = o.Selected(true)
	}
	return o
}

// kindChosen reads the open file, if any, as the kind the operator
// chose (a zero Kind for none).
func (p *importPage) kindChosen(ctx app.Context, k Kind) {
	// A kind without a back office goes through the ordinary API.
	p.kindID, p.backOffice = k.ID, k.BackOffice && p.backOffice
	if p.kindID == "" || p.prep == nil {
		return
	}
	bo := p.backOffice
	p.prepare(ctx, wire.Prepare{Kind: p.kindID, BackOffice: &bo, Auto: true}, tf("Reading %s as %s", p.fileName, t(k.Title)))
}

func (p *importPage) backOfficeChosen(ctx app.Context, on bool) {
	p.backOffice = on
	if p.prep == nil || p.kindID == "" {
		return
	}
	bo := p.backOffice
	p.prepare(ctx, wire.Prepare{Kind: p.kindID, BackOffice: &bo, Auto: true}, t("Validating"))
}

func (p *importPage) fileChosen(ctx app.Context, file app.Value) {
	mark("file-chosen")
	p.ctx.Dispatch(func(ctx app.Context) {
		p.fileName = file.Get("name").String()
		p.open(ctx, wire.Open{FileName: p.fileName}, file)
	})
}

func (p *importPage) pasteChosen(ctx app.Context, text string) {
	p.fileName = t("Pasted rows")
	p.open(ctx, wire.Open{FileName: p.fileName, Text: text}, nil)
}

// open sends a file (or pasted text) to the worker, replacing whatever was
// loaded, and goes to the step its answer calls for.
func (p *importPage) open(ctx app.Context, req wire.Open, file app.Value) {
	p.stop()
	p.prep, p.sum, p.failure = nil, nil, ""
	req.Kind, req.BackOffice, req.Auto = p.kindID, p.backOffice, p.memory.buildAtOnce()
	req.TimeZone = storedTimeZone()
	load(p, tf("Reading %s", req.FileName), wire.JobOpen, req, file, p.prepared)
}

// prepare changes how the open document is read.
func (p *importPage) prepare(ctx app.Context, req wire.Prepare, label string) {
	if p.prep == nil {
		return
	}
	req.Document = p.prep.Document
	p.stop()
	load(p, label, wire.JobPrepare, req, nil, p.prepared)
}

// validate builds and validates the document as it is read now, with
// the column choices not applied yet.
func (p *importPage) validate(ctx app.Context, columns []wire.ColumnChoice) {
	if p.prep == nil {
		return
	}
	p.memory.validating(p.prep.Document)
	p.prepare(ctx, wire.Prepare{Columns: columns, Build: true}, tf("Validating %s", p.fileName))
}

// load runs a loading job of the import page with a progress bar and a
// Cancel button, and file (a File, or nil) as its payload; done receives
// its result unless a newer job replaced it.
func load[T any](p *importPage, label, job string, req any, file app.Value, done func(ctx app.Context, result T)) {
	loadWith(p, label, done, func(progress func(wire.Progress), finished func(T, app.Value, error)) func() {
		if file != nil {
			return runFileJob(p.ctx, job, req, file, progress, finished)
		}
		return runJob(p.ctx, job, req, progress, finished)
	})
}

// loadWith is load with the job sent (or adopted) by send, which returns
// the job's cancel.
func loadWith[T any](p *importPage, label string, done func(ctx app.Context, result T), send func(progress func(wire.Progress), finished func(T, app.Value, error)) (cancel func())) {
	if background() == nil {
		p.fail(t("The validation engine is not available in this page."))
		return
	}
	p.run++
	run := p.run
	p.failure = ""
	p.busy = &busyJob{label: label}
	p.announcement = label + "…"
	progress := func(pr wire.Progress) {
		if run == p.run && p.busy != nil {
			p.busy.progress = pr
		}
	}
	finished := func(r T, _ app.Value, err error) {
		if run != p.run {
			return
		}
		p.busy = nil
		if err != nil {
			p.jobFailed(err)
			return
		}
		mark("result-received")
		done(p.ctx, r)
	}
	p.busy.cancel = send(progress, finished)
}

// prepared shows how the document is read, or its review when the worker
// built it at once.
func (p *importPage) prepared(ctx app.Context, pr wire.Prepared) {
	p.memory.readingArrived(p, &pr)
}

// showPrepared shows how a document is read, or its review when built.
func (p *importPage) showPrepared(ctx app.Context, pr *wire.Prepared) {
	p.prep = pr
	setFieldTitles(pr.Targets)
	p.noteDraft(pr.Draft)
	if pr.Kind != "" {
		p.kindID, p.backOffice = pr.Kind, pr.BackOffice
	}
	if pr.Summary != nil {
		p.showSummary(ctx, pr.Summary)
		return
	}
	p.sum = nil
	if pr.Kind == "" {
		p.step = stepChoose
		p.announcement = tf("%s is loaded. Choose the bulk kind to read it as.", pr.FileName)
		p.ctx.Defer(func(app.Context) { focusByID("kind") })
		return
	}
	entering := p.step != stepRead
	p.step = stepRead
	p.announcement = tf("%s: check how it is read. %s", pr.FileName, mappingSummary(pr.Columns))
	if n := len(undecided(pr.Reading)); n > 0 {
		p.announcement = tf("%s: the file does not say how to read it: %s to choose. %s", pr.FileName, plural(n, "question", "questions"), mappingSummary(pr.Columns))
	}
	p.ctx.Defer(func(app.Context) {
		mark("read-shown")
		// The keyboard focus follows the operator into the step, and
		// stays on the control they change within it.
		if entering {
			focusStep("step-title")
		} else if p.focusNext != "" {
			focusByID(p.focusNext)
		}
		p.focusNext = ""
	})
}

// showSummary goes to the review of a built document.
func (p *importPage) showSummary(ctx app.Context, s *wire.Summary) {
	first := p.sum == nil || p.sum.Document != s.Document
	p.sum = s
	p.noteDraft(s.Draft)
	tellValidated(s)
	p.step = stepReview
	p.announcement = tf("%s validated: %s, %s valid, %s invalid, %s, %s.",
		s.FileName, plural(s.Elements, "element", "elements"), count(s.Valid), count(s.Invalid),
		plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"))
	p.ctx.Defer(func(app.Context) {
		mark("result-shown")
		if first {
			focusStep("result-title")
		}
	})
}

func (p *importPage) cancelJob(ctx app.Context, e app.Event) {
	p.stop()
	p.announcement = t("Canceled.")
}

// stop cancels the loading job under way, if any.
func (p *importPage) stop() {
	p.run++
	if p.busy != nil && p.busy.cancel != nil {
		p.busy.cancel()
	}
	p.busy = nil
}

func (p *importPage) jobFailed(err error) {
	if jobCanceled(err) {
		return // replaced by a newer job, or canceled by the operator
	}
	p.fail(errorText(err))
}

func (p *importPage) fail(msg string) {
	p.failure = msg
	p.announcement = msg
}

// updateSummary shows a new summary of the same document.
func (p *importPage) updateSummary(s *wire.Summary) {
	if p.sum == nil || s.Document != p.sum.Document {
		return
	}
	p.sum = s
	p.noteDraft(s.Draft)
	tellValidated(s)
}

// editSetValue takes the operator from a cell of a value set for every
// row, in the review, to where it is set, its control focused.
func (p *importPage) editSetValue(ctx app.Context, field string) {
	p.later(func() {
		if p.prep == nil {
			return
		}
		p.step = stepRead
		p.announcement = tf("%s is set for every row: change it here.", fieldLabel(field))
		p.ctx.Defer(func(app.Context) { focusSetValue(field) })
	})
}

// export asks the worker for a file and hands it to the browser.
func (p *importPage) export(ctx app.Context, what string) {
	doc := 0
	switch {
	case p.sum != nil && what != wire.ExportMapping:
		doc = p.sum.Document
	case p.prep != nil:
		doc = p.prep.Document
	}
	if background() == nil || doc == 0 {
		return
	}
	p.announcement = t("Preparing the file…")
	runJob(p.ctx, wire.JobExport, wire.Export{Document: doc, What: what}, nil, func(ex wire.Exported, data app.Value, err error) {
		if err != nil {
			p.jobFailed(err)
			return
		}
		download(data, ex.FileName, ex.MediaType)
		p.announcement = tf("%s is downloaded (%s bytes).", downloadName(ex.FileName), count(ex.Size))
	})
}

// focusStep moves the keyboard focus to a step's heading and brings the
// heading to the top of the window, where the step starts.
func focusStep(id string) {
	el := app.Window().GetElementByID(id)
	if !el.Truthy() {
		return
	}
	noScroll := app.Window().Get("Object").New()
	noScroll.Set("preventScroll", true)
	el.Call("focus", noScroll)
	top := app.Window().Get("Object").New()
	top.Set("block", "start")
	el.Call("scrollIntoView", top)
}
