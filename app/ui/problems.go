package ui

import (
	"regexp"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// problemList shows problems in element order, each with its place (the
// element and field, or the sheet, row and column it came from), its
// severity in words as well as colour, and its message. The place of a
// problem in an element is a button; show receives the index of the one
// clicked. The list listens for clicks once, for all its buttons, and
// show must read the problems it was given afresh: go-app keeps an
// element's first handler when a newer one comes from the same code.
func problemList(problems []wire.Problem, show func(ctx app.Context, i int)) app.UI {
	return app.Ol().ID("problems").Class("problems").OnClick(func(ctx app.Context, e app.Event) {
		b := e.Get("target").Call("closest", "button[data-problem]")
		if !b.Truthy() || show == nil {
			return
		}
		if i, err := strconv.Atoi(b.Get("dataset").Get("problem").String()); err == nil {
			show(ctx, i)
		}
	}).Body(
		app.Range(problems).Slice(func(i int) app.UI {
			p := problems[i]
			var where app.UI = app.Span().Class("problem-where").Text(problemPlace(p))
			if p.Element >= 0 && show != nil {
				where = app.Button().Type("button").Class("problem-where", "link-button").
					DataSet("problem", i).
					Title(t("Show this cell in the table")).
					Text(problemPlace(p))
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
func problemPlace(p wire.Problem) string {
	var where string
	switch {
	case p.Element == wire.RequestLevel && p.Row == 0:
		return t("Whole file")
	case p.Row > 0 && p.Sheet != "":
		where = tf("Sheet %s, row %d", p.Sheet, p.Row)
	case p.Row > 0:
		where = tf("Row %d", p.Row)
	default:
		// 0-based, as in the API's answers and "bulkdesk check".
		where = tf("Element %s", count(p.Element))
	}
	if p.Column != "" {
		where += tf(", column %s", p.Column)
	}
	if p.Field != "" {
		where += " · " + fieldLabel(p.Field)
	}
	return where
}

// fieldTitles are the titles of the open file's fields by path, "[]"
// standing for any item of a list; set when the file's fields arrive.
var fieldTitles map[string]string

// setFieldTitles keeps the titles of a file's fields.
func setFieldTitles(targets []wire.Target) {
	fieldTitles = make(map[string]string, len(targets))
	for _, tg := range targets {
		if tg.Title != "" {
			fieldTitles[tg.Path] = tg.Title
		}
	}
}

var itemIndex = regexp.MustCompile(`\[[0-9]+\]`)

// fieldLabel names a field by its title in the console's language, with
// its path, which the file, the API and support all use:
// "Betrag (destinationAmount.amount)". A field without a title is its path.
func fieldLabel(path string) string {
	title := fieldTitles[itemIndex.ReplaceAllString(path, "[]")]
	if title == "" {
		return path
	}
	return t(title) + " (" + path + ")"
}

func severityWord(s string) string {
	if s == wire.SeverityWarning {
		return t("Warning")
	}
	return t("Error")
}
