package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The third step: the summary and control totals, the review table with
// its filter, problem navigation and find-and-replace, the problem list,
// the exports, and the way on to submission.

func (p *importPage) renderReview() app.UI {
	s := p.sum
	return app.Section().ID("result").Class("result").DataSet("state", "done").Aria("labelledby", "result-title").Body(
		app.H2().ID("result-title").TabIndex(-1).Text(s.FileName),
		p.renderReadAs(),
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
		app.If(len(s.Totals) > 0, p.renderTotals),
		p.renderControl(),
		app.If(len(s.Totals) > 0, p.renderLimits),
		app.H3().ID("table-title").Text(t("Elements")),
		p.renderToolbar(),
		newReviewGrid().
			Document(s.Document, s.Version).
			FirstRows(s.FirstRows).
			Columns(s.Columns).
			ErrorsOnly(p.errorsOnly).
			Focus(p.focus).
			MemoryNote(s.WorkerMemory).
			OnEdited(p.edited).
			OnEditSet(p.editSetValue).
			OnUndo(p.undo).
			OnSaving(p.saving).
			OnAnnounce(func(ctx app.Context, text string) { p.later(func() { p.announcement = text }) }).
			OnNoErrorLeft(p.jump),
		p.renderProblems(),
		p.renderExports(),
	)
}

func (p *importPage) renderReadAs() app.UI {
	s := p.sum
	var parts []app.UI
	// The statements below say how the file was read; the one-line
	// summary is for documents that have none.
	if s.ReadAs != "" && len(s.Reading) == 0 {
		parts = append(parts, app.Span().ID("read-as").Text(tf("Read with %s. ", s.ReadAs)))
	}
	if p.prep != nil && p.prep.KindSuggested {
		parts = append(parts, app.Strong().Text(t("The kind was suggested by the file: check it above. ")))
	}
	if p.prep != nil && !p.prep.Request {
		parts = append(parts, app.Button().ID("change-reading").Type("button").Class("link-button").
			Text(t("Change how the file is read")).
			OnClick(func(ctx app.Context, e app.Event) { p.goTo(ctx, stepRead) }))
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

func (p *importPage) renderTotals() app.UI {
	s := p.sum
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

func (p *importPage) renderToolbar() app.UI {
	s := p.sum
	box := app.Input().Type("checkbox").ID("errors-only").OnChange(func(ctx app.Context, e app.Event) {
		p.errorsOnly = ctx.JSSrc().Get("checked").Bool()
		p.announcement = rowsShown(s, p.errorsOnly)
	})
	// Always set: "Next problem" clears the filter to go on to the
	// warnings, and an absent attribute would leave the box ticked.
	box = box.Checked(p.errorsOnly)
	cols := s.Columns
	r := p.replace
	fixes := currencyFixes(cols, p.problems)
	return app.Div().Class("toolbar").Body(
		app.Div().ID("fixes").Class("fixes").Body(app.Range(fixes).Slice(func(i int) app.UI {
			f := fixes[i]
			return app.Button().ID(fmt.Sprintf("fix-currency-%d", f.column)).Type("button").Class("button", "button-fix").
				Text(f.label).DataSet("column", f.column).
				OnClick(p.upperCase)
		})),
		app.Div().Class("check").Body(box, app.Label().For("errors-only").Text(tf("Only rows with errors (%s)", count(s.Invalid)))),
		app.Button().ID("prev-error").Type("button").Class("button", "button-quiet").
			Aria("keyshortcuts", "Shift+F8").Title(t("Shift+F8 in the table")).Text(t("Previous problem")).
			OnClick(func(ctx app.Context, e app.Event) { p.jump(ctx, true) }),
		app.Button().ID("next-error").Type("button").Class("button", "button-quiet").
			Aria("keyshortcuts", "F8").Title(t("F8 in the table")).Text(t("Next problem")).
			OnClick(func(ctx app.Context, e app.Event) { p.jump(ctx, false) }),
		p.renderUndo(),
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
			whole := app.Input().Type("checkbox").ID("replace-whole").OnChange(func(ctx app.Context, e app.Event) { p.replace.wholeCell = ctx.JSSrc().Get("checked").Bool() })
			if r.wholeCell {
				whole = whole.Checked(true)
			}
			matchCase := app.Input().Type("checkbox").ID("replace-case").OnChange(func(ctx app.Context, e app.Event) { p.replace.matchCase = ctx.JSSrc().Get("checked").Bool() })
			if r.matchCase {
				matchCase = matchCase.Checked(true)
			}
			return app.Details().Class("replace").Body(
				app.Summary().Text(t("Find and replace in a column")),
				app.Div().Class("replace-row").Body(
					selectField("replace-column", t("Column"), fmt.Sprint(r.column), opts, func(ctx app.Context, e app.Event) {
						fmt.Sscan(ctx.JSSrc().Get("value").String(), &p.replace.column)
					}),
					app.Div().Class("field").Body(
						app.Label().For("replace-find").Text(t("Find")),
						app.Input().ID("replace-find").Class("input").Value(r.find).OnInput(func(ctx app.Context, e app.Event) {
							p.replace.find = ctx.JSSrc().Get("value").String()
							ctx.PreventUpdate()
						}),
					),
					app.Div().Class("field").Body(
						app.Label().For("replace-with").Text(t("Replace with")),
						app.Input().ID("replace-with").Class("input").Value(r.with).OnInput(func(ctx app.Context, e app.Event) {
							p.replace.with = ctx.JSSrc().Get("value").String()
							ctx.PreventUpdate()
						}),
					),
				),
				app.Div().Class("replace-row").Body(
					app.Div().Class("check").Body(matchCase, app.Label().For("replace-case").Text(t("Match case"))),
					app.Div().Class("check").Body(whole, app.Label().For("replace-whole").Text(t("Whole cell only"))),
					app.Button().ID("replace-all").Type("button").Class("button").Text(t("Replace all")).OnClick(p.replaceAll),
				),
				app.If(p.replace.note != "", func() app.UI {
					return app.P().ID("replace-result").Class("note").Text(p.replace.note)
				}),
			)
		}),
	)
}

// jump goes to the next or previous problem after the one in focus.
func (p *importPage) jump(ctx app.Context, back bool) {
	after, col := -1, (*int)(nil)
	if p.focus.Seq > 0 {
		c := p.foundColumn
		after, col = p.focus.Element, &c
	}
	show := func(f wire.FoundProblem) {
		p.announcement = tf("%s: %s", problemPlace(f.Problem), f.Problem.Message)
		p.focusOn(f.Element, max(f.Column, 0))
		p.foundColumn = f.Column
	}
	nextProblem(p.ctx, p.sum.Document, after, col, back, p.errorsOnly, func(f wire.FoundProblem) {
		switch {
		case f.Found:
			show(f)
		case p.errorsOnly && p.sum.Warnings > 0:
			// No error is left, but warnings are, in the rows the filter
			// hides: every row is shown again, from the first warning.
			p.errorsOnly = false
			nextProblem(p.ctx, p.sum.Document, -1, nil, back, false, func(f wire.FoundProblem) {
				if f.Found {
					show(f)
					p.announcement = tf("No error is left; every row is shown again. %s", p.announcement)
				}
			})
		default:
			p.announcement = t("No problem left.")
		}
	})
}

func (p *importPage) focusOn(element, column int) {
	p.focus = gridFocus{Element: element, Column: column, Seq: p.focus.Seq + 1}
	p.foundColumn = column
}

func (p *importPage) replaceAll(ctx app.Context, e app.Event) {
	r := p.replace
	if r.find == "" && !r.wholeCell {
		p.announcement = t("Type what to find.")
		p.replace.note = p.announcement
		return
	}
	if p.sum == nil {
		return
	}
	col := p.sum.Columns[min(r.column, len(p.sum.Columns)-1)]
	req := wire.Replace{Document: p.sum.Document, Column: r.column, Find: r.find, With: r.with, MatchCase: r.matchCase, WholeCell: r.wholeCell}
	p.runReplace(req, t("Replacing…"), func(res wire.Replaced) string {
		return tf("Replaced %s in %s. %s left.", plural(res.Cells, "cell", "cells"), col.Field, plural(res.Summary.Errors, "error", "errors"))
	})
}

// upperCase writes a column of currency codes in capitals: an ordinary
// edit of its cells, which validates their rows again.
// The column is read from the button (see columnSelected).
func (p *importPage) upperCase(ctx app.Context, e app.Event) {
	col, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("column").String())
	if p.sum == nil || err != nil {
		return
	}
	req := wire.Replace{Document: p.sum.Document, Column: col, UpperCase: true}
	p.runReplace(req, t("Writing the currencies in capitals…"), func(res wire.Replaced) string {
		return tf("Wrote %s in capitals. %s left.", plural(res.Cells, "currency", "currencies"), plural(res.Summary.Errors, "error", "errors"))
	})
}

// runReplace runs a replacement in a column, announcing working while it
// runs and what done says once the review is updated.
func (p *importPage) runReplace(req wire.Replace, working string, done func(wire.Replaced) string) {
	if background() == nil {
		return
	}
	p.announcement, p.replace.note = working, working
	runJob(p.ctx, wire.JobReplace, req, nil, func(res wire.Replaced, _ app.Value, err error) {
		if err != nil {
			p.replace.note = ""
			p.jobFailed(err)
			return
		}
		p.updateSummary(&res.Summary)
		p.announcement = done(res)
		p.replace.note = p.announcement
	})
}

// edited takes the summary an edit brought.
func (p *importPage) edited(ctx app.Context, ed wire.Edited) {
	p.later(func() { p.updateSummary(&ed.Summary) })
}

// updateSummary shows a new summary of the same document, keeping the
// problems loaded so far in step.
func (p *importPage) updateSummary(s *wire.Summary) {
	if p.sum == nil || s.Document != p.sum.Document {
		return
	}
	p.sum = s
	p.problems = s.Problems
	p.noteDraft(s.Draft)
}

func (p *importPage) renderProblems() app.UI {
	s := p.sum
	total := s.Errors + s.Warnings
	note, clear := validity(s)
	if len(p.problems) == 0 && clear {
		return app.P().ID("validity").Class("all-clear").Text(tf("Every element is valid. %s can be submitted as it is.", s.FileName))
	}
	// Without errors, what is left to check says so above the list.
	validityNote := app.If(s.Errors == 0 && s.Elements > 0, func() app.UI {
		return app.P().ID("validity").Class("warning-box").Text(note)
	})
	if len(p.problems) == 0 {
		return validityNote
	}
	return app.Div().Class("problem-list").Body(
		validityNote,
		app.H3().Text(problemsHeading(len(p.problems), total)),
		problemList(p.problems, p.showProblem),
		app.If(len(p.problems) < total, func() app.UI {
			more := app.Button().ID("more-problems").Type("button").Class("button").
				Text(tf("Show %s more", count(min(problemsPageSize, total-len(p.problems))))).
				OnClick(p.loadMoreProblems)
			if p.loadingMore {
				more = more.Disabled(true)
			}
			return more
		}),
	)
}

// showProblem shows the cell of the problem at index i of the list.
func (p *importPage) showProblem(ctx app.Context, i int) {
	if p.sum == nil || i < 0 || i >= len(p.problems) {
		return
	}
	pr := p.problems[i]
	p.focusOn(pr.Element, gridColumnOf(p.sum.Columns, pr))
}

func (p *importPage) loadMoreProblems(ctx app.Context, e app.Event) {
	if background() == nil || p.loadingMore {
		return
	}
	p.loadingMore = true
	doc := p.sum.Document
	req := wire.ProblemsPage{Document: doc, Offset: len(p.problems), Limit: problemsPageSize}
	runJob(p.ctx, wire.JobProblems, req, nil, func(page wire.Problems, _ app.Value, err error) {
		p.loadingMore = false
		if err != nil {
			p.jobFailed(err)
			return
		}
		if p.sum != nil && doc == p.sum.Document && page.Offset == len(p.problems) {
			p.problems = append(p.problems, page.Problems...)
			p.announcement = moreProblemsShown(len(page.Problems))
		}
	})
}

func (p *importPage) renderExports() app.UI {
	table := p.prep != nil && !p.prep.Request
	button := func(id, label, what string) app.UI {
		return app.Button().ID(id).Type("button").Class("button", "button-quiet").Text(label).
			OnClick(func(ctx app.Context, e app.Event) { p.export(ctx, what) })
	}
	s := p.sum
	return app.Div().Class("exports").Body(
		app.H3().Text(t("Export")),
		app.Div().Class("actions").Body(
			button("export-request", t("What is sent (JSON)"), wire.ExportRequest),
			// Both hold every row, with the problems of each in a column
			// of their own: fixed, they load again as they are.
			button("export-errors", t("Every row with its errors (.xlsx)"), wire.ExportErrorWorkbook),
			button("export-errors-csv", t("Every row with its errors (CSV)"), wire.ExportErrorCSV),
			button("export-manifest", t("Summary manifest (CSV)"), wire.ExportManifest),
			app.If(table, func() app.UI { return button("export-mapping", t("Mapping file"), wire.ExportMapping) }),
		),
		techDetails("export-details", t("“What is sent” is the API's request body, exactly as the submission sends it.")),
		app.H3().Text(t("Submit")),
		app.P().Class("hint").Text(submitHint(s)),
		app.Button().ID("submit-file").Type("button").Class("button", "button-primary").Text(t("Submit…")).OnClick(p.submit),
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
func (p *importPage) submit(ctx app.Context, e app.Event) {
	s := p.sum
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
