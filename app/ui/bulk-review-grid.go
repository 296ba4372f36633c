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

// takeElements holds the elements of the review just shown: the grid
// shows every one.
func (r *bulkReview) takeElements(els *wire.ReviewElements) {
	r.elements = newBulkElements(els)
	r.taken++
}

// marked tells the grid that a check marked elements (repeats, a
// receipt's differences).
func (r *bulkReview) marked() {
	if r.elements != nil {
		r.marks++
	}
}

// reviewElements is the grid of a reviewed bulk's elements in the
// review, with its search and filters. The elements are the review's
// (its checks mark them: the bulks that hold them too, the receipt's
// differences); the grid owns the filter the checker chose and the view
// it gives. It stays mounted, empty, while the review has no elements.
type reviewElements struct {
	app.Compo

	Ielements *bulkElements
	// Itaken numbers the elements the review took: another set shows
	// every element again.
	Itaken int
	// Imarks numbers the checks that marked the elements since: the view
	// is made again, its columns may change, the grid keeps its place.
	Imarks      int
	IonAnnounce func(ctx app.Context, text string)

	// taken and marks are the review's numbers the view follows.
	taken int
	marks int
	// The filter the checker chose and the view it gives; viewSeq
	// numbers the views (a new one starts the grid at its top).
	filter       elementFilter
	view         *elementView
	viewSeq      int
	aboveText    string
	aboveProblem string
}

func newReviewElements() *reviewElements { return &reviewElements{} }

// Elements sets the review's elements, the number of the set and of the
// checks that marked it.
func (g *reviewElements) Elements(els *bulkElements, taken, marks int) *reviewElements {
	g.Ielements, g.Itaken, g.Imarks = els, taken, marks
	return g
}

// OnAnnounce sets what tells screen readers how many elements show.
func (g *reviewElements) OnAnnounce(f func(ctx app.Context, text string)) *reviewElements {
	g.IonAnnounce = f
	return g
}

func (g *reviewElements) OnMount(ctx app.Context)  { g.follow() }
func (g *reviewElements) OnUpdate(ctx app.Context) { g.follow() }

// follow makes the view of what the review hands down: another set of
// elements with every one in view, marks made since on the same view.
func (g *reviewElements) follow() {
	switch {
	case g.Ielements == nil:
		g.view = nil
	case g.view == nil || g.Itaken != g.taken:
		g.filter, g.aboveText, g.aboveProblem = elementFilter{}, "", ""
		g.refilter()
	case g.Imarks != g.marks:
		g.view = newElementView(g.Ielements, g.filter)
	}
	g.taken, g.marks = g.Itaken, g.Imarks
}

// refilter makes the view the filter asks for; the grid starts again at
// its top.
func (g *reviewElements) refilter() {
	if g.Ielements == nil {
		return
	}
	g.view = newElementView(g.Ielements, g.filter)
	g.viewSeq++
}

// Render is the grid with its search and filters.
func (g *reviewElements) Render() app.UI {
	v := g.view
	if v == nil {
		return app.Text("") // mounted, empty: see reviewElements
	}
	shown := elementsShown(len(v.shown), g.Ielements.len())
	if !g.filter.active() {
		shown = tf("All %s shown", plural(g.Ielements.len(), "element", "elements"))
	}
	return app.Section().ID("review-every-element").Class("review-elements").Aria("labelledby", "review-elements-title").Body(
		app.H4().ID("review-elements-title").Text(t("Every element of the bulk")),
		app.Div().Class("filters").Body(
			app.Div().Class("field").Body(
				app.Label().For("review-search").Text(t("Search")),
				app.Input().ID("review-search").Type("search").Class("input").Value(g.filter.search).Attr("autocomplete", "off").Spellcheck(false).
					Aria("describedby", "review-search-hint").OnInput(g.searchTyped),
				app.Span().ID("review-search-hint").Class("hint").Text(t("An id, a name, an account or a reference.")),
			),
			app.Div().Class("field").Body(
				app.Label().For("review-show").Text(t("Show")),
				app.Select().ID("review-show").Class("select").OnChange(g.showChosen).Body(
					option(showEvery, t("Every element"), g.filter.show == showEvery),
					option(showInvalid, t("Invalid elements"), g.filter.show == showInvalid),
					option(showRepeated, t("Elements in other bulks too"), g.filter.show == showRepeated),
					option(showDiffers, t("Elements that differ from the receipt"), g.filter.show == showDiffers),
				),
			),
			app.Div().Class("field", "field-narrow").Body(
				app.Label().For("review-above").Text(t("Amounts above")),
				app.Input().ID("review-above").Type("text").Class("input").Attr("inputmode", "decimal").Value(g.aboveText).Attr("autocomplete", "off").
					Aria("describedby", "review-above-hint").Aria("invalid", g.aboveProblem != "").OnInput(g.aboveTyped),
				app.Span().ID("review-above-hint").Class("hint").Text(tf("As %s; empty for any.", money.Example(2, typedSeparators()))),
			),
			app.If(len(g.Ielements.currencies) > 1, func() app.UI {
				cs := g.Ielements.currencies
				return app.Div().Class("field", "field-narrow").Body(
					app.Label().For("review-currency").Text(t("Currency")),
					app.Select().ID("review-currency").Class("select").OnChange(g.currencyChosen).Body(
						option("", t("Every currency"), g.filter.currency == ""),
						app.Range(cs).Slice(func(i int) app.UI { return option(cs[i], cs[i], cs[i] == g.filter.currency) }),
					),
				)
			}),
		),
		app.If(g.aboveProblem != "", func() app.UI {
			return app.P().ID("review-above-problem").Class("warning-text").Role("alert").Text(g.aboveProblem)
		}),
		app.P().ID("review-shown").Class("hint").DataSet("shown", len(v.shown)).Text(shown),
		newReviewGrid().Source(v).Document(g.viewSeq, g.marks).Columns(v.columns()).OnAnnounce(g.IonAnnounce),
	)
}

func (g *reviewElements) searchTyped(ctx app.Context, e app.Event) {
	g.filter.search = ctx.JSSrc().Get("value").String()
	g.refilter()
}

func (g *reviewElements) showChosen(ctx app.Context, e app.Event) {
	g.filter.show = ctx.JSSrc().Get("value").String()
	g.refilter()
	g.announceShown(ctx)
}

func (g *reviewElements) currencyChosen(ctx app.Context, e app.Event) {
	g.filter.currency = ctx.JSSrc().Get("value").String()
	g.setAbove(g.aboveText)
	g.refilter()
	g.announceShown(ctx)
}

func (g *reviewElements) aboveTyped(ctx app.Context, e app.Event) {
	g.setAbove(ctx.JSSrc().Get("value").String())
	g.refilter()
}

// setAbove reads the amount typed to show the elements above, as the
// operator's language writes numbers, in the decimals of each currency
// shown: an amount that one of them cannot hold ("10.5" for JPY), or that
// reads two ways, is said rather than guessed, and nothing is filtered by
// it meanwhile.
func (g *reviewElements) setAbove(text string) {
	g.aboveText, g.aboveProblem, g.filter.above = text, "", nil
	text = strings.TrimSpace(text)
	if text == "" || g.Ielements == nil {
		return
	}
	limits := make(map[string]int64)
	for _, cur := range g.Ielements.currencies {
		if g.filter.currency != "" && cur != g.filter.currency {
			continue
		}
		digits, ok := money.Digits(cur)
		if !ok {
			continue // not an ISO 4217 code: its decimals are unknown
		}
		minor, err := money.ParseTyped(text, digits, typedSeparators())
		if err != nil {
			g.aboveProblem = typedProblem(err, cur)
			return
		}
		limits[cur] = minor
	}
	g.filter.above = limits
}

// announceShown says how many elements the filter shows.
func (g *reviewElements) announceShown(ctx app.Context) {
	if v := g.view; v != nil {
		g.IonAnnounce(ctx, elementsShown(len(v.shown), g.Ielements.len()))
	}
}

// elementsShown says how many of a bulk's elements its filters show.
func elementsShown(shown, total int) string {
	switch {
	case shown == 1:
		return tf("1 of %s elements shown", count(total))
	case consoleLang.Singular(shown):
		// French counts none in the singular.
		return tf("0 of %s elements shown", count(total))
	}
	return tf("%s of %s elements shown", count(shown), count(total))
}
