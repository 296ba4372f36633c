package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// journalView lists the submissions the journal holds, on the pages that
// show it: each with its state and bulks, an interrupted one with the
// offer to resume it with its original refs.
type journalView struct {
	// page is the owning page's context (see submitPage.page).
	page app.Context

	list    wire.JournalList
	loaded  bool
	failure string

	resuming      string // the submission being resumed
	progress      wire.Progress
	resumeFailure *wire.APIFailure
	failedID      string
	message       string
	// repeats, when set, stopped the resumption of failedID: elements
	// earlier bulks hold, for the operator to leave out or send again.
	repeats *wire.RepeatsInfo
}

// load reads the journal again; then, when not nil, runs after.
func (j *journalView) load(ctx app.Context, then func()) {
	runJob(j.page, wire.JobJournal, wire.Journal{}, nil, func(l wire.JournalList, _ app.Value, err error) {
		j.loaded = true
		if err != nil {
			j.failure = errorText(err)
			return
		}
		j.list, j.failure = l, ""
		if then != nil {
			then()
		}
	})
}

// interrupted returns the submissions that stopped before every chunk
// was submitted.
func (j *journalView) interrupted() []wire.SubmissionInfo {
	var out []wire.SubmissionInfo
	for _, s := range j.list.Submissions {
		if s.Interrupted {
			out = append(out, s)
		}
	}
	return out
}

func (j *journalView) render(api APIConfig, resumed func(app.Context, wire.Submitted, error)) app.UI {
	return app.Section().ID("journal").Class("journal").DataSet("loaded", j.loaded).Aria("labelledby", "journal-title").Body(
		app.H2().ID("journal-title").Text(t("Submissions from this browser")),
		app.If(j.failure != "", func() app.UI { return app.P().Class("alert").Role("alert").Text(j.failure) }),
		app.If(j.loaded && len(j.list.Submissions) == 0 && j.failure == "", func() app.UI {
			return app.P().Class("note").Text(t("None yet. Every submission is recorded here, in this browser, before anything of it is sent."))
		}),
		app.If(len(j.list.Submissions) > 0, func() app.UI {
			return app.Div().Body(
				app.P().Class("note").Text(t("Kept in this browser before each part is sent: a reload or a lost connection never loses track of a bulk.")),
				techDetails("journal-details", tf("The journal is kept in the browser's %s, with each part's idempotency-ref.", j.list.Storage)),
				app.Table().Class("table", "journal-table").Body(
					app.THead().Body(app.Tr().Body(
						app.Th().Text(t("File")), app.Th().Text(t("Kind")), app.Th().Text(t("Last change")), app.Th().Text(t("State")), app.Th().Text(t("Bulks")), app.Th().Text(""),
					)),
					app.TBody().Body(app.Range(j.list.Submissions).Slice(func(i int) app.UI {
						return j.row(api, j.list.Submissions[i], resumed)
					})),
				),
			)
		}),
	)
}

func (j *journalView) row(api APIConfig, s wire.SubmissionInfo, resumed func(app.Context, wire.Submitted, error)) app.UI {
	done := 0
	for _, c := range s.Chunks {
		if c.State == wire.StateSubmitted {
			done++
		}
	}
	state := t("Submitted")
	switch {
	case s.State == wire.StateFailed:
		state = tf("Refused after %d of %d parts", done, len(s.Chunks))
	case s.Interrupted:
		state = tf("Interrupted: %d of %d parts submitted", done, len(s.Chunks))
	}
	source := s.Source
	if source == "" {
		source = t("(unnamed file)")
	}
	return app.Tr().ID("submission-"+s.ID).DataSet("state", s.State).DataSet("interrupted", s.Interrupted).Body(
		app.Td().Text(source),
		app.Td().Text(kindTitle(s.Kind)+behalfSuffix(s.BackOffice)),
		app.Td().Text(dateTime(s.Updated.Local())),
		app.Td().Class("journal-state").Text(state),
		app.Td().Body(bulkLinks("bulks-"+s.ID, s)),
		app.Td().Body(j.actions(api, s, resumed)),
	)
}

func (j *journalView) actions(api APIConfig, s wire.SubmissionInfo, resumed func(app.Context, wire.Submitted, error)) app.UI {
	if j.resuming == s.ID {
		return app.Div().Class("status-busy").Body(
			app.Progress().ID("resume-progress").Aria("label", t("Parts sent")).Max(max(j.progress.Total, 1)).Value(j.progress.Done),
			app.P().Class("note").Text(j.progress.Detail),
		)
	}
	return app.Div().Body(
		app.If(s.Interrupted && s.Resumable, func() app.UI {
			return app.Button().ID("resume-"+s.ID).Type("button").Class("button").Text(t("Resume: send the parts not sent yet")).
				OnClick(func(ctx app.Context, e app.Event) { j.resume(ctx, api, s, resumed) }, app.EventScope(s.ID)) // see pager
		}),
		app.If(s.Interrupted && !s.Resumable, func() app.UI {
			return app.P().Class("note").Text(t("Load the file again to resume: it goes on where it stopped, without making any bulk twice."))
		}),
		app.If(s.State == wire.StateFailed && s.Resumable, func() app.UI {
			return app.Button().ID("resume-"+s.ID).Type("button").Class("button", "button-quiet").Text(t("Send again")).
				OnClick(func(ctx app.Context, e app.Event) { j.resume(ctx, api, s, resumed) }, app.EventScope(s.ID))
		}),
		app.If(!s.Interrupted || s.State == wire.StateFailed, func() app.UI {
			return app.Button().ID("forget-"+s.ID).Type("button").Class("button", "button-quiet").Text(t("Forget")).
				OnClick(func(ctx app.Context, e app.Event) { j.forget(ctx, s) }, app.EventScope(s.ID))
		}),
		app.If(j.failedID == s.ID && j.repeats != nil, func() app.UI { return j.renderRepeats(api, s, resumed) }),
		app.If(j.failedID == s.ID && j.resumeFailure != nil, func() app.UI { return failureView("resume-failure", j.resumeFailure) }),
		app.If(j.failedID == s.ID && j.message != "", func() app.UI { return app.P().Class("alert").Role("alert").Text(j.message) }),
	)
}

// notResumed says how many elements of a resumed submission earlier bulks
// already hold.
func notResumed(n, bulks int) string {
	if n == 1 {
		return tf("Not resumed: %s of it was submitted before, in %s.", plural(n, "element", "elements"), plural(bulks, "bulk", "bulks"))
	}
	return tf("Not resumed: %s of it were submitted before, in %s.", plural(n, "element", "elements"), plural(bulks, "bulk", "bulks"))
}

// renderRepeats says which elements of a submission being resumed earlier
// bulks hold, and asks whether to leave them out or send them again.
func (j *journalView) renderRepeats(api APIConfig, s wire.SubmissionInfo, resumed func(app.Context, wire.Submitted, error)) app.UI {
	r := j.repeats
	return app.Div().ID("resume-repeats").Class("warning-box").Role("alert").DataSet("count", r.Count).Body(
		app.P().Text(notResumed(r.Count, len(r.Bulks))),
		repeatedElements("resume-repeat-elements-"+s.ID, r, 5),
		app.Button().ID("resume-leave-out-"+s.ID).Type("button").Class("button").Text(t("Resume without them")).
			OnClick(func(ctx app.Context, e app.Event) { j.resumeAnswering(ctx, api, s, wire.RepeatsLeaveOut, resumed) }, app.EventScope(s.ID+"-leave-out")),
		app.Button().ID("resume-again-"+s.ID).Type("button").Class("button", "button-quiet").Text(tf("Resume and send them again (%s)", plural(r.Count, "element", "elements"))).
			OnClick(func(ctx app.Context, e app.Event) { j.resumeAnswering(ctx, api, s, wire.RepeatsAgain, resumed) }, app.EventScope(s.ID+"-again")),
	)
}

func (j *journalView) resume(ctx app.Context, api APIConfig, s wire.SubmissionInfo, resumed func(app.Context, wire.Submitted, error)) {
	j.resumeAnswering(ctx, api, s, "", resumed)
}

// resumeAnswering resumes s, answering its repeats as repeats says
// (wire.RepeatsLeaveOut, wire.RepeatsAgain), or "" before the
// operator has seen them.
func (j *journalView) resumeAnswering(ctx app.Context, api APIConfig, s wire.SubmissionInfo, repeats string, resumed func(app.Context, wire.Submitted, error)) {
	if j.resuming != "" {
		return
	}
	conn := currentConnection(ctx)
	if missing := conn.ready(api, s.BackOffice); missing != "" {
		j.failedID, j.resumeFailure, j.message = s.ID, nil, tf("The connection is not ready: %s", missing)
		return
	}
	j.resuming, j.failedID, j.resumeFailure, j.message, j.repeats = s.ID, "", nil, "", nil
	j.progress = wire.Progress{Total: len(s.Chunks)}
	req := wire.ResumeSubmission{Submission: s.ID, Connection: conn.forWorker(s.BackOffice), Repeats: repeats}
	runJob(j.page, wire.JobResumeSubmission, req, func(p wire.Progress) { j.progress = p }, func(r wire.Submitted, _ app.Value, err error) {
		j.resuming = ""
		switch {
		case err != nil:
			j.failedID, j.message = s.ID, errorText(err)
		case r.Failure != nil:
			j.failedID, j.resumeFailure = s.ID, r.Failure
		case r.Repeats != nil && r.Repeats.Stopped:
			j.failedID, j.repeats = s.ID, r.Repeats
		}
		j.load(ctx, nil)
		if resumed != nil {
			resumed(ctx, r, err)
		}
	})
}

func (j *journalView) forget(ctx app.Context, s wire.SubmissionInfo) {
	// The record is what warns when the same file is loaded again after
	// the API has forgotten its refs: the operator decides knowingly.
	if app.IsClient && !app.Window().Call("confirm", "Forget this submission? Loading the same file again will then no longer warn that it was submitted.").Bool() {
		return
	}
	runJob(j.page, wire.JobForgetSubmission, wire.ForgetSubmission{Submission: s.ID}, nil, func(l wire.JournalList, _ app.Value, err error) {
		if err != nil {
			j.failedID, j.message = s.ID, errorText(err)
			return
		}
		j.list = l
	})
}
