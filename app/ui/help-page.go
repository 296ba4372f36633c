package ui

import (
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/ui/help"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// helpPage is the operator's guide, in the console's language: an
// introduction, a table of contents that links to each section, and the
// sections under their headings. The guide is embedded (package help),
// so the page opens offline like the others.
type helpPage struct {
	app.Compo
}

// helpPath is the Help page's path; a section's id after # opens it
// there (/help#four-eyes).
const helpPath = "/help"

func newHelpPage() *helpPage { return &helpPage{} }

func (p *helpPage) Render() app.UI {
	g, err := help.For(consoleLang)
	if err != nil {
		// The package's tests read every guide, so this is a build gone
		// wrong: the English guide is better than none.
		app.Log("the Help page:", err)
		g, _ = help.For(lang.English)
	}
	return newShell().Route(helpPath).Content(
		app.Div().ID("help").Class("help").Body(
			helpBlocks(g.Intro),
			app.Nav().ID("help-contents").Class("help-contents").Aria("labelledby", "help-contents-title").Body(
				app.H2().ID("help-contents-title").Text(t("Contents")),
				app.Ol().Body(
					app.Range(g.Sections).Slice(func(i int) app.UI {
						s := g.Sections[i]
						return app.Li().Body(
							app.A().Href("#" + s.ID).Text(s.Title).OnClick(func(ctx app.Context, e app.Event) { goToSection(e, s.ID) }),
						)
					}),
				),
			),
			app.Range(g.Sections).Slice(func(i int) app.UI {
				s := g.Sections[i]
				return app.Section().Aria("labelledby", s.ID).Body(
					app.H2().ID(s.ID).TabIndex(-1).Text(s.Title),
					helpBlocks(s.Blocks),
				)
			}),
		),
	)
}

// goToSection brings a section's heading to the window's top and the
// keyboard focus to it, and writes its id in the address for a link to
// it. The event stops here: go-app would take the link for a navigation,
// whose shell moves the focus back to the page's title.
func goToSection(e app.Event, id string) {
	e.PreventDefault()
	e.StopImmediatePropagation()
	el := app.Window().GetElementByID(id)
	if !el.Truthy() {
		return
	}
	el.Call("scrollIntoView", map[string]any{"block": "start"})
	// Focus alone would scroll the heading to the window's middle.
	el.Call("focus", map[string]any{"preventScroll": true})
	app.Window().Get("history").Call("replaceState", nil, "", "#"+id)
}

// helpBlocks draws a guide's paragraphs, lists and steps.
func helpBlocks(blocks []help.Block) app.UI {
	return app.Range(blocks).Slice(func(i int) app.UI {
		b := blocks[i]
		items := func() []app.UI {
			out := make([]app.UI, len(b.Items))
			for j, item := range b.Items {
				out[j] = app.Li().Body(helpText(item)...)
			}
			return out
		}
		switch b.Kind {
		case help.List:
			return app.Ul().Body(items()...)
		case help.Steps:
			return app.Ol().Body(items()...)
		}
		if len(b.Items) == 0 {
			return app.Text("")
		}
		return app.P().Body(helpText(b.Items[0])...)
	})
}

// helpText draws a run of text: a name the console shows in bold, text
// to type as code.
func helpText(text help.Text) []app.UI {
	out := make([]app.UI, len(text))
	for i, s := range text {
		switch {
		case s.Label:
			out[i] = app.Strong().Text(s.Text)
		case s.Code:
			out[i] = app.Code().Text(s.Text)
		default:
			out[i] = app.Text(s.Text)
		}
	}
	return out
}
