package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// rememberedNotice says that a file is read as the last file with the
// same headers was, or that its reading is now remembered, with the one
// button that undoes (or redoes) it. It renders only what it is given
// (see rememberedMappings for the decisions); it stays in place, empty,
// when there is nothing to say, so the blocks below keep their focus.
type rememberedNotice struct {
	app.Compo

	Itext    string
	Idetail  string
	Ibutton  string
	IonClick func(ctx app.Context)
}

func newRememberedNotice() *rememberedNotice { return &rememberedNotice{} }

// Text is the notice's sentence; "" shows nothing.
func (n *rememberedNotice) Text(s string) *rememberedNotice { n.Itext = s; return n }

// Detail is a second, quieter line.
func (n *rememberedNotice) Detail(s string) *rememberedNotice { n.Idetail = s; return n }

// Button offers label, which runs f; "" offers none.
func (n *rememberedNotice) Button(label string, f func(ctx app.Context)) *rememberedNotice {
	n.Ibutton, n.IonClick = label, f
	return n
}

func (n *rememberedNotice) Render() app.UI {
	box := app.Div().ID("remembered")
	if n.Itext == "" {
		return box
	}
	return box.Class("callout", "remembered").Role("note").Aria("labelledby", "remembered-text").Body(
		app.P().ID("remembered-text").Text(n.Itext),
		app.If(n.Idetail != "", func() app.UI {
			return app.P().ID("remembered-detail").Class("hint").Text(n.Idetail)
		}),
		app.If(n.Ibutton != "", func() app.UI {
			return app.Button().ID("remembered-toggle").Type("button").Class("button", "button-quiet").
				Text(n.Ibutton).
				OnClick(func(ctx app.Context, e app.Event) {
					if n.IonClick != nil {
						n.IonClick(ctx)
					}
				})
		}),
	)
}
