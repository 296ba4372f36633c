package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Once a file is read, the first step (the kind and the file) folds into
// one line, so that the step the operator goes on to starts at the top of
// the window rather than below the file picker and the template's hint.
// "Change" unfolds it; the next file read folds it again.

// renderChosen is the first step: its one line once a file is read,
// above the kind and the file, which the line hides until "Change". They
// stay on the page, hidden: a file chosen or dropped on them meanwhile
// is read as before.
func (p *importPage) renderChosen() app.UI {
	choose := app.Div().ID("choose-step").Body(p.renderChoose())
	if p.prep == nil || p.prep.Kind == "" {
		return app.Div().ID("chosen").Body(app.P().ID("chosen-line"), choose)
	}
	toggle := app.Button().ID("change-chosen").Type("button").Class("link-button").
		Aria("expanded", p.chooseOpen).Aria("controls", "choose-step").
		OnClick(func(ctx app.Context, e app.Event) {
			p.chooseOpen = !p.chooseOpen
			if p.chooseOpen {
				p.ctx.Defer(func(app.Context) { focusByID("kind") })
			}
		})
	if p.chooseOpen {
		toggle = toggle.Text(t("Hide"))
	} else {
		toggle = toggle.Text(t("Change"))
		choose = choose.Hidden(true)
	}
	// The line takes the next file dropped on it, as the first step does.
	line := app.P().ID("chosen-line").Class("chosen-line", "drop-zone").
		OnDragOver(func(ctx app.Context, e app.Event) {
			e.PreventDefault() // else the browser opens the file
			ctx.PreventUpdate()
		}).
		OnDrop(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			if files := e.Get("dataTransfer").Get("files"); files.Truthy() && files.Length() > 0 {
				p.fileChosen(ctx, files.Index(0))
			}
		}).Body(
		app.Strong().Text(p.chosenKind()),
		app.Span().Class("chosen-sep").Aria("hidden", "true").Text(" · "),
		app.Span().ID("chosen-file").Text(p.prep.FileName),
		app.Span().Class("chosen-sep").Aria("hidden", "true").Text(" · "),
		app.Span().Text(p.chosenCount()),
		app.Span().Class("chosen-sep").Aria("hidden", "true").Text(" · "),
		toggle,
	)
	return app.Div().ID("chosen").Body(line, choose)
}

// chosenKind names the kind the file is read as, in the operator's words.
func (p *importPage) chosenKind() string {
	title := p.prep.Kind
	if k, ok := p.kind(); ok {
		title = t(k.Title)
	}
	if p.prep.KindSuggested {
		return tf("%s (suggested by the headers)", title)
	}
	return title
}

// chosenCount says how much the file holds: the rows of a table, the
// elements of a JSON request, counted as built once it is.
func (p *importPage) chosenCount() string {
	n := p.prep.DataRows
	if p.sum != nil {
		n = p.sum.Elements
	}
	if p.prep.Request {
		return plural(n, "element", "elements")
	}
	return plural(n, "row", "rows")
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
