package ui

import (
	"encoding/json"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/ui/workerclient"
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// problemsPageSize is how many more problems "Show more" loads.
const problemsPageSize = 100

// The steps of an import.
const (
	stepIdle       = "idle"       // nothing loaded yet
	stepWaiting    = "waiting"    // a file is picked; it needs a kind
	stepValidating = "validating" // the worker is at it
	stepDone       = "done"       // the result is shown
	stepFailed     = "failed"     // the worker could not validate
)

// importPage is the console's home: choose the bulk kind, load a request
// file, and see it validated, with its counts and every problem.
type importPage struct {
	app.Compo

	kinds      []Kind
	kindID     string
	backOffice bool

	file     app.Value
	fileName string

	step         string
	progress     worker.Progress
	result       worker.Validated
	resultBO     bool // the result was validated for the back-office API
	problems     []worker.Problem
	loadingMore  bool
	failure      string
	announcement string
	// run numbers validations; the callbacks of a replaced one are ignored.
	run    int
	cancel func()
}

func newImportPage() *importPage { return &importPage{step: stepIdle} }

func (p *importPage) OnInit() {
	p.kinds = loadConfig().Kinds
}

func (p *importPage) OnDismount() {
	if p.cancel != nil {
		p.cancel()
	}
}

func (p *importPage) Render() app.UI {
	return newShell().Route("/").Announcement(p.announcement).Content(
		app.P().Class("lead").Text("Check a bulk request before you submit it: choose what the bulk does, load its JSON request body, and see every problem the API would refuse."),
		app.Div().Class("form-row").Body(
			p.renderKindPicker(),
			newFileDrop().
				ID("request-file").
				Label("Request file").
				Hint("A JSON request body: an array of {\"pathParams\", \"requestBody\"} elements. Drop it here or choose it.").
				Accept(".json,application/json").
				OnFile(p.fileChosen),
		),
		p.renderStatus(),
		app.If(p.step == stepDone, p.renderResult),
	)
}

func (p *importPage) renderKindPicker() app.UI {
	kind, hasKind := p.kind()
	return app.Div().Class("field").Body(
		app.Label().For("kind").Text("Bulk kind"),
		app.Select().ID("kind").Class("select").OnChange(p.kindChosen).Body(
			option("", "Choose what the bulk does…", p.kindID == ""),
			app.Range(p.kinds).Slice(func(i int) app.UI {
				k := p.kinds[i]
				return option(k.ID, k.Title, k.ID == p.kindID)
			}),
		),
		app.If(hasKind && kind.BackOffice, func() app.UI {
			box := app.Input().Type("checkbox").ID("backoffice").OnChange(p.backOfficeChosen)
			if p.backOffice {
				box = box.Checked(true)
			}
			return app.Div().Class("check").Body(
				box,
				app.Label().For("backoffice").Text("Submit through the back-office API"),
			)
		}),
	)
}

func (p *importPage) renderStatus() app.UI {
	switch p.step {
	case stepWaiting:
		return app.P().ID("status").Class("status").Text(fmt.Sprintf("%s is loaded. Choose the bulk kind to validate it against.", p.fileName))
	case stepValidating:
		label := "Reading " + p.fileName + "…"
		if p.progress.Total > 0 {
			label = fmt.Sprintf("Validating %s: %s of %s elements", p.fileName, count(p.progress.Done), count(p.progress.Total))
		}
		bar := app.Progress().ID("progress").Aria("label", "Validation progress")
		if p.progress.Total > 0 {
			bar = bar.Max(p.progress.Total).Value(p.progress.Done)
		}
		return app.Div().ID("status").Class("status", "status-busy").Body(
			app.P().Text(label),
			bar,
			app.Button().Type("button").Class("button", "button-quiet").Text("Cancel").OnClick(p.cancelValidation),
		)
	case stepFailed:
		return app.Div().ID("status").Class("status", "alert").Role("alert").Text(p.failure)
	}
	return app.Div().ID("status")
}

func (p *importPage) renderResult() app.UI {
	r := p.result
	return app.Section().ID("result").Class("result").DataSet("state", "done").Aria("labelledby", "result-title").Body(
		app.H2().ID("result-title").Text(r.FileName),
		app.Dl().Class("summary").Body(
			summaryItem("count-elements", "Elements", r.Elements, ""),
			summaryItem("count-valid", "Valid", r.Valid, "ok"),
			summaryItem("count-invalid", "Invalid", r.Invalid, "bad"),
			summaryItem("count-errors", "Errors", r.Errors, "bad"),
			summaryItem("count-warnings", "Warnings", r.Warnings, "warn"),
		),
		app.If(r.Elements > 0, func() app.UI {
			return app.Div().Class("actions").Body(
				app.Button().ID("submit-file").Type("button").Class("button").Text("Submit…").OnClick(p.submitChosen),
				app.Span().Class("hint").Text("Nothing is sent before you confirm the kind, the counts and the control totals."),
			)
		}),
		app.If(len(p.problems) == 0, func() app.UI {
			return app.P().Class("all-clear").Text(fmt.Sprintf("Every element is valid. %s can be submitted as it is.", r.FileName))
		}).Else(func() app.UI {
			total := r.Errors + r.Warnings
			return app.Div().Body(
				app.H3().Text(fmt.Sprintf("Problems (%s shown of %s)", count(len(p.problems)), count(total))),
				problemList(p.problems),
				app.If(len(p.problems) < total, func() app.UI {
					more := app.Button().ID("more-problems").Type("button").Class("button").
						Text(fmt.Sprintf("Show %s more", count(min(problemsPageSize, total-len(p.problems))))).
						OnClick(p.loadMoreProblems)
					if p.loadingMore {
						more = more.Disabled(true)
					}
					return more
				}),
			)
		}),
	)
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

func summaryItem(id, label string, n int, tone string) app.UI {
	div := app.Div().Class("summary-item")
	if tone != "" && n > 0 {
		div = div.Class("summary-" + tone)
	}
	return div.Body(
		app.Dt().Text(label),
		app.Dd().ID(id).Text(count(n)),
	)
}

// kind returns the chosen kind.
func (p *importPage) kind() (Kind, bool) {
	for _, k := range p.kinds {
		if k.ID == p.kindID {
			return k, true
		}
	}
	return Kind{}, false
}

func (p *importPage) kindChosen(ctx app.Context, e app.Event) {
	p.kindID = ctx.JSSrc().Get("value").String()
	k, ok := p.kind()
	if !ok {
		p.kindID = ""
	}
	if !ok || !k.BackOffice {
		p.backOffice = false
	}
	p.validate(ctx)
}

func (p *importPage) backOfficeChosen(ctx app.Context, e app.Event) {
	p.backOffice = ctx.JSSrc().Get("checked").Bool()
	p.validate(ctx)
}

func (p *importPage) fileChosen(ctx app.Context, file app.Value) {
	mark("file-chosen")
	ctx.Dispatch(func(ctx app.Context) {
		p.file = file
		p.fileName = file.Get("name").String()
		p.validate(ctx)
	})
}

// validate sends the loaded file to the worker, replacing any validation
// under way; without a kind, it waits for one.
func (p *importPage) validate(ctx app.Context) {
	if p.file == nil {
		return
	}
	p.stop()
	if p.kindID == "" {
		p.step = stepWaiting
		p.announcement = fmt.Sprintf("%s is loaded. Choose the bulk kind.", p.fileName)
		return
	}
	work := background()
	if work == nil {
		p.fail("The validation engine is not available in this page.")
		return
	}
	p.step = stepValidating
	p.progress = worker.Progress{}
	p.announcement = "Validating " + p.fileName + "…"
	p.run++
	run := p.run
	backOffice := p.backOffice
	req := worker.ValidateJSON{Kind: p.kindID, BackOffice: backOffice, FileName: p.fileName}
	p.cancel = work.RunFile(worker.JobValidateJSON, req, p.file, workerHandlers(ctx,
		func(pr worker.Progress) {
			if run == p.run {
				p.progress = pr
			}
		},
		func(body []byte, err error) {
			if run != p.run {
				return
			}
			p.cancel = nil
			if err != nil {
				p.jobFailed(err)
				return
			}
			var v worker.Validated
			if err := json.Unmarshal(body, &v); err != nil {
				p.fail("The validation result could not be read: " + err.Error())
				return
			}
			p.resultBO = backOffice
			p.showResult(ctx, v)
		}))
}

// workerHandlers runs a job's callbacks on the UI goroutine.
func workerHandlers(ctx app.Context, progress func(worker.Progress), done func([]byte, error)) workerclient.Handlers {
	h := workerclient.Handlers{
		Done: func(body []byte, _ app.Value, err error) {
			ctx.Dispatch(func(app.Context) { done(body, err) })
		},
	}
	if progress != nil {
		h.Progress = func(pr worker.Progress) { ctx.Dispatch(func(app.Context) { progress(pr) }) }
	}
	return h
}

func (p *importPage) showResult(ctx app.Context, v worker.Validated) {
	p.step = stepDone
	p.result = v
	p.problems = v.Problems
	p.announcement = fmt.Sprintf("%s validated: %s, %s valid, %s invalid, %s, %s.",
		v.FileName, plural(v.Elements, "element", "elements"), count(v.Valid), count(v.Invalid),
		plural(v.Errors, "error", "errors"), plural(v.Warnings, "warning", "warnings"))
	ctx.Defer(func(app.Context) { mark("result-shown") })
}

// submitChosen hands the validated document to the submission page.
func (p *importPage) submitChosen(ctx app.Context, e app.Event) {
	r := p.result
	ctx.SetState(CurrentDocumentState, CurrentDocument{
		ID: r.Document, Kind: r.Kind, BackOffice: p.resultBO, FileName: r.FileName,
		Elements: r.Elements, Invalid: r.Invalid,
	})
	ctx.Navigate(href(SubmitPath))
}

func (p *importPage) loadMoreProblems(ctx app.Context, e app.Event) {
	work := background()
	if work == nil || p.loadingMore {
		return
	}
	p.loadingMore = true
	doc := p.result.Document
	req := worker.ProblemsPage{Document: doc, Offset: len(p.problems), Limit: problemsPageSize}
	work.Run(worker.JobProblems, req, nil, workerHandlers(ctx, nil, func(body []byte, err error) {
		p.loadingMore = false
		if err != nil {
			p.jobFailed(err)
			return
		}
		var page worker.Problems
		if err := json.Unmarshal(body, &page); err != nil {
			p.fail("The problems could not be read: " + err.Error())
			return
		}
		if doc == p.result.Document && page.Offset == len(p.problems) {
			p.problems = append(p.problems, page.Problems...)
			p.announcement = fmt.Sprintf("%s more problems shown.", count(len(page.Problems)))
		}
	}))
}

func (p *importPage) cancelValidation(ctx app.Context, e app.Event) {
	p.stop()
	p.step = stepIdle
	p.announcement = "Validation canceled."
}

// stop cancels the validation under way, if any.
func (p *importPage) stop() {
	p.run++
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

func (p *importPage) jobFailed(err error) {
	if we, ok := err.(*worker.Error); ok && we.Code == worker.CodeCanceled {
		return // replaced by a newer validation, or canceled by the operator
	}
	if we, ok := err.(*worker.Error); ok {
		p.fail(we.Message)
		return
	}
	p.fail(err.Error())
}

func (p *importPage) fail(msg string) {
	p.step = stepFailed
	p.failure = msg
	p.announcement = msg
}
