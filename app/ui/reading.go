package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Nothing about money is guessed: when a file's cells disagree on how to
// read them, the step that shows how the file is read says so, decision
// by decision, with the cells on each side and the choices that settle
// it; the review and the confirmation before a submission state the
// reading in words, marked where it is not the default one.

// readingQuestions ask, for each decision an operator may have to take,
// what the file does not say.
var readingQuestions = map[string]string{
	"units":     lang.Mark("How are the amounts written?"),
	"decimal":   lang.Mark("Which mark separates the decimals of the amounts?"),
	"group":     lang.Mark("Which mark groups the digits of the amounts?"),
	"dateOrder": lang.Mark("Which comes first in dates such as 03/04/2025?"),
	"timeZone":  lang.Mark("Which time zone are the file's dates and times in?"),
	"encoding":  lang.Mark("Which encoding is the text in?"),
	"delimiter": lang.Mark("Which character separates the values?"),
	"headerRow": lang.Mark("Which row holds the headers?"),
	"sheet":     lang.Mark("Which sheet holds the rows?"),
}

// suggestsWords says what a cell's reading means, for people.
func suggestsWords(name, v string) string { return reading.Suggestion(name, v, consoleLang) }

// markName names a separator mark.
func markName(m string) string { return reading.MarkName(m, consoleLang) }

// partner is the other usual mark of a decimal or group separator.
func partner(m string) string {
	switch m {
	case ".":
		return ","
	case ",":
		return "."
	}
	return ""
}

// A readingChoice settles one undecided decision: the decision's name
// and the value chosen.
type readingChoice struct {
	id, label   string
	name, value string
}

// undecided lists the undecided decisions of the reading worth a
// question of their own: a group separator undecided with the decimal
// one is settled with it.
func undecided(r reading.Reading) []string {
	names := r.Undecided()
	if slices.Contains(names, "decimal") {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "group" })
	}
	return names
}

// readingChoices are the readings an operator can take for an undecided
// decision: one for each side of its evidence, the default first.
func readingChoices(name string, d reading.Decision) []readingChoice {
	values := []string{}
	add := func(v string) {
		if v != "" && !slices.Contains(values, v) {
			values = append(values, v)
		}
	}
	if name != "decimal" && name != "group" {
		add(d.Value)
	}
	for _, c := range d.Evidence {
		v := c.Suggests
		switch {
		case strings.HasPrefix(v, "decimal "):
			v = strings.TrimPrefix(v, "decimal ")
		case strings.HasPrefix(v, "groups "):
			v = partner(strings.TrimPrefix(v, "groups "))
		case name == "group":
			v = partner(v)
		}
		add(v)
	}
	var out []readingChoice
	for _, v := range values {
		c := readingChoice{id: "choose-" + name + "-" + choiceID(v), name: name, value: v}
		switch name {
		case "units":
			c.label = tf("Read them in %s", suggestsWords("units", v))
		case "decimal", "group":
			c.label = tf("Decimal %s, digits grouped by %s", markName(v), markName(partner(v)))
		case "dateOrder":
			c.label = tf("Read them %s", suggestsWords("dateOrder", v))
		case "encoding":
			c.label = tf("Read it as %s", strings.ToUpper(v))
		case "delimiter":
			c.label = tf("Separate the values by %s", t(reading.Delimiters(v)))
		default:
			continue // chosen with the controls below
		}
		out = append(out, c)
	}
	return out
}

// choiceRequest is the request that takes value for the decision name,
// over the current settings.
func choiceRequest(current wire.Settings, name, value string) (wire.Prepare, bool) {
	next := current
	var chosen []string
	switch name {
	case "units":
		next.Amounts, chosen = value, []string{wire.SettingAmounts}
	case "decimal", "group":
		next.Decimal, next.Group, chosen = value, partner(value), []string{wire.SettingDecimal, wire.SettingGroup}
	case "dateOrder":
		next.DateOrder, chosen = value, []string{wire.SettingDates}
	case "encoding":
		return wire.Prepare{Encoding: value}, true
	case "delimiter":
		return wire.Prepare{Delimiter: value}, true
	default:
		return wire.Prepare{}, false
	}
	return wire.Prepare{Settings: &next, Chosen: chosen}, true
}

// readingChosen takes the choice of a button of renderQuestion. The
// choice is read from the button itself: go-app keeps an element's first
// handler, which would remember the settings of its first rendering.
func (r *importRead) readingChosen(ctx app.Context, e app.Event) {
	if r.Iprep == nil {
		return
	}
	data := ctx.JSSrc().Get("dataset")
	name, value := data.Get("name").String(), data.Get("value").String()
	req, ok := choiceRequest(r.Iprep.Settings, name, value)
	if !ok {
		return
	}
	// The question goes once answered: the focus moves to the control
	// that now shows the answer.
	focus := map[string]string{"units": "amounts-" + value, "decimal": "decimal", "group": "decimal", "dateOrder": "date-order", "encoding": "encoding", "delimiter": "delimiter"}[name]
	r.IonPrepare(ctx, req, t("Reading with your choice"), focus)
}

// choiceID makes a value fit an element's id.
func choiceID(v string) string {
	switch v {
	case ".":
		return "point"
	case ",":
		return "comma"
	case ";":
		return "semicolon"
	case "\t":
		return "tab"
	case "|":
		return "bar"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, v)
}

// renderReadingCheck asks about each decision the file left undecided,
// with the cells on each side. It stays in place, empty, when there is
// nothing to ask (see renderRead).
func (r *importRead) renderReadingCheck() app.UI {
	pr := r.Iprep
	names := undecided(pr.Reading)
	box := app.Div().ID("reading-check")
	if len(names) == 0 {
		// Decided, but not the default reading (amounts in major units):
		// said before the review too.
		if markedStatements(pr.Statements) == "" {
			return box
		}
		return box.Class("callout", "reading-check").Body(
			app.P().Text(t("Look twice before you go on: this file is not read the default way.")),
			renderStatements("read-reading", slices.DeleteFunc(slices.Clone(pr.Statements), func(s reading.Statement) bool { return !s.Marked })),
		)
	}
	oneSheet := len(pr.Sheets) <= 1
	return box.Class("callout", "reading-check").Role("group").Aria("labelledby", "reading-check-title").Body(
		app.H3().ID("reading-check-title").Text(t("The file does not say how to read it: choose")),
		app.If(len(names) == 1 && names[0] == "timeZone", func() app.UI {
			return app.P().Text(t("A date names a moment only in a time zone, and the file does not say which. Nothing is guessed: until you choose, its dates are errors at their place."))
		}).Else(func() app.UI {
			return app.P().Text(t("Its cells disagree. Nothing is guessed: until you choose, the default reading below is used, and the cells that read otherwise are errors at their place."))
		}),
		app.Range(names).Slice(func(i int) app.UI {
			name := names[i]
			d := *pr.Reading.Get(name)
			return r.renderQuestion(name, d, oneSheet)
		}),
	)
}

func (r *importRead) renderQuestion(name string, d reading.Decision, oneSheet bool) app.UI {
	now := ""
	for _, s := range r.Iprep.Statements {
		if s.Name == name {
			// The question itself says why the file does not tell.
			now = strings.TrimSuffix(s.Text, " "+s.Note)
		}
	}
	choices := readingChoices(name, d)
	id := "question-" + name
	zone := name == "timeZone"
	return app.Div().ID(id).Class("reading-question").Body(
		app.H4().Text(t(readingQuestions[name])),
		app.If(now != "", func() app.UI {
			return app.P().Class("reading-now").Body(app.Strong().Text(t("Until you choose: ")), app.Text(now))
		}),
		app.Div().Class("table-scroll").Body(
			app.Table().ID(id+"-cells").Class("examples", "evidence").Body(
				app.If(zone, func() app.UI { return app.Caption().Text(t("The dates that need a time zone")) }).
					Else(func() app.UI { return app.Caption().Text(t("The cells behind it, the fewer side first")) }),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text(t("Cell")),
					app.Th().Scope("col").Text(t("In the file")),
					app.If(!zone, func() app.UI { return app.Th().Scope("col").Text(t("Suggests")) }),
					app.Th().Scope("col").Text(t("Because")),
				)),
				app.TBody().Body(app.Range(d.Evidence).Slice(func(i int) app.UI {
					c := d.Evidence[i]
					if oneSheet {
						c.Sheet = ""
					}
					tr := app.Tr()
					if c.Suggests != d.Value {
						tr = tr.Class("example-disagrees")
					}
					return tr.Body(
						app.Th().Scope("row").Text(c.Place(consoleLang)),
						app.Td().Class("raw").Text(c.Raw),
						// A time zone has no sides: every date needs one.
						app.If(!zone, func() app.UI { return app.Td().Text(suggestsWords(name, c.Suggests)) }),
						app.Td().Class("why").Text(c.Why),
					)
				})),
			),
		),
		app.If(len(choices) > 0, func() app.UI {
			return app.Div().Class("actions", "reading-choices").Role("group").Aria("label", t(readingQuestions[name])).Body(
				app.Range(choices).Slice(func(i int) app.UI {
					c := choices[i]
					return app.Button().ID(c.id).Type("button").Class("button", "button-quiet").Text(c.label).
						DataSet("name", c.name).DataSet("value", c.value).
						OnClick(r.readingChosen)
				}),
			)
		}).ElseIf(name == "timeZone", func() app.UI {
			return r.renderTimeZone("question-time-zone")
		}).Else(func() app.UI {
			return app.P().Class("hint").Text(t("Choose it with the controls below."))
		}),
	)
}

// disagreeing returns the places ("G6") of the cells behind an undecided
// decision that read otherwise than the reading in use: the examples mark
// them.
func disagreeing(r reading.Reading) map[string]bool {
	out := make(map[string]bool)
	for _, name := range r.Undecided() {
		d := r.Get(name)
		for _, c := range d.Evidence {
			if c.Suggests != d.Value {
				out[fmt.Sprintf("%s%d", c.Column, c.Row)] = true
			}
		}
	}
	return out
}

// renderStatements states the reading in words, the statements to look
// at twice marked "Check:".
func renderStatements(id string, ss []reading.Statement) app.UI {
	list := app.Ul().ID(id).Class("reading")
	if len(ss) == 0 {
		return list
	}
	return list.Aria("label", t("How the file is read")).Body(app.Range(ss).Slice(func(i int) app.UI {
		s := ss[i]
		if s.Marked {
			return app.Li().Class("reading-marked").DataSet("name", s.Name).Body(app.Strong().Text(t("Check: ")), app.Text(s.Text))
		}
		return app.Li().DataSet("name", s.Name).Text(s.Text)
	}))
}

// markedStatements says the marked statements in one sentence, for the
// live region.
func markedStatements(ss []reading.Statement) string {
	var out []string
	for _, s := range ss {
		if s.Marked {
			out = append(out, tf("Check: %s", s.Text))
		}
	}
	return strings.Join(out, " ")
}

// A currencyFix upper-cases a column of currency codes written in lower
// case, which the API refuses.
type currencyFix struct {
	column int
	label  string
}

// currencyFixes offers a fix for each column of the review whose
// problems include a currency code written in lower case that is a
// currency in capitals.
func currencyFixes(cols []wire.GridColumn, problems []wire.Problem) []currencyFix {
	var out []currencyFix
	for _, pr := range problems {
		if pr.Code != "pattern" || !strings.HasSuffix(strings.ToLower(pr.Field), "currency") {
			continue
		}
		var v string
		if json.Unmarshal([]byte(pr.Value), &v) != nil || strings.ToUpper(v) == v {
			continue
		}
		if _, ok := money.Digits(strings.ToUpper(v)); !ok {
			continue
		}
		col := gridColumnOf(cols, pr)
		if col >= len(cols) || cols[col].Field != pr.Field || slices.ContainsFunc(out, func(f currencyFix) bool { return f.column == col }) {
			continue
		}
		name := cols[col].Field
		if cols[col].Letter != "" {
			name = tf("column %s (%s)", cols[col].Letter, cols[col].Header)
		}
		out = append(out, currencyFix{column: col, label: tf("Write every currency of %s in capitals (%s → %s)", name, v, strings.ToUpper(v))})
	}
	return out
}
