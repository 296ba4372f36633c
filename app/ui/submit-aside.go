package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// asideChoice offers, when a file holds invalid elements among valid
// ones, the explicit choice to send the valid ones only, and then the
// workbook of the ones kept aside, to fix and load again. The choice is
// the page's, since the plan depends on it; the component owns the
// workbook's download.
type asideChoice struct {
	app.Compo

	Idoc                int
	Ielements, Iinvalid int
	IvalidOnly          bool
	// Ilocked says the choice is made: the bulks are sent or being sent.
	Ilocked      bool
	IonValidOnly func(ctx app.Context, on bool)
	IonAnnounce  func(ctx app.Context, text string)

	busy bool
	note string
	// ctx is the component's own context, for the worker's answer.
	ctx app.Context
}

func newAsideChoice() *asideChoice { return &asideChoice{} }

// Document sets the document whose invalid elements are kept aside, and
// its counts of elements.
func (a *asideChoice) Document(id, elements, invalid int) *asideChoice {
	a.Idoc, a.Ielements, a.Iinvalid = id, elements, invalid
	return a
}

// ValidOnly sets whether only the valid elements are sent.
func (a *asideChoice) ValidOnly(on bool) *asideChoice { a.IvalidOnly = on; return a }

// Locked says whether the choice can no longer change.
func (a *asideChoice) Locked(on bool) *asideChoice { a.Ilocked = on; return a }

// OnValidOnly sets what takes the choice.
func (a *asideChoice) OnValidOnly(f func(ctx app.Context, on bool)) *asideChoice {
	a.IonValidOnly = f
	return a
}

// OnAnnounce sets what tells screen readers.
func (a *asideChoice) OnAnnounce(f func(ctx app.Context, text string)) *asideChoice {
	a.IonAnnounce = f
	return a
}

// asideOffered reports whether a file has elements to keep aside: some
// invalid, not all.
func asideOffered(elements, invalid int) bool { return invalid > 0 && invalid < elements }

func (a *asideChoice) OnMount(ctx app.Context) { a.ctx = ctx }

func (a *asideChoice) Render() app.UI {
	valid := a.Ielements - a.Iinvalid
	box := app.Input().Type("checkbox").ID("valid-only").OnChange(func(ctx app.Context, e app.Event) {
		a.IonValidOnly(ctx, ctx.JSSrc().Get("checked").Bool())
	})
	if a.IvalidOnly {
		box = box.Checked(true)
	}
	if a.Ilocked {
		box = box.Disabled(true)
	}
	return app.Div().ID("aside-choice").Class("choice-box").Body(
		app.Div().Class("check", "choice").Body(
			box,
			app.Label().For("valid-only").Text(tf("Submit %s and keep %s aside as a workbook", plural(valid, "valid element", "valid elements"), plural(a.Iinvalid, "invalid element", "invalid elements"))),
		),
		app.If(a.IvalidOnly, func() app.UI {
			b := app.Button().ID("aside-workbook").Type("button").Class("button", "button-quiet").Text(downloadAsideWords(a.Iinvalid)).OnClick(a.download)
			if a.busy {
				b = b.Disabled(true)
			}
			return app.Div().Body(b, app.If(a.note != "", func() app.UI { return app.P().ID("aside-note").Class("note").Text(a.note) }))
		}),
	)
}

// download writes the invalid elements as a workbook.
func (a *asideChoice) download(ctx app.Context, e app.Event) {
	a.busy = true
	runJob(a.ctx, wire.JobAsideWorkbook, wire.AsideWorkbook{Document: a.Idoc}, nil, func(f wire.File, data app.Value, err error) {
		a.busy = false
		if err != nil {
			a.note = errorText(err)
			return
		}
		download(data, f.Name, f.Type)
		a.note = tf("%s: %s with their errors, to fix and load again.", downloadName(f.Name), plural(f.Rows, "element", "elements"))
		a.IonAnnounce(a.ctx, a.note)
	})
}

// downloadAsideWords names the button that downloads the invalid
// elements kept aside.
func downloadAsideWords(invalid int) string {
	if invalid == 1 {
		return t("Download the invalid element as a workbook")
	}
	return tf("Download the %s invalid elements as a workbook", count(invalid))
}
