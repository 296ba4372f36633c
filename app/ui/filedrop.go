package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fileDrop is a file picker that also takes a file dropped on it. The
// picker is a real file input, so the keyboard and screen readers use it
// as they use any other; the drop zone around it is for the mouse.
type fileDrop struct {
	app.Compo

	IID     string
	Ilabel  string
	Ihint   string
	Iaccept string
	// Icurrent names the file loaded, "" for none: the input itself says
	// "No file chosen" once a page or a reload has forgotten its choice.
	Icurrent string
	IonFile  func(ctx app.Context, file app.Value)

	over bool
}

func newFileDrop() *fileDrop { return &fileDrop{} }

// ID sets the id of the file input.
func (d *fileDrop) ID(id string) *fileDrop {
	d.IID = id
	return d
}

// Label sets the input's label.
func (d *fileDrop) Label(text string) *fileDrop {
	d.Ilabel = text
	return d
}

// Hint sets the line under the label.
func (d *fileDrop) Hint(text string) *fileDrop {
	d.Ihint = text
	return d
}

// Accept sets the file types the picker offers (the input's accept).
func (d *fileDrop) Accept(types string) *fileDrop {
	d.Iaccept = types
	return d
}

// Current names the file loaded, shown in place of the input's own words.
func (d *fileDrop) Current(name string) *fileDrop {
	d.Icurrent = name
	return d
}

// OnFile sets what receives the file picked or dropped (a File).
func (d *fileDrop) OnFile(f func(ctx app.Context, file app.Value)) *fileDrop {
	d.IonFile = f
	return d
}

func (d *fileDrop) Render() app.UI {
	zone := app.Div().Class("drop-zone")
	if d.over {
		zone = zone.Class("drop-zone-over")
	}
	return zone.
		OnDragOver(d.dragOver).
		OnDragLeave(d.dragLeave).
		OnDrop(d.drop).
		Body(
			app.Label().For(d.IID).Class("drop-label").Body(
				app.Span().Class("drop-title").Text(d.Ilabel),
				app.Span().Class("drop-hint").ID(d.IID+"-hint").Text(d.Ihint),
			),
			app.Input().
				ID(d.IID).
				Type("file").
				Class("file-input").
				Class(loadedClass(d.Icurrent)).
				Accept(d.Iaccept).
				Aria("describedby", d.IID+"-hint "+d.IID+"-current").
				OnChange(d.picked),
			app.Span().ID(d.IID+"-current").Class("drop-current").Text(loadedText(d.Icurrent)),
		)
}

func (d *fileDrop) dragOver(ctx app.Context, e app.Event) {
	// Without this the browser opens the dropped file instead.
	e.PreventDefault()
	if !d.over {
		d.over = true
	} else {
		ctx.PreventUpdate()
	}
}

func (d *fileDrop) dragLeave(ctx app.Context, e app.Event) {
	d.over = false
}

func (d *fileDrop) drop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	d.over = false
	files := e.Get("dataTransfer").Get("files")
	if files.Truthy() && files.Length() > 0 {
		d.deliver(ctx, files.Index(0))
	}
}

func (d *fileDrop) picked(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if files.Truthy() && files.Length() > 0 {
		d.deliver(ctx, files.Index(0))
	}
	// Clear the input so that picking the same file again (after fixing
	// it) is a change too. The File read above stays valid.
	input.Set("value", "")
}

func (d *fileDrop) deliver(ctx app.Context, file app.Value) {
	if d.IonFile != nil {
		d.IonFile(ctx, file)
	}
}

// loadedClass hides the input's own words while a file is loaded.
func loadedClass(name string) string {
	if name == "" {
		return ""
	}
	return "file-input-loaded"
}

func loadedText(name string) string {
	if name == "" {
		return ""
	}
	return tf("Loaded: %s", name)
}
