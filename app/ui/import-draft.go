package ui

import (
	"sync"
	"sync/atomic"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The import in progress is a draft the worker keeps in the browser's
// IndexedDB (see wire.JobRestoreDraft and package draft for why there):
// the page only asks for it when it mounts — after a reload, another
// page, or the submission's "Back to the file" — and shows what comes
// back, at the step it calls for. "Start over" discards it.

var (
	// unsubmittedEdits says the draft holds cell edits not submitted yet:
	// closing or reloading the tab then asks first. The edits are stored,
	// and a reload brings them back, but the operator may not know it.
	unsubmittedEdits atomic.Bool
	// editsOnTheirWay counts the edits sent to the worker and not yet
	// answered: not stored yet.
	editsOnTheirWay atomic.Int32
	guardOnce       sync.Once
)

// guardLeaving asks the browser to confirm closing or reloading the tab
// while the draft holds edits, and forgets them once they are submitted.
func guardLeaving() {
	guardOnce.Do(func() {
		app.Window().Call("addEventListener", "beforeunload", app.FuncOf(func(_ app.Value, args []app.Value) any {
			if (unsubmittedEdits.Load() || editsOnTheirWay.Load() > 0) && len(args) > 0 {
				args[0].Call("preventDefault")
				args[0].Set("returnValue", "")
			}
			return nil
		}))
		watchJob(wire.JobSubmit, func(s wire.Submitted) {
			if s.Failure == nil {
				unsubmittedEdits.Store(false)
			}
		})
	})
}

// noteDraft records what the worker says of the draft.
func (p *importPage) noteDraft(d wire.DraftState) {
	p.draft = d
	unsubmittedEdits.Store(d.Edits > 0)
}

// saving follows the edits on their way to be stored.
func (p *importPage) saving(ctx app.Context, delta int) {
	editsOnTheirWay.Add(int32(delta))
	p.later(func() {})
}

// restoreDraft asks the worker for the import in progress.
func (p *importPage) restoreDraft(ctx app.Context) {
	if background() == nil {
		return
	}
	load(p, t("Looking for a file kept in this browser"), wire.JobRestoreDraft, wire.RestoreDraft{}, nil, p.restored)
}

// restored shows the draft the worker brought back, if any.
func (p *importPage) restored(ctx app.Context, r wire.Restored) {
	switch {
	case r.Problem != "":
		p.fail(r.Problem)
		return
	case !r.Found || r.Prepared == nil:
		p.announcement = ""
		unsubmittedEdits.Store(false)
		return
	}
	p.fileName = r.Prepared.FileName
	if len(r.Limits) > 0 {
		p.limits = r.Limits
	}
	p.showPrepared(ctx, r.Prepared)
	p.announcement = tf("Brought back %s, as you left it.", r.Prepared.FileName)
	if r.Edits > 0 {
		p.announcement = tf("Brought back %s, as you left it, with %s.", r.Prepared.FileName, plural(r.Edits, "edit", "edits"))
	}
}

// startOver discards the file, its reading and its edits.
func (p *importPage) startOver(ctx app.Context, e app.Event) {
	p.stop()
	p.prep, p.sum, p.failure = nil, nil, ""
	p.fileName = ""
	p.kindID, p.backOffice = "", false
	p.step = stepChoose
	p.noteDraft(wire.DraftState{})
	p.ctx.NewAction(actionStartOver)
	if background() != nil {
		runJob(p.ctx, wire.JobDiscardDraft, wire.DiscardDraft{}, nil, func(_ wire.DiscardDraft, _ app.Value, err error) {
			if err != nil {
				p.fail(tf("The file you were working on could not be discarded from this browser: %s", errorText(err)))
				return
			}
			p.announcement = t("Started over: the file and its edits are discarded.")
		})
	}
	p.ctx.Defer(func(app.Context) { focusByID("kind") })
}

// renderDraft says whether the import in progress is kept, and offers
// to start over. It stays in place, empty, when there is none (see
// renderRead).
func (p *importPage) renderDraft() app.UI {
	bar := app.Div().ID("draft").Class("draft")
	if p.prep == nil {
		return bar
	}
	d := p.draft
	name := p.prep.FileName
	if editsOnTheirWay.Load() > 0 {
		return bar.Body(
			app.P().ID("draft-status").Class("hint").Aria("live", "polite").Text(t("Saving your edit in this browser…")),
			app.Button().ID("start-over").Type("button").Class("button", "button-quiet").Text(t("Start over")).Disabled(true),
		)
	}
	text := tf("%s is kept while this tab is open; a reload loses it.", name)
	switch {
	case d.Error != "":
		text = wire.Sentence(d.Error)
	case d.Kept && d.Edits > 0:
		text = tf("%s is kept in this browser with your %s saved: a reload, another page or “Back to the file” brings it back.", name, plural(d.Edits, "edit", "edits"))
	case d.Kept:
		text = tf("%s is kept in this browser: a reload, another page or “Back to the file” brings it back.", name)
	}
	status := app.P().ID("draft-status").Class("hint").Aria("live", "polite").Text(text)
	if d.Error != "" {
		status = status.Class("alert")
	}
	return bar.Body(
		status,
		app.Button().ID("start-over").Type("button").Class("button", "button-quiet").
			Text(t("Start over")).
			Title(t("Discard this file, how it is read and your edits")).
			OnClick(p.startOver),
	)
}
