package ui

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// problemList shows problems in element order, each with its place (the
// element and field, or the sheet, row and column it came from), its
// severity in words as well as colour, and its message. The place of a
// problem in an element is a button that shows its cell.
func problemList(problems []worker.Problem, show func(ctx app.Context, p worker.Problem)) app.UI {
	return app.Ol().ID("problems").Class("problems").Body(
		app.Range(problems).Slice(func(i int) app.UI {
			p := problems[i]
			var where app.UI = app.Span().Class("problem-where").Text(problemPlace(p))
			if p.Element >= 0 && show != nil {
				where = app.Button().Type("button").Class("problem-where", "link-button").
					Title("Show this cell in the table").
					Text(problemPlace(p)).
					OnClick(func(ctx app.Context, e app.Event) { show(ctx, p) })
			}
			return app.Li().Class("problem", "problem-"+p.Severity).Body(
				app.Span().Class("problem-severity").Text(severityWord(p.Severity)),
				where,
				app.Span().Class("problem-message").Text(p.Message),
			)
		}),
	)
}

// problemPlace names where a problem is, as an operator looks for it.
func problemPlace(p worker.Problem) string {
	var where string
	switch {
	case p.Element == worker.RequestLevel:
		return "Whole file"
	case p.Row > 0 && p.Sheet != "":
		where = fmt.Sprintf("Sheet %s, row %d", p.Sheet, p.Row)
	case p.Row > 0:
		where = fmt.Sprintf("Row %d", p.Row)
	default:
		// 0-based, as in the API's answers and "bulkdesk check".
		where = fmt.Sprintf("Element %s", count(p.Element))
	}
	if p.Column != "" {
		where += ", column " + p.Column
	}
	if p.Field != "" {
		where += " · " + p.Field
	}
	return where
}

func severityWord(s string) string {
	if s == "warning" {
		return "Warning"
	}
	return "Error"
}
