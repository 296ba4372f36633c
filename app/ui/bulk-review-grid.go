package ui

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The checker's grid of a reviewed bulk's elements: every element with
// whom it pays, how much, its reference and source, whether it is valid,
// the bulks that hold it too and how it differs from the maker's receipt,
// searched and filtered in the page (see bulkElements), drawn by the
// review table (reviewGrid) from an elementView.

// readReviewElements reads the elements a review sent as its data.
func readReviewElements(data app.Value) (*wire.ReviewElements, error) {
	if data == nil || !data.Truthy() {
		return nil, saidError(t("the review sent no elements"))
	}
	bytes := app.Window().Get("Uint8Array").New(data)
	b := make([]byte, bytes.Get("length").Int())
	app.CopyBytesToGo(b, bytes)
	var els wire.ReviewElements
	if err := els.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return &els, nil
}

// takeElements holds the elements of the review just shown, every one in
// view.
func (r *bulkReview) takeElements(els *wire.ReviewElements) {
	r.elements = newBulkElements(els)
	r.filter, r.aboveText, r.aboveProblem = elementFilter{}, "", ""
	r.refilter()
}

// refilter makes the view the filter asks for; the grid starts again at
// its top.
func (r *bulkReview) refilter() {
	if r.elements == nil {
		return
	}
	r.view = newElementView(r.elements, r.filter)
	r.viewSeq++
}

// marked makes the view again after a check marked elements (repeats, a
// receipt's differences): its columns may change, the grid keeps its
// place.
func (r *bulkReview) marked() {
	if r.elements == nil {
		return
	}
	r.view = newElementView(r.elements, r.filter)
	r.marks++
}

// renderElements is the grid with its search and filters.
func (r *bulkReview) renderElements() app.UI {
	v := r.view
	if v == nil {
		return nil
	}
	shown := elementsShown(len(v.shown), r.elements.len())
	if !r.filter.active() {
		shown = tf("All %s shown", plural(r.elements.len(), "element", "elements"))
	}
	return app.Section().ID("review-every-element").Class("review-elements").Aria("labelledby", "review-elements-title").Body(
		app.H4().ID("review-elements-title").Text(t("Every element of the bulk")),
		app.Div().Class("filters").Body(
			app.Div().Class("field").Body(
				app.Label().For("review-search").Text(t("Search")),
				app.Input().ID("review-search").Type("search").Class("input").Value(r.filter.search).Attr("autocomplete", "off").Spellcheck(false).
					Aria("describedby", "review-search-hint").OnInput(r.searchTyped),
				app.Span().ID("review-search-hint").Class("hint").Text(t("An id, a name, an account or a reference.")),
			),
			app.Div().Class("field").Body(
				app.Label().For("review-show").Text(t("Show")),
				app.Select().ID("review-show").Class("select").OnChange(r.showChosen).Body(
					option(showEvery, t("Every element"), r.filter.show == showEvery),
					option(showInvalid, t("Invalid elements"), r.filter.show == showInvalid),
					option(showRepeated, t("Elements in other bulks too"), r.filter.show == showRepeated),
					option(showDiffers, t("Elements that differ from the receipt"), r.filter.show == showDiffers),
				),
			),
			app.Div().Class("field", "field-narrow").Body(
				app.Label().For("review-above").Text(t("Amounts above")),
				app.Input().ID("review-above").Type("text").Class("input").Attr("inputmode", "decimal").Value(r.aboveText).Attr("autocomplete", "off").
					Aria("describedby", "review-above-hint").Aria("invalid", r.aboveProblem != "").OnInput(r.aboveTyped),
				app.Span().ID("review-above-hint").Class("hint").Text(tf("As %s; empty for any.", money.Example(2, typedSeparators()))),
			),
			app.If(len(r.elements.currencies) > 1, func() app.UI {
				cs := r.elements.currencies
				return app.Div().Class("field", "field-narrow").Body(
					app.Label().For("review-currency").Text(t("Currency")),
					app.Select().ID("review-currency").Class("select").OnChange(r.currencyChosen).Body(
						option("", t("Every currency"), r.filter.currency == ""),
						app.Range(cs).Slice(func(i int) app.UI { return option(cs[i], cs[i], cs[i] == r.filter.currency) }),
					),
				)
			}),
		),
		app.If(r.aboveProblem != "", func() app.UI {
			return app.P().ID("review-above-problem").Class("warning-text").Role("alert").Text(r.aboveProblem)
		}),
		app.P().ID("review-shown").Class("hint").DataSet("shown", len(v.shown)).Text(shown),
		newReviewGrid().Source(v).Document(r.viewSeq, r.marks).Columns(v.columns()).
			OnAnnounce(r.IonAnnounce),
	)
}

func (r *bulkReview) searchTyped(ctx app.Context, e app.Event) {
	r.filter.search = ctx.JSSrc().Get("value").String()
	r.refilter()
}

func (r *bulkReview) showChosen(ctx app.Context, e app.Event) {
	r.filter.show = ctx.JSSrc().Get("value").String()
	r.refilter()
	r.announceShown()
}

func (r *bulkReview) currencyChosen(ctx app.Context, e app.Event) {
	r.filter.currency = ctx.JSSrc().Get("value").String()
	r.setAbove(r.aboveText)
	r.refilter()
	r.announceShown()
}

func (r *bulkReview) aboveTyped(ctx app.Context, e app.Event) {
	r.setAbove(ctx.JSSrc().Get("value").String())
	r.refilter()
}

// setAbove reads the amount typed to show the elements above, as the
// operator's language writes numbers, in the decimals of each currency
// shown: an amount that one of them cannot hold ("10.5" for JPY), or that
// reads two ways, is said rather than guessed, and nothing is filtered by
// it meanwhile.
func (r *bulkReview) setAbove(text string) {
	r.aboveText, r.aboveProblem, r.filter.above = text, "", nil
	text = strings.TrimSpace(text)
	if text == "" || r.elements == nil {
		return
	}
	limits := make(map[string]int64)
	for _, cur := range r.elements.currencies {
		if r.filter.currency != "" && cur != r.filter.currency {
			continue
		}
		digits, ok := money.Digits(cur)
		if !ok {
			continue // not an ISO 4217 code: its decimals are unknown
		}
		minor, err := money.ParseTyped(text, digits, typedSeparators())
		if err != nil {
			r.aboveProblem = typedProblem(err, cur)
			return
		}
		limits[cur] = minor
	}
	r.filter.above = limits
}

// announceShown says how many elements the filter shows.
func (r *bulkReview) announceShown() {
	if v := r.view; v != nil {
		r.announce(elementsShown(len(v.shown), r.elements.len()))
	}
}

// elementsShown says how many of a bulk's elements its filters show.
func elementsShown(shown, total int) string {
	if shown == 1 {
		return tf("1 of %s elements shown", count(total))
	}
	return tf("%s of %s elements shown", count(shown), count(total))
}
