package ui

import (
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A file seldom has a column for everything its operations need: a bank's
// export of transfers lacks the profile and the source's type, the same
// in every row. The mapping step gives such a field one value for every
// row, read as a cell of that field would be: the required fields no
// column fills first, with the contract's choices in menus where it has
// them, then any other field the operator adds.

// setValueRow is one field offered a value for every row.
type setValueRow struct {
	target wire.Target
	value  wire.SetValue
	set    bool
}

// setValueRows lists the fields to offer: the required ones no column
// fills, those given a value, and those the operator added, required ones
// first, each group in the kind's order.
func (r *importRead) setValueRows() []setValueRow {
	pr := r.Iprep
	values := make(map[string]wire.SetValue, len(pr.Values))
	for _, v := range pr.Values {
		values[v.Field] = v
	}
	shown := make(map[string]bool)
	for _, f := range pr.Missing {
		shown[f] = true
	}
	if r.setExtraDoc == pr.Document {
		for _, f := range r.setExtra {
			shown[f] = true
		}
	}
	filled := r.filledFields()
	var required, others []setValueRow
	for _, tg := range pr.Targets {
		v, set := values[tg.Path]
		if !set && (!shown[tg.Path] || filled[tg.Path]) {
			continue
		}
		row := setValueRow{target: tg, value: v, set: set}
		if tg.Required {
			required = append(required, row)
		} else {
			others = append(others, row)
		}
	}
	return append(required, others...)
}

// unfilledTargets are the fields no column fills and the list does not
// show yet: those the operator can add.
func (r *importRead) unfilledTargets(rows []setValueRow) []wire.Target {
	filled := r.filledFields()
	for _, row := range rows {
		filled[row.target.Path] = true
	}
	var out []wire.Target
	for _, tg := range r.Iprep.Targets {
		if !filled[tg.Path] {
			out = append(out, tg)
		}
	}
	return out
}

// filledFields are the fields columns fill, pending choices included.
func (r *importRead) filledFields() map[string]bool {
	filled := make(map[string]bool)
	for _, c := range r.Iprep.Columns {
		if f := r.pendingNow().field(c); f != "" {
			filled[f] = true
		}
	}
	return filled
}

// renderSetValues is the part of the mapping step where fields no column
// fills get a value for every row.
func (r *importRead) renderSetValues() app.UI {
	rows := r.setValueRows()
	more := r.unfilledTargets(rows)
	return app.Section().ID("set-values").Class("set-values").Aria("labelledby", "set-values-title").Body(
		app.H3().ID("set-values-title").TabIndex(-1).Text(t("Same value for every row")),
		app.P().ID("set-values-hint").Class("hint").Text(t("A field that no column fills can take one value for every row. It is read as a cell of that field would be.")),
		app.Div().Class("set-list").Body(
			app.Range(rows).Slice(func(i int) app.UI { return r.renderSetValue(i, rows[i]) }),
		),
		app.If(len(more) > 0, func() app.UI {
			return app.Div().Class("field", "set-add").Body(
				app.Label().For("set-add").Text(t("Give another field a value for every row")),
				app.Select().ID("set-add").Class("select", "select-field").OnChange(r.setFieldAdded).Body(
					option("", t("Choose a field…"), true),
					app.Range(more).Slice(func(i int) app.UI {
						return option(more[i].Path, targetLabel(more[i]), false)
					}),
				),
			)
		}),
	)
}

// renderSetValue is one field's value for every row: a menu of the
// contract's choices, in the operator's words, or a text box; and below
// it what the value reads as, or why it cannot be read.
func (r *importRead) renderSetValue(i int, row setValueRow) app.UI {
	id := "set-" + strconv.Itoa(i)
	tg := row.target
	status := app.P().ID(id + "-read").Class("hint")
	switch {
	case row.value.Error != "":
		status = status.Class("cell-error").Text(tf("Error: %s", row.value.Error))
	case row.set:
		status = status.Text(tf("Read as: %s", choiceWords(tg, row.value.Parsed)))
	case tg.Required:
		status = status.Class("status-warn").Text(t("Not set: every row needs it."))
	default:
		status = status.Text(t("Not set."))
	}
	var control app.UI
	if len(tg.Choices) > 0 {
		sel := app.Select().ID(id).Class("select", "select-field").DataSet("field", tg.Path).
			Aria("describedby", id+"-read").OnChange(r.setValueChanged)
		if row.value.Error != "" {
			sel = sel.Aria("invalid", "true")
		}
		control = sel.Body(
			option("", t("Not set"), !row.set),
			app.Range(tg.Choices).Slice(func(k int) app.UI {
				c := tg.Choices[k]
				return option(c.Value, c.Words, row.set && row.value.Value == c.Value)
			}),
		)
	} else {
		in := app.Input().ID(id).Class("input", "set-input").Type("text").DataSet("field", tg.Path).
			Value(row.value.Value).Aria("describedby", id+"-read").OnChange(r.setValueChanged)
		if row.value.Error != "" {
			in = in.Aria("invalid", "true")
		}
		control = in
	}
	return app.Div().Class("field", "set-value").Body(
		app.Label().For(id).Text(targetLabel(tg)),
		control,
		status,
	)
}

// setValueChanged sends a field's new value for every row; the focus
// stays on its control. The field is read from the control itself (see
// columnSelected).
func (r *importRead) setValueChanged(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	field, value := src.Get("dataset").Get("field").String(), src.Get("value").String()
	if field == "" {
		return
	}
	label := tf("Setting %s for every row", fieldLabel(field))
	if value == "" {
		label = tf("Removing the value of %s for every row", fieldLabel(field))
	}
	req := wire.Prepare{Columns: r.pendingNow().choices(r.Iprep.Columns), Values: []wire.FieldValue{{Field: field, Value: value}}}
	r.IonPrepare(ctx, req, label, src.Get("id").String())
}

// setFieldAdded shows another field in the list, its control focused.
func (r *importRead) setFieldAdded(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	field := src.Get("value").String()
	src.Set("value", "")
	if field == "" {
		return
	}
	if r.setExtraDoc != r.Iprep.Document {
		r.setExtra, r.setExtraDoc = nil, r.Iprep.Document
	}
	r.setExtra = append(r.setExtra, field)
	for i, row := range r.setValueRows() {
		if row.target.Path == field {
			id := "set-" + strconv.Itoa(i)
			r.ctx.Defer(func(app.Context) { focusByID(id) })
		}
	}
}

// focusSetValue focuses the control of a field's value for every row, or
// the heading of the list when the field has none.
func focusSetValue(field string) {
	doc := app.Window().Get("document")
	el := doc.Call("querySelector", `#set-values [data-field="`+app.Window().Get("CSS").Call("escape", field).String()+`"]`)
	if !el.Truthy() {
		el = doc.Call("getElementById", "set-values-title")
	}
	if el.Truthy() {
		el.Call("focus")
	}
}

// choiceWords writes one of a field's choices as the operator reads it,
// with the API's value: "Verwaltetes Konto (managed_accounts)".
func choiceWords(tg wire.Target, value string) string {
	for _, c := range tg.Choices {
		if c.Value == value && c.Words != value {
			return c.Words + " (" + value + ")"
		}
	}
	return value
}
