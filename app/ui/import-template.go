package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// templateDownload is "Download a template" on the Import page: the
// chosen kind's workbook, headed in the console's language, to fill in
// and load back, which reads without a question, its dates in the time
// zone chosen in Settings. The second worker writes it; it never leaves
// the browser.
type templateDownload struct {
	app.Compo

	Ikind       string
	IbackOffice bool

	busy bool
	// note says what was downloaded, or why nothing was.
	note string
}

func newTemplateDownload() *templateDownload { return &templateDownload{} }

// Kind sets the kind whose template is offered.
func (d *templateDownload) Kind(id string) *templateDownload {
	d.Ikind = id
	return d
}

// BackOffice sets whether the kind goes through the back-office API.
func (d *templateDownload) BackOffice(on bool) *templateDownload {
	d.IbackOffice = on
	return d
}

func (d *templateDownload) Render() app.UI {
	btn := app.Button().ID("download-template").Type("button").Class("button", "button-quiet").
		Aria("describedby", "template-hint").Text(t("Download a template")).OnClick(d.download)
	if d.busy {
		btn = btn.Disabled(true)
	}
	return app.Div().Class("template-download").Body(
		btn,
		app.P().ID("template-hint").Class("hint").Text(t("A workbook for this kind, in your language: fill it in and load it here. Amounts go in with their decimals, dates as dates, choices from lists.")),
		app.If(d.note != "", func() app.UI { return app.P().ID("template-note").Role("status").Text(d.note) }),
	)
}

func (d *templateDownload) download(ctx app.Context, e app.Event) {
	if d.Ikind == "" {
		return
	}
	d.busy, d.note = true, t("Writing the template…")
	// The time zone chosen in Settings, if any, is the template's: its
	// dates then read back in it wherever it is checked.
	req := wire.TemplateRequest{Kind: d.Ikind, BackOffice: d.IbackOffice, Lang: string(consoleLang), TimeZone: storedTimeZone()}
	runJob(ctx, wire.JobTemplate, req, nil, func(f wire.File, data app.Value, err error) {
		d.busy = false
		if err != nil {
			d.note = errorText(err)
			return
		}
		download(data, f.Name, f.Type)
		d.note = tf("%s is downloaded.", f.Name)
	})
}
