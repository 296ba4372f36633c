package ui

import (
	"errors"
	"math/big"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// controlTotals are the count and the totals an operator expects, typed
// from the instruction that came with the file, and how what was loaded
// compares: the check a finance team makes before it pays anything.
// They are typed as the operator writes numbers (money.ParseTyped): a
// German operator types 26.424,81, a French one 16 620,13.
type controlTotals struct {
	count string
	// totals are the expected totals as typed, by currency code: one for
	// each currency the file holds.
	totals map[string]string
}

// A controlResult is the outcome of one comparison.
type controlResult struct {
	// checked says there was something to compare.
	checked bool
	ok      bool
	// format says the text typed was not read: it is not written as an
	// amount (or a count), which is no difference from what was loaded.
	format  bool
	message string
}

// typedSeparators are how the operator writes numbers.
func typedSeparators() money.Separators { return consoleLang.Separators() }

// checkCount compares the expected element count with the loaded one.
func (c controlTotals) checkCount(s wire.Summary) controlResult {
	text := strings.TrimSpace(c.count)
	if text == "" {
		return controlResult{}
	}
	n, err := money.ParseTyped(text, 0, typedSeparators())
	if err != nil || n < 0 || n > 1<<31 {
		return controlResult{checked: true, format: true, message: tf("%q is not a count of elements: type a whole number such as %s.", text, count(1200))}
	}
	switch want := int(n); {
	case want == s.Elements && want == 1:
		return controlResult{checked: true, ok: true, message: t("1 element, as expected.")}
	case want == s.Elements:
		return controlResult{checked: true, ok: true, message: tf("%s elements, as expected.", count(want))}
	case want > s.Elements && s.Elements == 1:
		return controlResult{checked: true, message: tf("1 element loaded, %s fewer than the %s expected.", count(want-s.Elements), count(want))}
	case want > s.Elements:
		return controlResult{checked: true, message: tf("%s elements loaded, %s fewer than the %s expected.", count(s.Elements), count(want-s.Elements), count(want))}
	case s.Elements == 1:
		return controlResult{checked: true, message: tf("1 element loaded, %s more than the %s expected.", count(s.Elements-want), count(want))}
	default:
		return controlResult{checked: true, message: tf("%s elements loaded, %s more than the %s expected.", count(s.Elements), count(s.Elements-want), count(want))}
	}
}

// checkTotal compares the expected total of a currency, typed in major
// units, with the sum loaded. Nothing is rounded: a total with more
// decimals than the currency has is refused, as is one that reads two
// ways, each with how to type it.
func (c controlTotals) checkTotal(s wire.Summary, currency string) controlResult {
	text := strings.TrimSpace(c.totals[currency])
	if text == "" {
		return controlResult{}
	}
	digits, ok := money.Digits(currency)
	if !ok {
		digits = 2
	}
	want, err := money.ParseTyped(text, digits, typedSeparators())
	if err != nil {
		return controlResult{checked: true, format: true, message: typedProblem(err, currency)}
	}
	got := new(big.Int)
	for _, tot := range s.Totals {
		if tot.Currency == currency && !tot.Invalid {
			got.SetString(tot.Minor, 10)
		}
	}
	wantBig := big.NewInt(want)
	expected := local(money.FormatBig(wantBig, currency))
	switch diff := new(big.Int).Sub(got, wantBig); diff.Sign() {
	case 0:
		return controlResult{checked: true, ok: true, message: tf("%s, as expected.", expected)}
	case 1:
		return controlResult{checked: true, message: tf("%s loaded, %s more than the %s expected.", local(money.FormatBig(got, currency)), local(money.FormatBig(diff, currency)), expected)}
	default:
		return controlResult{checked: true, message: tf("%s loaded, %s less than the %s expected.", local(money.FormatBig(got, currency)), local(money.FormatBig(diff.Neg(diff), currency)), expected)}
	}
}

// typedProblem says, in the console's language, why a typed amount was
// not read and how to type it; currency is the one it is typed for, ""
// when the text names its own.
func typedProblem(err error, currency string) string {
	var e *money.TypedError
	if !errors.As(err, &e) {
		return errorText(err)
	}
	hints := strings.Join(e.Hints(), " "+t("or")+" ")
	switch e.Problem {
	case money.ReadsTwoWays:
		return tf("%q reads two ways: type %s.", e.Text, hints)
	case money.TooManyDecimals:
		if currency != "" {
			return tf("%q has more decimals than %s has: type %s.", e.Text, currency, hints)
		}
		return tf("%q has more decimals than its currency has: type %s.", e.Text, hints)
	case money.NoCurrency:
		return tf("%q names no currency: type it as %s.", e.Text, hints)
	}
	return tf("%q is not an amount: type it as %s.", e.Text, hints)
}

// controlCurrencies are the currencies the operator can type a total
// for: those the file holds, apart from the invalid currencies' total.
func controlCurrencies(s wire.Summary) []string {
	var out []string
	for _, tot := range s.Totals {
		if !tot.Invalid {
			out = append(out, tot.Currency)
		}
	}
	return out
}

// renderControl is where the operator types the expected count and the
// expected total of each currency, and sees each compared with what was
// loaded: a difference, or text it could not read, said apart.
func (v *importReview) renderControl() app.UI {
	s := *v.Isum
	update := func(set func(text string)) app.EventHandler {
		return func(ctx app.Context, e app.Event) { set(ctx.JSSrc().Get("value").String()) }
	}
	currencies := controlCurrencies(s)
	example := money.Example(2, typedSeparators())
	return app.FieldSet().Class("control").Body(
		app.Legend().Text(t("Control totals")),
		app.P().Class("hint").Text(tf("Type what the instruction you received says, as you write numbers (%s); Bulkdesk compares it with what was loaded.", example)),
		app.Div().Class("control-row").Body(
			app.Div().Class("field", "field-narrow").Body(
				app.Label().For("expected-count").Text(t("Expected elements")),
				app.Input().ID("expected-count").Class("input").Type("text").Attr("inputmode", "numeric").Value(v.control.count).
					Aria("describedby", "count-check").
					OnInput(update(func(text string) { v.control.count = text })),
			),
			controlOutcome("count-check", v.control.checkCount(s)),
		),
		app.Range(currencies).Slice(func(i int) app.UI {
			cur := currencies[i]
			digits, ok := money.Digits(cur)
			if !ok {
				digits = 2
			}
			return app.Div().Class("control-row").Body(
				app.Div().Class("field", "field-narrow").Body(
					app.Label().For("expected-total-"+cur).Text(tf("Expected total in %s", cur)),
					app.Input().ID("expected-total-"+cur).Class("input").Type("text").Attr("inputmode", "decimal").
						Placeholder(money.Example(digits, typedSeparators())).Value(v.control.totals[cur]).
						Aria("describedby", "total-check-"+cur).DataSet("currency", cur).
						OnInput(v.totalTyped),
				),
				controlOutcome("total-check-"+cur, v.control.checkTotal(s, cur)),
			)
		}),
	)
}

// totalTyped keeps an expected total as typed. The currency is read from
// the input itself: go-app keeps an element's first handler, which would
// remember the currency of its first rendering.
func (v *importReview) totalTyped(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	if v.control.totals == nil {
		v.control.totals = make(map[string]string)
	}
	v.control.totals[src.Get("dataset").Get("currency").String()] = src.Get("value").String()
}

// controlOutcome shows one comparison: it matches, it differs, or what
// was typed is not written as an amount, each said and styled apart.
func controlOutcome(id string, r controlResult) app.UI {
	out := app.P().ID(id).Class("control-result").Role("status")
	switch {
	case !r.checked:
		return out
	case r.format:
		return out.Class("control-format").Body(app.Strong().Text(t("Format: ")), app.Text(r.message))
	case r.ok:
		return out.Class("control-ok").Text(tf("Matches: %s", r.message))
	}
	return out.Class("control-bad").Text(tf("Differs: %s", r.message))
}
