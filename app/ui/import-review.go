package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// importReview is the import's third step: the summary and control
// totals, the review table with its filter, problem navigation and
// find-and-replace, the problem list, and the last step, on to
// submission. The document and its summary are the page's; the step owns
// how the operator looks at them: the filter, the cell in focus, the
// problems loaded, and what they type (control totals, limits, a
// replacement).
//
// It stays mounted while another step shows, empty, so that what the
// operator typed outlives a look at how the file is read.
type importReview struct {
	app.Compo

	// Isum is the summary of the document built.
	Isum *wire.Summary
	// IkindSuggested says the file's headers suggested its kind; Itable
	// says it is a table, read through a mapping, not a JSON request.
	IkindSuggested bool
	Itable         bool
	Icurrent       bool
	// Ilimits are the amount limits applied (typed text until then).
	Ilimits []string
	// IonSummary takes a newer summary of the document.
	IonSummary       func(ctx app.Context, s *wire.Summary)
	IonLimits        func(ctx app.Context, limits []string)
	IonChangeReading func(ctx app.Context)
	IonEditSet       func(ctx app.Context, field string)
	IonSaving        func(ctx app.Context, delta int)
	IonExport        func(ctx app.Context, what string)
	IonAnnounce      func(ctx app.Context, text string)
	IonFail          func(ctx app.Context, err error)

	// shown is the summary the step shows: a summary of another document
	// shows every row again.
	shown      *wire.Summary
	errorsOnly bool
	focus      gridFocus
	// foundColumn is the column of the problem the last jump went to, -1
	// for a problem of the row as a whole.
	foundColumn int
	// problems are those listed: the summary's first page, and the pages
	// loaded since.
	problems    []wire.Problem
	loadingMore bool
	control     controlTotals
	replace     replaceForm
	// limits are the amount limits as typed, those applied until the
	// operator types: "EUR:10000 USD:2500"; limitsProblem, when they
	// cannot be read, why and how to type them.
	limits, limitsProblem string
	applied               []string
	// ctx is the step's own context, for the worker's answers.
	ctx app.Context
}

// replaceForm is the state of the find-and-replace form.
type replaceForm struct {
	column    int
	find      string
	with      string
	matchCase bool
	wholeCell bool
	// note says what the last replacement did, on the page as well as
	// to screen readers.
	note string
}

func newImportReview() *importReview { return &importReview{} }

// Summary sets the summary of the document built.
func (v *importReview) Summary(s *wire.Summary) *importReview { v.Isum = s; return v }

// ReadFrom says whether the kind was suggested by the file's headers, and
// whether the file is a table read through a mapping.
func (v *importReview) ReadFrom(kindSuggested, table bool) *importReview {
	v.IkindSuggested, v.Itable = kindSuggested, table
	return v
}

// Current says whether the page shows this step.
func (v *importReview) Current(on bool) *importReview { v.Icurrent = on; return v }

// Limits sets the amount limits applied.
func (v *importReview) Limits(l []string) *importReview { v.Ilimits = l; return v }

// OnSummary sets what takes a newer summary of the document: an edit's,
// a replacement's, an undo's.
func (v *importReview) OnSummary(f func(ctx app.Context, s *wire.Summary)) *importReview {
	v.IonSummary = f
	return v
}

// OnLimits sets what keeps the amount limits applied.
func (v *importReview) OnLimits(f func(ctx app.Context, limits []string)) *importReview {
	v.IonLimits = f
	return v
}

// OnChangeReading sets what goes back to how the file is read.
func (v *importReview) OnChangeReading(f func(ctx app.Context)) *importReview {
	v.IonChangeReading = f
	return v
}

// OnEditSet sets what changes a value set for every row (its field).
func (v *importReview) OnEditSet(f func(ctx app.Context, field string)) *importReview {
	v.IonEditSet = f
	return v
}

// OnSaving sets what hears of each edit sent (+1) and answered (-1).
func (v *importReview) OnSaving(f func(ctx app.Context, delta int)) *importReview {
	v.IonSaving = f
	return v
}

// OnExport sets what downloads a file of the document.
func (v *importReview) OnExport(f func(ctx app.Context, what string)) *importReview {
	v.IonExport = f
	return v
}

// OnAnnounce sets what tells screen readers.
func (v *importReview) OnAnnounce(f func(ctx app.Context, text string)) *importReview {
	v.IonAnnounce = f
	return v
}

// OnFail sets what shows a job that failed.
func (v *importReview) OnFail(f func(ctx app.Context, err error)) *importReview {
	v.IonFail = f
	return v
}

func (v *importReview) OnMount(ctx app.Context) {
	v.ctx = ctx
	v.follow()
	if !v.Icurrent || v.Isum == nil {
		mountedUnchanged(ctx) // still empty
	}
}

func (v *importReview) OnUpdate(ctx app.Context) { v.follow() }

// follow takes what the page hands down: a summary of another document
// shows every row again, each new summary lists its own first problems,
// and limits applied replace what was typed.
func (v *importReview) follow() {
	if s := v.Isum; s != nil && s != v.shown {
		if v.shown == nil || v.shown.Document != s.Document {
			v.errorsOnly = false
		}
		v.shown, v.problems = s, s.Problems
	}
	if !slices.Equal(v.Ilimits, v.applied) {
		v.applied, v.limits = v.Ilimits, strings.Join(v.Ilimits, " ")
	}
}

func (v *importReview) Render() app.UI {
	if !v.Icurrent || v.Isum == nil {
		return app.Text("") // mounted, empty: see importReview
	}
	return v.renderReview()
}

// announce tells screen readers, and the page.
func (v *importReview) announce(text string) { v.IonAnnounce(v.ctx, text) }

// later runs f on the step's own context, so that what it changes shows:
// the table's answers come on contexts of its own.
func (v *importReview) later(f func(ctx app.Context)) { v.ctx.Dispatch(f) }

func (v *importReview) renderReview() app.UI {
	s := v.Isum
	return app.Section().ID("result").Class("result").DataSet("state", "done").Aria("labelledby", "result-title").Body(
		app.H2().ID("result-title").TabIndex(-1).Text(s.FileName),
		v.renderReadAs(),
		renderStatements("review-reading", s.Reading),
		renderSchedule("review-schedule", s.Schedule),
		app.Dl().Class("summary").Body(
			summaryItem("count-elements", t("Elements"), s.Elements, ""),
			summaryItem("count-valid", t("Valid"), s.Valid, "ok"),
			summaryItem("count-invalid", t("Invalid"), s.Invalid, "bad"),
			summaryItem("count-errors", t("Errors"), s.Errors, "bad"),
			summaryItem("count-warnings", t("Warnings"), s.Warnings, "warn"),
			summaryItem("count-duplicates", t("Duplicates"), s.Duplicates, "warn"),
		),
		app.If(len(s.Totals) > 0, v.renderTotals),
		v.renderControl(),
		app.If(len(s.Totals) > 0, v.renderLimits),
		app.H3().ID("table-title").Text(t("Elements")),
		v.renderToolbar(),
		newReviewGrid().
			Document(s.Document, s.Version).
			FirstRows(s.FirstRows).
			Columns(s.Columns).
			ErrorsOnly(v.errorsOnly).
			Focus(v.focus).
			MemoryNote(s.WorkerMemory).
			OnEdited(v.edited).
			OnEditSet(v.IonEditSet).
			OnUndo(v.undo).
			OnSaving(v.IonSaving).
			OnAnnounce(func(_ app.Context, text string) { v.later(func(app.Context) { v.announce(text) }) }).
			OnNoErrorLeft(v.jump),
		v.renderProblems(),
		newImportSubmit().Summary(s).Table(v.Itable).OnExport(v.IonExport),
	)
}

func (v *importReview) renderReadAs() app.UI {
	s := v.Isum
	var parts []app.UI
	// The statements below say how the file was read; the one-line
	// summary is for documents that have none.
	if s.ReadAs != "" && len(s.Reading) == 0 {
		parts = append(parts, app.Span().ID("read-as").Text(tf("Read with %s. ", s.ReadAs)))
	}
	if v.IkindSuggested {
		parts = append(parts, app.Strong().Text(t("The kind was suggested by the file: check it above. ")))
	}
	if v.Itable {
		parts = append(parts, app.Button().ID("change-reading").Type("button").Class("link-button").
			Text(t("Change how the file is read")).
			OnClick(func(ctx app.Context, e app.Event) { v.IonChangeReading(ctx) }))
	}
	if len(parts) == 0 {
		return nil
	}
	return app.P().Class("read-as").Body(parts...)
}

func summaryItem(id, label string, n int, tone string) app.UI {
	div := app.Div().Class("summary-item")
	if tone != "" && n > 0 {
		div = div.Class("summary-" + tone)
	}
	return div.Body(
		app.Dt().Text(label),
		app.Dd().ID(id).Text(count(n)),
	)
}

func (v *importReview) renderTotals() app.UI {
	s := v.Isum
	return app.Div().Class("totals").Body(
		app.Div().Class("table-scroll").Body(
			app.Table().ID("totals").Class("figures").Body(
				app.Caption().Text(t("Totals per currency")),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text(t("Currency")),
					app.Th().Scope("col").Class("num").Text(t("Elements")),
					app.Th().Scope("col").Class("num").Text(t("Total")),
				)),
				app.TBody().Body(app.Range(s.Totals).Slice(func(i int) app.UI {
					tot := s.Totals[i]
					row := app.Tr()
					label := tot.Label
					if tot.Invalid {
						// Amounts in "eur", "EURO" or no currency: one row,
						// marked, never a currency of their own.
						row = row.Class("invalid-currency").Title(t("amounts whose currency is not a valid ISO 4217 code, summed in minor units: correct their currency"))
						label = t("invalid currency")
					}
					return row.Body(
						app.Th().Scope("row").Text(label),
						app.Td().Class("num").Text(count(tot.Count)),
						app.Td().Class("num", "amount").Text(totalText(tot)),
					)
				})),
			),
		),
		app.If(len(s.Sources) > 0, func() app.UI {
			caption := t("By source instrument")
			if s.SourceCount > len(s.Sources) {
				caption = tf("By source instrument: the %s most used of %s (all are in the manifest)", count(len(s.Sources)), count(s.SourceCount))
			}
			return app.Div().Class("table-scroll").Body(
				app.Table().ID("sources").Class("figures").Body(
					app.Caption().Text(caption),
					app.THead().Body(app.Tr().Body(
						app.Th().Scope("col").Text(t("Source")),
						app.Th().Scope("col").Class("num").Text(t("Elements")),
						app.Th().Scope("col").Class("num").Text(t("Total")),
					)),
					app.TBody().Body(app.Range(s.Sources).Slice(func(i int) app.UI {
						st := s.Sources[i]
						var totals []string
						for _, tot := range st.Totals {
							totals = append(totals, totalText(tot))
						}
						return app.Tr().Body(
							app.Th().Scope("row").Text(st.Source),
							app.Td().Class("num").Text(count(st.Count)),
							app.Td().Class("num", "amount").Text(strings.Join(totals, ", ")),
						)
					})),
				),
			)
		}),
	)
}

func (v *importReview) renderToolbar() app.UI {
	s := v.Isum
	box := app.Input().Type("checkbox").ID("errors-only").OnChange(func(ctx app.Context, e app.Event) {
		v.errorsOnly = ctx.JSSrc().Get("checked").Bool()
		v.IonAnnounce(ctx, rowsShown(s, v.errorsOnly))
	})
	// Always set: "Next problem" clears the filter to go on to the
	// warnings, and an absent attribute would leave the box ticked.
	box = box.Checked(v.errorsOnly)
	cols := s.Columns
	r := v.replace
	fixes := currencyFixes(cols, v.problems)
	return app.Div().Class("toolbar").Body(
		app.Div().ID("fixes").Class("fixes").Body(app.Range(fixes).Slice(func(i int) app.UI {
			f := fixes[i]
			return app.Button().ID(fmt.Sprintf("fix-currency-%d", f.column)).Type("button").Class("button", "button-fix").
				Text(f.label).DataSet("column", f.column).
				OnClick(v.upperCase)
		})),
		app.Div().Class("check").Body(box, app.Label().For("errors-only").Text(tf("Only rows with errors (%s)", count(s.Invalid)))),
		app.Button().ID("prev-error").Type("button").Class("button", "button-quiet").
			Aria("keyshortcuts", "Shift+F8").Title(t("Shift+F8 in the table")).Text(t("Previous problem")).
			OnClick(func(ctx app.Context, e app.Event) { v.jump(ctx, true) }),
		app.Button().ID("next-error").Type("button").Class("button", "button-quiet").
			Aria("keyshortcuts", "F8").Title(t("F8 in the table")).Text(t("Next problem")).
			OnClick(func(ctx app.Context, e app.Event) { v.jump(ctx, false) }),
		v.renderUndo(),
		app.If(len(cols) > 0, func() app.UI {
			opts := make([][2]string, 0, len(cols))
			for i, c := range cols {
				if c.Set {
					continue // the same in every row: changed where the columns are mapped
				}
				label := c.Field
				if c.Letter != "" {
					label = c.Letter + " · " + c.Header
				}
				opts = append(opts, [2]string{fmt.Sprint(i), label})
			}
			whole := app.Input().Type("checkbox").ID("replace-whole").OnChange(func(ctx app.Context, e app.Event) { v.replace.wholeCell = ctx.JSSrc().Get("checked").Bool() })
			if r.wholeCell {
				whole = whole.Checked(true)
			}
			matchCase := app.Input().Type("checkbox").ID("replace-case").OnChange(func(ctx app.Context, e app.Event) { v.replace.matchCase = ctx.JSSrc().Get("checked").Bool() })
			if r.matchCase {
				matchCase = matchCase.Checked(true)
			}
			return app.Details().Class("replace").Body(
				app.Summary().Text(t("Find and replace in a column")),
				app.Div().Class("replace-row").Body(
					selectField("replace-column", t("Column"), fmt.Sprint(r.column), opts, func(ctx app.Context, e app.Event) {
						fmt.Sscan(ctx.JSSrc().Get("value").String(), &v.replace.column)
					}),
					app.Div().Class("field").Body(
						app.Label().For("replace-find").Text(t("Find")),
						app.Input().ID("replace-find").Class("input").Value(r.find).OnInput(func(ctx app.Context, e app.Event) {
							v.replace.find = ctx.JSSrc().Get("value").String()
							ctx.PreventUpdate()
						}),
					),
					app.Div().Class("field").Body(
						app.Label().For("replace-with").Text(t("Replace with")),
						app.Input().ID("replace-with").Class("input").Value(r.with).OnInput(func(ctx app.Context, e app.Event) {
							v.replace.with = ctx.JSSrc().Get("value").String()
							ctx.PreventUpdate()
						}),
					),
				),
				app.Div().Class("replace-row").Body(
					app.Div().Class("check").Body(matchCase, app.Label().For("replace-case").Text(t("Match case"))),
					app.Div().Class("check").Body(whole, app.Label().For("replace-whole").Text(t("Whole cell only"))),
					app.Button().ID("replace-all").Type("button").Class("button").Text(t("Replace all")).OnClick(v.replaceAll),
				),
				app.If(v.replace.note != "", func() app.UI {
					return app.P().ID("replace-result").Class("note").Text(v.replace.note)
				}),
			)
		}),
	)
}

// jump goes to the next or previous problem after the one in focus.
func (v *importReview) jump(ctx app.Context, back bool) {
	after, col := -1, (*int)(nil)
	if v.focus.Seq > 0 {
		c := v.foundColumn
		after, col = v.focus.Element, &c
	}
	show := func(f wire.FoundProblem) string {
		v.focusOn(f.Element, max(f.Column, 0))
		v.foundColumn = f.Column
		return tf("%s: %s", problemPlace(f.Problem), f.Problem.Message)
	}
	nextProblem(v.ctx, v.Isum.Document, after, col, back, v.errorsOnly, func(f wire.FoundProblem) {
		switch {
		case f.Found:
			v.announce(show(f))
		case v.errorsOnly && v.Isum.Warnings > 0:
			// No error is left, but warnings are, in the rows the filter
			// hides: every row is shown again, from the first warning.
			v.errorsOnly = false
			nextProblem(v.ctx, v.Isum.Document, -1, nil, back, false, func(f wire.FoundProblem) {
				if f.Found {
					v.announce(tf("No error is left; every row is shown again. %s", show(f)))
				}
			})
		default:
			v.announce(t("No problem left."))
		}
	})
}

func (v *importReview) focusOn(element, column int) {
	v.focus = gridFocus{Element: element, Column: column, Seq: v.focus.Seq + 1}
	v.foundColumn = column
}

func (v *importReview) replaceAll(ctx app.Context, e app.Event) {
	r := v.replace
	if r.find == "" && !r.wholeCell {
		v.replace.note = t("Type what to find.")
		v.announce(v.replace.note)
		return
	}
	if v.Isum == nil {
		return
	}
	col := v.Isum.Columns[min(r.column, len(v.Isum.Columns)-1)]
	req := wire.Replace{Document: v.Isum.Document, Column: r.column, Find: r.find, With: r.with, MatchCase: r.matchCase, WholeCell: r.wholeCell}
	v.runReplace(req, t("Replacing…"), func(res wire.Replaced) string {
		return tf("Replaced %s in %s. %s left.", plural(res.Cells, "cell", "cells"), col.Field, plural(res.Summary.Errors, "error", "errors"))
	})
}

// upperCase writes a column of currency codes in capitals: an ordinary
// edit of its cells, which validates their rows again.
// The column is read from the button (see columnSelected).
func (v *importReview) upperCase(ctx app.Context, e app.Event) {
	col, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("column").String())
	if v.Isum == nil || err != nil {
		return
	}
	req := wire.Replace{Document: v.Isum.Document, Column: col, UpperCase: true}
	v.runReplace(req, t("Writing the currencies in capitals…"), func(res wire.Replaced) string {
		return tf("Wrote %s in capitals. %s left.", plural(res.Cells, "currency", "currencies"), plural(res.Summary.Errors, "error", "errors"))
	})
}

// runReplace runs a replacement in a column, announcing working while it
// runs and what done says once the review is updated.
func (v *importReview) runReplace(req wire.Replace, working string, done func(wire.Replaced) string) {
	if background() == nil {
		return
	}
	v.replace.note = working
	v.announce(working)
	runJob(v.ctx, wire.JobReplace, req, nil, func(res wire.Replaced, _ app.Value, err error) {
		if err != nil {
			v.replace.note = ""
			v.IonFail(v.ctx, err)
			return
		}
		v.IonSummary(v.ctx, &res.Summary)
		v.replace.note = done(res)
		v.announce(v.replace.note)
	})
}

// edited takes the summary an edit brought.
func (v *importReview) edited(_ app.Context, ed wire.Edited) {
	v.later(func(ctx app.Context) { v.IonSummary(ctx, &ed.Summary) })
}

func (v *importReview) renderProblems() app.UI {
	s := v.Isum
	total := s.Errors + s.Warnings
	note, clear := validity(s)
	if len(v.problems) == 0 && clear {
		return app.P().ID("validity").Class("all-clear").Text(tf("Every element is valid. %s can be submitted as it is.", s.FileName))
	}
	// Without errors, what is left to check says so above the list.
	validityNote := app.If(s.Errors == 0 && s.Elements > 0, func() app.UI {
		return app.P().ID("validity").Class("warning-box").Text(note)
	})
	if len(v.problems) == 0 {
		return validityNote
	}
	return app.Div().Class("problem-list").Body(
		validityNote,
		app.H3().Text(problemsHeading(len(v.problems), total)),
		problemList(v.problems, v.showProblem),
		app.If(len(v.problems) < total, func() app.UI {
			more := app.Button().ID("more-problems").Type("button").Class("button").
				Text(tf("Show %s more", count(min(problemsPageSize, total-len(v.problems))))).
				OnClick(v.loadMoreProblems)
			if v.loadingMore {
				more = more.Disabled(true)
			}
			return more
		}),
	)
}

// showProblem shows the cell of the problem at index i of the list.
func (v *importReview) showProblem(ctx app.Context, i int) {
	if v.Isum == nil || i < 0 || i >= len(v.problems) {
		return
	}
	pr := v.problems[i]
	v.focusOn(pr.Element, gridColumnOf(v.Isum.Columns, pr))
}

func (v *importReview) loadMoreProblems(ctx app.Context, e app.Event) {
	if background() == nil || v.loadingMore {
		return
	}
	v.loadingMore = true
	doc := v.Isum.Document
	req := wire.ProblemsPage{Document: doc, Offset: len(v.problems), Limit: problemsPageSize}
	runJob(v.ctx, wire.JobProblems, req, nil, func(page wire.Problems, _ app.Value, err error) {
		v.loadingMore = false
		if err != nil {
			v.IonFail(v.ctx, err)
			return
		}
		if v.Isum != nil && doc == v.Isum.Document && page.Offset == len(v.problems) {
			v.problems = append(v.problems, page.Problems...)
			v.announce(moreProblemsShown(len(page.Problems)))
		}
	})
}

// gridColumnOf returns the review table's column that holds a problem:
// by the file's column letter, else by its field or the nearest field that
// contains it; 0 when none does.
func gridColumnOf(cols []wire.GridColumn, p wire.Problem) int {
	if p.Column != "" {
		for i, c := range cols {
			if c.Letter == p.Column {
				return i
			}
		}
	}
	for f := p.Field; f != ""; {
		for i, c := range cols {
			if c.Field == f {
				return i
			}
		}
		k := strings.LastIndexAny(f, ".[")
		if k < 0 {
			break
		}
		f = f[:k]
	}
	return 0
}

// problemsHeading heads the list of problems, shown of total: a count of
// one takes the singular ("1 affiché"), which a count alone cannot say.
func problemsHeading(shown, total int) string {
	if shown == 1 {
		return tf("Problems (1 shown of %s)", count(total))
	}
	return tf("Problems (%s shown of %s)", count(shown), count(total))
}

// moreProblemsShown says how many more problems the list shows.
func moreProblemsShown(n int) string {
	if n == 1 {
		return t("1 more problem shown.")
	}
	return tf("%s more problems shown.", count(n))
}

// rowsShown says which rows the table shows now, with errors only or all.
func rowsShown(s *wire.Summary, errorsOnly bool) string {
	switch {
	case errorsOnly && s.Invalid == 1:
		return t("Showing the one row with errors.")
	case errorsOnly:
		return tf("Showing the %s with errors.", plural(s.Invalid, "row", "rows"))
	case s.Elements == 1:
		return t("Showing the one row.")
	}
	return tf("Showing all %s.", plural(s.Elements, "row", "rows"))
}
