package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/apifailure"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// failureTitles head an API failure by what the operator can do.
var failureTitles = map[string]string{
	wire.ClassBadRequest:  "The API refused the request as invalid",
	wire.ClassCredentials: lang.Mark("The API did not accept the credentials"),
	wire.ClassForbidden:   "These credentials may not do this",
	wire.ClassNotFound:    "The API does not know it",
	wire.ClassConflict:    "The bulk's state does not allow this",
	wire.ClassRateLimited: lang.Mark("Too many requests: the API asks to wait"),
	wire.ClassServer:      "The API failed",
	wire.ClassNetwork:     "No answer from the API",
	wire.ClassOther:       "The request could not be made",
}

// failureView shows an API failure: what happened in an operator's words,
// the call, the status and code, the request-ref to quote to support, and
// every syntax error next to the element and file row it names.
func failureView(id string, f *wire.APIFailure) app.UI {
	title := t(failureTitles[f.Class])
	if title == "" {
		title = t("The API answered with an error")
	}
	var facts []string
	if f.Status != 0 {
		facts = append(facts, tf("HTTP %d", f.Status))
	}
	if f.Call != "" {
		facts = append(facts, f.Call)
	}
	if f.Code != "" {
		facts = append(facts, tf("code %s", f.Code))
	}
	if f.Chunk >= 0 && f.Ref != "" {
		facts = append(facts, tf("part %d, idempotency-ref %s", f.Chunk+1, f.Ref))
	}
	return app.Div().ID(id).Class("failure").Role("alert").DataSet("class", f.Class).Body(
		app.P().Class("failure-title").Text(title),
		app.P().Class("failure-summary").Text(failureSummary(f)),
		// The call, its status and refs are for support and the
		// technically minded: under "Details".
		app.If(len(facts) > 0, func() app.UI {
			return app.Details().ID(id+"-details").Class("tech-details").Body(
				app.Summary().Text(t("Details")),
				app.P().Class("failure-facts").Text(strings.Join(facts, " · ")),
			)
		}),
		app.If(f.RequestRef != "", func() app.UI {
			return app.P().Class("failure-ref").Body(
				app.Text(t("request-ref ")),
				app.Code().Class("request-ref").Text(f.RequestRef),
				app.Text(t(" — quote it to support.")),
			)
		}),
		app.If(f.Class == wire.ClassCredentials || f.Class == wire.ClassForbidden, func() app.UI {
			return app.P().Body(app.A().Href(href("/settings")).Text(t("Check the connection settings")))
		}),
		app.If(f.RetryAfter > 0, func() app.UI {
			return app.P().Text(retryAfterWords(f.RetryAfter))
		}),
		app.If(len(f.Fields) > 0, func() app.UI {
			return app.Ol().Class("problems", "field-failures").Body(
				app.Range(f.Fields).Slice(func(i int) app.UI {
					ff := f.Fields[i]
					return app.Li().Class("problem", "problem-error").Body(
						app.Span().Class("problem-severity").Text(t("Refused")),
						app.Span().Class("problem-where").Text(fieldPlace(ff)),
						app.Span().Class("problem-message").Text(ff.Text),
					)
				}),
			)
		}),
	)
}

// fieldPlace names where a refused field is in the operator's file.
func fieldPlace(ff wire.FieldFailure) string {
	var where string
	switch {
	case ff.Element == wire.RequestLevel:
		where = t("Whole request")
	case ff.Sheet != "":
		where = tf("Sheet %s, row %d (element %s)", ff.Sheet, ff.Row, count(ff.Element))
	default:
		where = tf("Element %s", count(ff.Element))
	}
	if ff.Field != "" {
		where += " · " + ff.Field
	}
	return where
}

// placeOf names an element's place in the operator's file: its sheet and
// row, or for a JSON body its index.
func placeOf(element int, sheet string, row int) string {
	switch {
	case element < 0:
		return "—"
	case sheet != "":
		return tf("%s row %d", sheet, row)
	}
	return tf("element %s", count(element))
}

// failureSummary says in one line, in the console's language, what the
// API answered, from the failure's facts; the API's own message is quoted
// as it came. A failure without an answer keeps the worker's sentence.
func failureSummary(f *wire.APIFailure) string {
	switch {
	case f.Class == wire.ClassNetwork && f.Detail != "":
		return tf("No answer from the API (%s). Whether it acted on the request is unknown; sending again with the same idempotency-ref is safe.", f.Detail)
	case f.Status == 0:
		return t(f.Summary)
	}
	what := t(apifailure.Words(f.Class))
	if what == "" {
		what = tf("the API answered %d", f.Status)
	}
	if f.Code != "" {
		what += " (" + f.Code + ")"
	}
	// Joined as the language punctuates: French sets a narrow no-break
	// space before the colon and the semicolon.
	if f.Message != "" {
		what = tf("%s: %s", what, f.Message)
	}
	if n := len(f.Fields); n > 0 {
		what = consoleLang.Clauses(what, plural(n, "invalid field", "invalid fields"))
	}
	return wire.Sentence(what)
}

// retryAfterWords says how long the API asks to wait: "1 second" in the
// singular.
func retryAfterWords(seconds int) string {
	return tf("The API asks to wait %s before the next request.", plural(seconds, "second", "seconds"))
}
