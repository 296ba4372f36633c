package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// importSubmit is the import's last step, at the foot of the review: the
// document's exports, what a submission of it would do, and the way on
// to the submission page, which takes the document from the page's
// state. It holds nothing of its own.
type importSubmit struct {
	app.Compo

	Isum *wire.Summary
	// Itable says the file is a table, read through a mapping the
	// operator can save.
	Itable    bool
	IonExport func(ctx app.Context, what string)
}

func newImportSubmit() *importSubmit { return &importSubmit{} }

// Summary sets the summary of the document built.
func (u *importSubmit) Summary(s *wire.Summary) *importSubmit { u.Isum = s; return u }

// Table says whether the file is a table, with a mapping to export.
func (u *importSubmit) Table(on bool) *importSubmit { u.Itable = on; return u }

// OnExport sets what downloads a file of the document.
func (u *importSubmit) OnExport(f func(ctx app.Context, what string)) *importSubmit {
	u.IonExport = f
	return u
}

func (u *importSubmit) Render() app.UI {
	button := func(id, label, what string) app.UI {
		return app.Button().ID(id).Type("button").Class("button", "button-quiet").Text(label).
			OnClick(func(ctx app.Context, e app.Event) { u.IonExport(ctx, what) })
	}
	s := u.Isum
	return app.Div().Class("exports").Body(
		app.H3().Text(t("Export")),
		app.Div().Class("actions").Body(
			button("export-request", t("What is sent (JSON)"), wire.ExportRequest),
			// Both hold every row, with the problems of each in a column
			// of their own: fixed, they load again as they are.
			button("export-errors", t("Every row with its errors (.xlsx)"), wire.ExportErrorWorkbook),
			button("export-errors-csv", t("Every row with its errors (CSV)"), wire.ExportErrorCSV),
			button("export-manifest", t("Summary manifest (CSV)"), wire.ExportManifest),
			app.If(u.Itable, func() app.UI { return button("export-mapping", t("Mapping file"), wire.ExportMapping) }),
		),
		techDetails("export-details", t("“What is sent” is the API's request body, exactly as the submission sends it.")),
		// A host page that opened the console to validate takes the
		// file on from here.
		app.If(embedMode() != embedValidate, func() app.UI {
			return app.Div().Body(
				app.H3().Text(t("Submit")),
				app.P().Class("hint").Text(submitHint(s)),
				app.Button().ID("submit-file").Type("button").Class("button", "button-primary").Text(t("Submit…")).OnClick(u.submit),
			)
		}),
	)
}

func submitHint(s *wire.Summary) string {
	switch {
	case s.Elements == 0:
		return t("There is nothing to submit.")
	case s.Invalid > 0:
		return tf("%s would be refused by the API. Fix them here, or submit only the valid ones on the next page.", plural(s.Invalid, "element", "elements"))
	}
	if note, clear := validity(s); !clear {
		return note + " " + t("The next page shows what to check before the bulks are sent.")
	}
	return t("Every element is valid. The next page shows the bulks it makes and sends them once.")
}

// submit hands the current document to the submission page.
func (u *importSubmit) submit(ctx app.Context, e app.Event) {
	s := u.Isum
	ctx.SetState(CurrentDocumentState, CurrentDocument{
		ID:         s.Document,
		Kind:       s.Kind,
		BackOffice: s.BackOffice,
		FileName:   s.FileName,
		Elements:   s.Elements,
		Invalid:    s.Invalid,
	})
	ctx.Navigate(href(SubmitPath))
}
