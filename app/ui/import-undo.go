package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Undo in the review: Ctrl+Z (Cmd+Z on a Mac) in the table, or the Undo
// button beside it, undoes the last change to cells — an edit, a
// find-and-replace, capitals — one at a time, last first. The worker puts
// the cells back, validates their rows again and takes the change out of
// the draft; the page shows the cell put back.

// undoKeys names the shortcut as the operator's keyboard has it.
func undoKeys() string {
	if onMac() {
		return "⌘Z"
	}
	return "Ctrl+Z"
}

// onMac reports whether the browser runs on a Mac, whose shortcuts use
// the Command key.
func onMac() bool {
	nav := app.Window().Get("navigator")
	return nav.Truthy() && strings.Contains(nav.Get("platform").String(), "Mac")
}

// renderUndo is the Undo button, disabled while there is nothing to undo.
func (v *importReview) renderUndo() app.UI {
	n := 0
	if v.Isum != nil {
		n = v.Isum.Undoable
	}
	b := app.Button().ID("undo").Type("button").Class("button", "button-quiet").
		Aria("keyshortcuts", "Control+Z Meta+Z").
		Title(tf("Undo the last change (%s in the table)", undoKeys())).
		Text(t("Undo")).
		OnClick(func(ctx app.Context, e app.Event) { v.undo(ctx) })
	if n == 0 {
		b = b.Disabled(true)
	}
	return b
}

// undo asks the worker to undo the last change, and shows its cell.
func (v *importReview) undo(ctx app.Context) {
	if v.Isum == nil || background() == nil {
		return
	}
	if v.Isum.Undoable == 0 {
		v.later(func(app.Context) { v.announce(t("There is no change to undo.")) })
		return
	}
	doc := v.Isum.Document
	runJob(v.ctx, wire.JobUndo, wire.Undo{Document: doc}, nil, func(u wire.Undone, _ app.Value, err error) {
		if err != nil {
			v.IonFail(v.ctx, err)
			return
		}
		v.IonSummary(v.ctx, &u.Summary)
		v.replace.note = ""
		if u.Cells == 0 {
			v.announce(t("There is no change to undo."))
			return
		}
		if u.Column >= 0 {
			v.focusOn(u.Element, u.Column)
		}
		v.announce(undoneNews(u, u.Summary.Columns))
	})
}

// undoneNews says what an undo put back, for screen readers.
func undoneNews(u wire.Undone, cols []wire.GridColumn) string {
	left := plural(u.Summary.Errors, "error", "errors")
	if u.Cells > 1 || u.Column < 0 || u.Column >= len(cols) {
		return tf("Undone: %s as they were. %s left.", plural(u.Cells, "cell", "cells"), left)
	}
	field := fieldName(cols[u.Column].Field)
	if element, ok := strings.CutPrefix(u.Label, "#"); ok {
		return tf("Undone: element %s, %s is %s again. %s left.", element, field, quoteEmpty(u.Text), left)
	}
	return tf("Undone: row %s, %s is %s again. %s left.", u.Label, field, quoteEmpty(u.Text), left)
}

// quoteEmpty writes an empty value so that it is heard.
func quoteEmpty(s string) string {
	if s == "" {
		return t("empty")
	}
	return s
}
