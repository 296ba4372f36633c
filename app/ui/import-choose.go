package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fileTypes are the files the picker offers.
const fileTypes = ".xlsx,.csv,.tsv,.txt,.json,application/json,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// importChoose is the import's first step: the bulk kind, and the file
// dropped, chosen or pasted. Once a file is read, the step folds into one
// line, so that the step the operator goes on to starts at the top of the
// window rather than below the file picker and the template's hint;
// "Change" unfolds it, and the next file read folds it again.
//
// The kind chosen is the page's (a file's headers may choose it, and
// every reading sends it); the step owns what the operator types before
// a file is read, and whether it is unfolded.
type importChoose struct {
	app.Compo

	Ikinds      []Kind
	IkindID     string
	IbackOffice bool
	// Iprep is how the open file is read, nil before a file is.
	Iprep *wire.Prepared
	// Ielements counts the file's elements once it is built (Ibuilt).
	Ielements     int
	Ibuilt        bool
	IonKind       func(ctx app.Context, k Kind)
	IonBackOffice func(ctx app.Context, on bool)
	IonFile       func(ctx app.Context, file app.Value)
	IonPaste      func(ctx app.Context, text string)
	IonFail       func(ctx app.Context, message string)

	pasteText string
	// unfolded is the document whose folded line "Change" unfolded: the
	// next file read, another document, is folded again.
	unfolded int
}

func newImportChoose() *importChoose { return &importChoose{} }

// Kinds sets the kinds the operator chooses from.
func (c *importChoose) Kinds(k []Kind) *importChoose { c.Ikinds = k; return c }

// Kind sets the kind chosen, "" for none, and whether it goes through the
// back-office API.
func (c *importChoose) Kind(id string, backOffice bool) *importChoose {
	c.IkindID, c.IbackOffice = id, backOffice
	return c
}

// Prepared sets how the open file is read, nil for none.
func (c *importChoose) Prepared(pr *wire.Prepared) *importChoose { c.Iprep = pr; return c }

// Built sets the count of the elements the file was built into.
func (c *importChoose) Built(elements int) *importChoose {
	c.Ielements, c.Ibuilt = elements, true
	return c
}

// OnKind sets what takes the kind chosen (a zero Kind for none).
func (c *importChoose) OnKind(f func(ctx app.Context, k Kind)) *importChoose {
	c.IonKind = f
	return c
}

// OnBackOffice sets what takes the back-office box ticked or not.
func (c *importChoose) OnBackOffice(f func(ctx app.Context, on bool)) *importChoose {
	c.IonBackOffice = f
	return c
}

// OnFile sets what reads a file chosen or dropped.
func (c *importChoose) OnFile(f func(ctx app.Context, file app.Value)) *importChoose {
	c.IonFile = f
	return c
}

// OnPaste sets what reads the rows pasted.
func (c *importChoose) OnPaste(f func(ctx app.Context, text string)) *importChoose {
	c.IonPaste = f
	return c
}

// OnFail sets what shows why nothing is read.
func (c *importChoose) OnFail(f func(ctx app.Context, message string)) *importChoose {
	c.IonFail = f
	return c
}

func (c *importChoose) OnMount(ctx app.Context) {
	ctx.Handle(actionStartOver, func(app.Context, app.Action) { c.pasteText = "" })
	// The rows pasted before the page's program ran stay in the box.
	if e, ok := takeEarlyImport(); ok && c.pasteText == "" && e.paste != "" {
		c.pasteText = e.paste
		return
	}
	mountedUnchanged(ctx)
}

// Render shows the step's one line once a file is read, above the kind
// and the file, which the line hides until "Change". They stay on the
// page, hidden: a file chosen or dropped on them meanwhile is read as
// before.
func (c *importChoose) Render() app.UI {
	choose := app.Div().ID("choose-step").Body(c.renderChoose())
	pr := c.Iprep
	if pr == nil || pr.Kind == "" {
		return app.Div().ID("chosen").Body(app.P().ID("chosen-line"), choose)
	}
	open := c.unfolded == pr.Document
	toggle := app.Button().ID("change-chosen").Type("button").Class("link-button").
		Aria("expanded", open).Aria("controls", "choose-step").
		OnClick(c.toggle)
	if open {
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
				c.IonFile(ctx, files.Index(0))
			}
		}).Body(
		app.Strong().Text(c.chosenKind()),
		app.Span().Class("chosen-sep").Aria("hidden", "true").Text(" · "),
		app.Span().ID("chosen-file").Text(pr.FileName),
		app.Span().Class("chosen-sep").Aria("hidden", "true").Text(" · "),
		app.Span().Text(c.chosenCount()),
		app.Span().Class("chosen-sep").Aria("hidden", "true").Text(" · "),
		toggle,
	)
	return app.Div().ID("chosen").Body(line, choose)
}

// toggle unfolds the step, or folds it again.
func (c *importChoose) toggle(ctx app.Context, e app.Event) {
	if c.Iprep == nil {
		return
	}
	if c.unfolded == c.Iprep.Document {
		c.unfolded = 0
		return
	}
	c.unfolded = c.Iprep.Document
	ctx.Defer(func(app.Context) { focusByID("kind") })
}

// renderChoose is the kind, and the file or pasted rows.
func (c *importChoose) renderChoose() app.UI {
	return app.Div().Class("form-row").Body(
		c.renderKindPicker(),
		app.Div().Body(
			newFileDrop().
				ID("request-file").
				Label(t("File")).
				Hint(t("An .xlsx workbook, a CSV file or a JSON file. Drop it here or choose it.")).
				Accept(fileTypes).
				Current(c.loadedName()).
				OnFile(c.IonFile),
			techDetails("request-file-details", t("A JSON file is read as the API's request body: an array of {\"pathParams\", \"requestBody\"}.")),
			app.Details().Class("paste").Body(
				app.Summary().Text(t("Or paste rows copied from a spreadsheet")),
				app.Label().For("paste-rows").Class("field-label").Text(t("Rows, with their header row")),
				app.Textarea().ID("paste-rows").Class("textarea").Rows(6).
					Aria("describedby", "paste-hint").
					Text(c.pasteText).
					OnInput(func(ctx app.Context, e app.Event) {
						c.pasteText = ctx.JSSrc().Get("value").String()
						ctx.PreventUpdate()
					}),
				app.P().ID("paste-hint").Class("hint").Text(t("Select the cells in Excel or another spreadsheet, copy them, and paste them here: columns are separated by tabs.")),
				app.Button().ID("read-pasted").Type("button").Class("button").Text(t("Read the pasted rows")).OnClick(c.pasteChosen),
			),
		),
	)
}

func (c *importChoose) renderKindPicker() app.UI {
	kind, hasKind := c.kind()
	suggested := c.Iprep != nil && c.Iprep.KindSuggested && c.Iprep.Kind == c.IkindID
	return app.Div().Class("field").Body(
		app.Label().For("kind").Text(t("Bulk kind")),
		app.Select().ID("kind").Class("select").Aria("describedby", "kind-hint").OnChange(c.kindChosen).Body(
			option("", t("Choose what the bulk does…"), c.IkindID == ""),
			app.Range(c.Ikinds).Slice(func(i int) app.UI {
				k := c.Ikinds[i]
				return option(k.ID, t(k.Title), k.ID == c.IkindID)
			}),
		),
		app.If(suggested, func() app.UI {
			return app.P().ID("kind-hint").Class("hint", "hint-suggested").Text(t("Suggested from the file's headers: check it, or choose another kind."))
		}).Else(func() app.UI {
			return app.P().ID("kind-hint").Class("hint").Text(t("Or load the file first: its headers suggest the kind."))
		}),
		app.If(hasKind && kind.BackOffice, func() app.UI {
			box := app.Input().Type("checkbox").ID("backoffice").OnChange(func(ctx app.Context, e app.Event) {
				c.IonBackOffice(ctx, ctx.JSSrc().Get("checked").Bool())
			})
			if c.IbackOffice {
				box = box.Checked(true)
			}
			return app.Div().Body(
				app.Div().Class("check").Body(
					box,
					app.Label().For("backoffice").Text(t("Submit on behalf of the identity chosen in Settings")),
				),
				techDetails("backoffice-details", t("The bulk then goes through the back-office API, with the token Settings obtained for that identity.")),
			)
		}),
		app.If(hasKind, func() app.UI { return newTemplateDownload().Kind(c.IkindID).BackOffice(c.IbackOffice) }),
	)
}

// kind returns the chosen kind.
func (c *importChoose) kind() (Kind, bool) { return kindByID(c.Ikinds, c.IkindID) }

// kindChosen takes the kind from its menu. Whether it goes through the
// back office is the page's to decide: the box's last change may not
// have reached this step's fields yet, since go-app passes them down at
// the next frame, and an event can come first.
func (c *importChoose) kindChosen(ctx app.Context, e app.Event) {
	k, _ := kindByID(c.Ikinds, ctx.JSSrc().Get("value").String())
	c.IonKind(ctx, k)
}

func (c *importChoose) pasteChosen(ctx app.Context, e app.Event) {
	if c.pasteText == "" {
		c.IonFail(ctx, t("Paste the rows first: select them in the spreadsheet, copy, and paste them in the box."))
		return
	}
	c.IonPaste(ctx, c.pasteText)
}

// loadedName names the file read, "" for none.
func (c *importChoose) loadedName() string {
	if c.Iprep == nil {
		return ""
	}
	return c.Iprep.FileName
}

// chosenKind names the kind the file is read as, in the operator's words.
func (c *importChoose) chosenKind() string {
	title := c.Iprep.Kind
	if k, ok := c.kind(); ok {
		title = t(k.Title)
	}
	if c.Iprep.KindSuggested {
		return tf("%s (suggested by the headers)", title)
	}
	return title
}

// chosenCount says how much the file holds: the rows of a table, the
// elements of a JSON request, counted as built once it is.
func (c *importChoose) chosenCount() string {
	n := c.Iprep.DataRows
	if c.Ibuilt {
		n = c.Ielements
	}
	if c.Iprep.Request {
		return plural(n, "element", "elements")
	}
	return plural(n, "row", "rows")
}

// kindByID returns the kind of kinds with that id.
func kindByID(kinds []Kind, id string) (Kind, bool) {
	for _, k := range kinds {
		if k.ID == id {
			return k, true
		}
	}
	return Kind{}, false
}
