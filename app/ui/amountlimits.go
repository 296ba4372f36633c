package ui

import (
	"regexp"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderLimits is where the operator sets the highest amount expected per
// currency: amounts above it are warnings at their cells, in this file and
// the next ones loaded. The amounts are typed as the operator writes
// numbers; text that cannot be read is said at the input, as a format
// problem, with how to type it.
func (v *importReview) renderLimits() app.UI {
	sep := typedSeparators()
	example := "EUR:" + money.FormatWith(1000000, 2, sep) + " USD:" + money.FormatWith(250050, 2, sep)
	input := app.Input().ID("amount-limits").Class("input").Type("text").Placeholder("EUR:"+money.FormatWith(1000000, 2, sep)).Value(v.limits).
		Aria("describedby", "limits-hint limits-problem").
		OnInput(func(ctx app.Context, e app.Event) { v.limits = ctx.JSSrc().Get("value").String() })
	if v.limitsProblem != "" {
		input = input.Aria("invalid", "true")
	}
	problem := app.P().ID("limits-problem").Class("control-result").Role("status")
	if v.limitsProblem != "" {
		problem = problem.Class("control-format").Body(app.Strong().Text(t("Format: ")), app.Text(v.limitsProblem))
	}
	return app.Form().Class("control").OnSubmit(v.applyLimits).Body(
		app.FieldSet().Body(
			app.Legend().Text(t("Amount limits")),
			app.P().Class("hint").ID("limits-hint").Text(tf("Warn about amounts above a limit, per currency, in major units, as you write numbers: %s. They apply to the files loaded next too. Leave empty for none.", example)),
			app.Div().Class("control-row").Body(
				app.Div().Class("field").Body(
					app.Label().For("amount-limits").Text(t("Limits")),
					input,
				),
				app.Button().ID("apply-limits").Type("submit").Class("button").Text(t("Apply")),
			),
			problem,
		),
	)
}

// applyLimits reads the limits typed and sends them to the worker, which
// checks the document again; limits it cannot read stay in the input
// with the format problem said, and nothing is sent.
func (v *importReview) applyLimits(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if background() == nil || v.Isum == nil {
		return
	}
	limits := splitLimits(v.limits)
	v.limitsProblem = ""
	for _, l := range limits {
		if _, minor, err := money.ParseCurrencyAmount(l, typedSeparators()); err != nil {
			v.limitsProblem = typedProblem(err, "")
		} else if minor <= 0 {
			v.limitsProblem = tf("%q: a limit must be more than zero.", l)
		}
		if v.limitsProblem != "" {
			v.announce(v.limitsProblem)
			return
		}
	}
	req := wire.AmountLimits{Document: v.Isum.Document, Limits: limits, Lang: string(consoleLang)}
	runJob(v.ctx, wire.JobAmountLimits, req, nil, func(res wire.AmountLimitsSet, _ app.Value, err error) {
		if err != nil {
			v.IonFail(v.ctx, err)
			return
		}
		v.limits = strings.Join(res.Limits, " ")
		v.IonLimits(v.ctx, res.Limits)
		warnings := v.Isum.Warnings
		if res.Summary != nil {
			v.IonSummary(v.ctx, res.Summary)
			warnings = res.Summary.Warnings
		}
		if len(res.Limits) == 0 {
			v.announce(t("No amount limits."))
		} else {
			v.announce(tf("Amount limits %s applied: %s.", strings.Join(res.Limits, ", "), plural(warnings, "warning", "warnings")))
		}
	})
}

// limitStart finds where each limit begins: at its currency's code and
// colon ("EUR:").
var limitStart = regexp.MustCompile(`[A-Za-z]{3}\s*:`)

// splitLimits splits the amount limits an operator typed. Each begins
// with its currency's code and a colon, so that the spaces and commas of
// the amounts stay theirs ("EUR:10 000,00 USD:2 500,50"); semicolons and
// line breaks separate limits too, and a comma or space left between two
// is dropped ("EUR:10000, USD:2500").
func splitLimits(text string) []string {
	var limits []string
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' }) {
		starts := limitStart.FindAllStringIndex(part, -1)
		cut := []int{0}
		for _, s := range starts {
			if s[0] > 0 {
				cut = append(cut, s[0])
			}
		}
		cut = append(cut, len(part))
		for i := 0; i+1 < len(cut); i++ {
			if l := strings.Trim(strings.Map(spaceToPlain, part[cut[i]:cut[i+1]]), ", \t"); l != "" {
				limits = append(limits, l)
			}
		}
	}
	return limits
}

// spaceToPlain keeps the spaces that group digits, as the browser gives
// them, but makes tabs plain spaces.
func spaceToPlain(r rune) rune {
	if r == '\t' {
		return ' '
	}
	return r
}
