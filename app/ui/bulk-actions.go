package ui

import (
	"slices"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bulkActions offers the transitions a bulk's state allows on its page:
// execute, behind a confirmation of what is about to run, pause, resume
// and cancel. The bulk, its totals and what the server's four-eyes rule
// says are the page's (its facts show them too); the actions own the
// action under way, the mode chosen for failed operations and whether
// the confirmation is open. The bulk an action returns goes to the page.
type bulkActions struct {
	app.Compo

	IbulkID string
	Ibulk   *wire.BulkInfo
	Itotals *wire.BulkTotals
	// IfourEyes is what the server says of who may execute the bulk, nil
	// until it answered; IfourEyesErr why it did not; IfourEyesRule that
	// the server has the rule.
	IfourEyes     *fourEyes
	IfourEyesErr  string
	IfourEyesRule bool
	Iconn         wire.Connection
	// Imissing says why the connection is not ready, "" when it is.
	Imissing string
	IonActed func(ctx app.Context, action string, r wire.BulkResult, err error)

	ctx        app.Context
	acting     string
	mode       string
	confirming bool
}

func newBulkActions() *bulkActions { return &bulkActions{mode: wire.ModeOnFailureContinue} }

// Bulk sets the bulk acted on, as the page names it and as last read,
// and its totals, nil until read.
func (a *bulkActions) Bulk(id string, b *wire.BulkInfo, totals *wire.BulkTotals) *bulkActions {
	a.IbulkID, a.Ibulk, a.Itotals = id, b, totals
	return a
}

// FourEyes sets whether the server has a four-eyes rule, what it says of
// the bulk (nil until it answered) and why it did not answer.
func (a *bulkActions) FourEyes(rule bool, f *fourEyes, why string) *bulkActions {
	a.IfourEyesRule, a.IfourEyes, a.IfourEyesErr = rule, f, why
	return a
}

// Connection sets the connection that acts, and why it is not ready.
func (a *bulkActions) Connection(conn wire.Connection, missing string) *bulkActions {
	a.Iconn, a.Imissing = conn, missing
	return a
}

// OnActed sets what takes the bulk as an action left it.
func (a *bulkActions) OnActed(f func(ctx app.Context, action string, r wire.BulkResult, err error)) *bulkActions {
	a.IonActed = f
	return a
}

func (a *bulkActions) OnMount(ctx app.Context)  { a.ctx = ctx }
func (a *bulkActions) OnUpdate(ctx app.Context) { a.ctx = ctx }

func (a *bulkActions) Render() app.UI {
	return app.Div().Body(
		a.renderActions(),
		app.If(slices.Contains(a.Ibulk.Actions, wire.ActionExecute), a.renderConfirm),
	)
}

// renderActions offers only the transitions the state allows.
func (a *bulkActions) renderActions() app.UI {
	b := a.Ibulk
	if len(b.Actions) == 0 {
		return app.P().ID("bulk-actions").Class("note").Text(t("The bulk has ended: no action can change it."))
	}
	return app.Div().ID("bulk-actions").Class("actions").Body(
		app.Range(b.Actions).Slice(func(i int) app.UI {
			action := b.Actions[i]
			label := actionLabel(action)
			if action == wire.ActionExecute {
				label += "…"
			}
			btn := app.Button().ID("action-"+action).Type("button").Class("button").Text(label).
				OnClick(func(ctx app.Context, e app.Event) { a.act(ctx, action) }, app.EventScope(action)) // see pager
			if action == wire.ActionCancel {
				btn = btn.Class("button-quiet")
			}
			if a.acting != "" {
				btn = btn.Disabled(true)
			}
			if action != wire.ActionExecute {
				return btn
			}
			if a.IfourEyesRule {
				switch f := a.IfourEyes; {
				case f == nil && a.IfourEyesErr == "":
					return app.P().ID("four-eyes").Class("note").Text(t("Asking the server who may execute this bulk…"))
				case f != nil && !f.allowed():
					return app.P().ID("four-eyes").Class("note", "four-eyes").Text(f.why())
				}
			}
			return app.Div().Class("execute").Body(
				app.Label().For("execute-mode").Text(t("When an operation fails")),
				app.Select().ID("execute-mode").Class("select").OnChange(func(ctx app.Context, e app.Event) {
					a.mode = ctx.JSSrc().Get("value").String()
				}).Body(
					option(wire.ModeOnFailureContinue, t("Continue with the others"), a.mode == wire.ModeOnFailureContinue),
					option(wire.ModeOnFailureStop, t("Stop the bulk"), a.mode == wire.ModeOnFailureStop),
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

// renderConfirm is the confirmation Execute opens: what is about to run,
// and what happens when an operation fails. Only its own button
// executes; Escape or Close closes it.
func (a *bulkActions) renderConfirm() app.UI {
	b := a.Ibulk
	kind := kindOf(*b)
	var totals app.UI = app.Dd().ID("confirm-totals").DataSet("loaded", false).Text(t("Reading the operations…"))
	switch tot := a.Itotals; {
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
				a.confirming = false
			}
		}).
		Body(
			app.H3().ID("execute-confirm-title").Text(tf("Execute bulk %s?", b.BulkID)),
			app.Dl().Class("facts").Body(
				fact("confirm-kind", t("Kind"), kind),
				fact("confirm-count", t("Elements"), count(b.Operations)),
				app.Div().Body(app.Dt().Text(t("Totals")), totals),
				fact("confirm-source", t("File"), sourceAndTime(*b, a.IfourEyes)),
				fact("confirm-mode", t("When an operation fails"), modeWords(a.mode)),
			),
			app.P().Class("note").Text(t("The operations start as soon as you execute, one after the other. A running bulk can be paused or cancelled; what has run stays done.")),
			app.Div().Class("actions").Body(
				// Nothing runs before the totals are there to be checked.
				app.Button().ID("confirm-execute").Type("button").Class("button").Disabled(a.Itotals == nil).
					Text(tf("Execute %s", plural(b.Operations, "operation", "operations"))).OnClick(a.confirmExecute),
				app.Button().ID("cancel-execute").Type("button").Class("button", "button-quiet").AutoFocus(true).Text(t("Close")).OnClick(a.closeConfirm),
			),
		)
}

// openConfirm shows the confirmation of Execute as a modal dialog.
func (a *bulkActions) openConfirm(ctx app.Context) {
	a.confirming = true
	if !app.IsClient {
		return
	}
	if d := app.Window().GetElementByID("execute-confirm"); d.Truthy() && !d.Get("open").Bool() {
		d.Call("showModal")
	}
}

func (a *bulkActions) closeConfirm(ctx app.Context, e app.Event) {
	a.confirming = false
	if !app.IsClient {
		return
	}
	if d := app.Window().GetElementByID("execute-confirm"); d.Truthy() && d.Get("open").Bool() {
		d.Call("close")
	}
}

func (a *bulkActions) confirmExecute(ctx app.Context, e app.Event) {
	if !a.confirming || a.Itotals == nil {
		return
	}
	a.closeConfirm(ctx, e)
	a.run(ctx, wire.ActionExecute)
}

// act runs an action; execute opens its confirmation, and cancel asks
// first, since neither can be undone.
func (a *bulkActions) act(ctx app.Context, action string) {
	if a.acting != "" {
		return
	}
	if action == wire.ActionExecute {
		a.openConfirm(ctx)
		return
	}
	if action == wire.ActionCancel && app.IsClient && !app.Window().Call("confirm", tf("Cancel bulk %s? Operations not yet run will never run.", a.IbulkID)).Bool() {
		return
	}
	a.run(ctx, action)
}

// run sends an action; the page shows the bulk it returns.
func (a *bulkActions) run(ctx app.Context, action string) {
	if a.acting != "" {
		return
	}
	if a.Imissing != "" {
		a.IonActed(ctx, action, wire.BulkResult{}, saidError(tf("The connection is not ready: %s", a.Imissing)))
		return
	}
	a.acting = action
	req := wire.BulkAction{Connection: a.Iconn, BulkID: a.IbulkID, Action: action}
	if action == wire.ActionExecute {
		req.Mode = a.mode
	}
	runJob(a.ctx, wire.JobBulkAction, req, nil, func(r wire.BulkResult, _ app.Value, err error) {
		a.acting = ""
		a.IonActed(a.ctx, action, r, err)
	})
}
