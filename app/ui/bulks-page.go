package ui

import (
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bulksPageSize is how many bulks a page of the list shows.
const bulksPageSize = 25

// bulkStatuses are the states of a bulk process, for the filter.
var bulkStatuses = wire.BulkStates()

// bulksPage lists the identity's bulk processes, a page at a time,
// filtered by state, with what the journal knows of each (the file and
// chunk it came from), and reminds of interrupted submissions.
type bulksPage struct {
	app.Compo

	// page is the component's own context: a job's answer updates the
	// page through it, since the control that started the job may be
	// gone by then (go-app drops updates of unmounted elements).
	page app.Context

	api        APIConfig
	backOffice bool
	status     string
	offset     int

	list    wire.BulkList
	loading bool
	loaded  bool
	failure *wire.APIFailure
	message string

	journal journalView
	run     int
	// totals are the listed bulks' totals, read one bulk at a time, and
	// records the server's records of them.
	totals  totalsQueue
	records bulkRecords
	// stopQueue stops watching the approval queue.
	stopQueue func()

	announcement string
	// openID is the bulk id typed to open.
	openID string
}

func newBulksPage() *bulksPage { return &bulksPage{} }

func (p *bulksPage) OnMount(ctx app.Context) {
	p.page, p.journal.page = ctx, ctx
	p.api = loadConfig().API
	p.journal.load(ctx, nil)
	p.reload(ctx)
	p.stopQueue = queue.watch(func() { ctx.Dispatch(func(app.Context) {}) })
}

func (p *bulksPage) OnDismount() {
	if p.stopQueue != nil {
		p.stopQueue()
	}
}

func (p *bulksPage) Render() app.UI {
	interrupted := p.journal.interrupted()
	return newShell().Route("/bulks").Announcement(p.announcement).Content(
		p.renderQueue(),
		app.P().Class("lead").Text(t("The bulk processes of the identity your credentials act for. Open one to execute, pause, resume or cancel it and to watch it run.")),
		app.If(len(interrupted) > 0, func() app.UI {
			return app.Div().ID("interrupted-notice").Class("warning-box").Role("alert").Body(
				app.Text(tf("%s did not finish. ", plural(len(interrupted), "submission", "submissions"))),
				app.A().Href(href(SubmitPath)).Text(t("Resume it with its original refs")),
			)
		}),
		app.Div().Class("filters").Body(
			app.Div().Class("field").Body(
				app.Label().For("bulk-status").Text(t("State")),
				app.Select().ID("bulk-status").Class("select").OnChange(p.statusChosen).Body(
					option("", t("Every state"), p.status == ""),
					app.Range(bulkStatuses).Slice(func(i int) app.UI {
						return option(bulkStatuses[i], filterWord(bulkStatuses[i]), bulkStatuses[i] == p.status)
					}),
				),
			),
			app.Div().Class("field").Body(
				app.Label().For("bulk-api").Text(t("API")),
				app.Select().ID("bulk-api").Class("select").OnChange(p.apiChosen).Body(
					option("standard", t("Standard"), !p.backOffice),
					option("backoffice", t("Back-office"), p.backOffice),
				),
			),
			app.Button().ID("refresh-bulks").Type("button").Class("button", "button-quiet").Text(t("Refresh")).OnClick(func(ctx app.Context, e app.Event) { p.reload(ctx) }),
		),
		// A checker is often handed a bulk id rather than a file.
		app.Form().ID("open-bulk").Class("filters").OnSubmit(p.openByID).Body(
			app.Div().Class("field").Body(
				app.Label().For("open-bulk-id").Text(t("Open a bulk by its id")),
				app.Input().ID("open-bulk-id").Type("text").Class("input").Attr("autocomplete", "off").Spellcheck(false).Value(p.openID).
					OnInput(func(ctx app.Context, e app.Event) { p.openID = ctx.JSSrc().Get("value").String() }),
			),
			app.Button().ID("open-bulk-button").Type("submit").Class("button", "button-quiet").Text(t("Open")),
		),
		p.renderList(),
	)
}

func (p *bulksPage) renderList() app.UI {
	switch {
	case p.message != "":
		return app.Div().ID("bulk-list").Class("alert").Role("alert").Body(
			app.Text(p.message+" "),
			app.A().Href(href("/settings")).Text(t("Open the connection settings")),
		)
	case p.failure != nil:
		return app.Div().ID("bulk-list").Body(failureView("bulks-failure", p.failure))
	case !p.loaded:
		return app.P().ID("bulk-list").Class("status").Text(t("Loading the bulks…"))
	case len(p.list.Bulks) == 0:
		return app.P().ID("bulk-list").DataSet("loaded", true).Class("note").Text(t("No bulk in this state."))
	}
	l := p.list
	return app.Div().ID("bulk-list").DataSet("loaded", !p.loading).Body(
		// Narrow windows scroll the table, not the page.
		app.Div().Class("table-scroll").Body(app.Table().Class("table").Body(
			app.Caption().Text(tf("%s to %s of %s", count(l.Offset+1), count(l.Offset+len(l.Bulks)), plural(l.Count, "bulk", "bulks"))),
			app.THead().Body(app.Tr().Body(
				app.Th().Text(t("Bulk")), app.Th().Text(t("State")), app.Th().Text(t("Kind")), app.Th().Class("num").Text(t("Elements")),
				app.Th().Text(t("Totals")), app.Th().Text(t("Submitted")), app.Th().Text(t("File")), app.Th().Text(t("Executed")),
			)),
			app.TBody().Body(app.Range(l.Bulks).Slice(func(i int) app.UI {
				b := l.Bulks[i]
				kind := kindOf(b)
				got := p.totals.of(p.backOffice, b.BulkID)
				rec := p.records.of(p.backOffice, b.BulkID)
				totals := totalsText(got)
				if totals == "" {
					totals = "…"
				}
				return app.Tr().DataSet("bulk", b.BulkID).DataSet("status", b.Status).Body(
					app.Td().Body(
						app.A().Href(bulkHref(b.BulkID, p.backOffice)).Text(b.BulkID),
						app.If(b.Status == wire.BulkSubmitted, func() app.UI {
							return app.A().Class("bulk-review-link").Href(bulkHref(b.BulkID, p.backOffice)).Aria("label", tf("Review bulk %s before executing it", b.BulkID)).Text(t("Review"))
						}),
					),
					app.Td().Class("bulk-state").Body(bulkStateBadge(b)),
					app.Td().Class("bulk-kind").Text(kind),
					app.Td().Class("num", "bulk-elements").Text(count(b.Operations)),
					app.Td().Class("bulk-totals").DataSet("loaded", got != nil).Text(totals),
					app.Td().Class("bulk-submitted").DataSet("recorded", rec != nil).Text(submittedWords(b, rec)),
					app.Td().Class("bulk-source").Text(sourceWords(b, rec)),
					app.Td().Class("bulk-executed").Text(executedText(b)),
				)
			})),
		)),
		pager("bulks", l.Offset, len(l.Bulks), l.Count, bulksPageSize, func(ctx app.Context, offset int) {
			p.offset = offset
			p.reload(ctx)
		}),
	)
}

func (p *bulksPage) statusChosen(ctx app.Context, e app.Event) {
	p.status, p.offset = ctx.JSSrc().Get("value").String(), 0
	p.reload(ctx)
}

// openByID opens the page of the bulk whose id was typed, on the API the
// list shows.
func (p *bulksPage) openByID(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if id := strings.TrimSpace(p.openID); id != "" {
		ctx.Navigate(bulkHref(id, p.backOffice))
	}
}

func (p *bulksPage) apiChosen(ctx app.Context, e app.Event) {
	p.backOffice, p.offset = ctx.JSSrc().Get("value").String() == "backoffice", 0
	p.reload(ctx)
}

// reload reads the page of bulks the filters ask for.
func (p *bulksPage) reload(ctx app.Context) {
	conn := currentConnection(ctx)
	if missing := conn.ready(p.api, p.backOffice); missing != "" {
		p.message, p.loaded = tf("The connection is not ready: %s", missing), true
		return
	}
	p.message, p.loading = "", true
	p.run++
	run := p.run
	req := wire.ListBulks{Connection: conn.forWorker(p.backOffice), Status: p.status, Offset: p.offset, Limit: bulksPageSize}
	runJob(p.page, wire.JobBulks, req, nil, func(l wire.BulkList, _ app.Value, err error) {
		if run != p.run {
			return
		}
		p.loading, p.loaded = false, true
		switch {
		case err != nil:
			p.failure = &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}
		case l.Failure != nil:
			p.failure = l.Failure
		default:
			p.list, p.failure = l, nil
			p.announcement = tf("%s listed.", plural(l.Count, "bulk", "bulks"))
			ids := make([]string, len(l.Bulks))
			for i, b := range l.Bulks {
				ids[i] = b.BulkID
			}
			p.totals.want(p.page, req.Connection, ids)
			p.records.want(p.page, p.backOffice, ids)
		}
	})
}

// bulkSource names the file and chunk a bulk came from, when known.
func bulkSource(b wire.BulkInfo) string {
	if b.Submission == "" {
		return ""
	}
	if b.Chunks > 1 {
		return tf("%s (part %s of %s)", b.Source, count(b.Chunk+1), count(b.Chunks))
	}
	return b.Source
}

// millis writes a Unix time in milliseconds, or nothing for 0.
func millis(ms int64) string {
	if ms == 0 {
		return ""
	}
	return dateTime(time.UnixMilli(ms).Local())
}

// statusWord writes a state for people: "PARTIALLY_COMPLETED" →
// "Partially completed".
func statusWord(s string) string {
	if w, ok := stateWord(s); ok {
		return w
	}
	b := []byte(s)
	for i := 1; i < len(b); i++ {
		switch {
		case b[i] == '_':
			b[i] = ' '
		case b[i] >= 'A' && b[i] <= 'Z':
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// stateWord names a state of a bulk or an operation in the console's
// language, and false for a state it does not know.
func stateWord(s string) (string, bool) {
	switch s {
	case "":
		return "", true
	case wire.BulkSubmitted:
		return t("Submitted"), true
	case wire.BulkRunning:
		return t("Running"), true
	case wire.BulkPaused:
		return t("Paused"), true
	case wire.BulkCompleted:
		return t("Completed"), true
	case wire.BulkPartiallyCompleted:
		return t("Partially completed"), true
	case wire.BulkFailed:
		return t("Failed"), true
	case wire.BulkCancelled:
		return t("Cancelled"), true
	}
	return "", false
}

// filterWord names a state in the filter: a submitted bulk awaits a
// second operator's review and execution.
func filterWord(s string) string {
	if s == wire.BulkSubmitted {
		return t("Awaiting approval")
	}
	return statusWord(s)
}

// statusBadge shows a state in words and colour.
func statusBadge(s string) app.UI {
	return app.Span().Class("state", "state-"+s).Text(statusWord(s))
}

// pager offers the previous and next pages of a list: the page shown
// starts at offset and holds shown of total items.
//
// Handlers that close over values carry an event scope of those values:
// go-app keeps an element's handler while its code is the same, so without
// the scope a button would go on moving from the offset it first had.
func pager(id string, offset, shown, total, size int, move func(ctx app.Context, offset int)) app.UI {
	return app.Div().Class("actions").Body(
		app.If(offset > 0, func() app.UI {
			return app.Button().ID(id+"-previous").Type("button").Class("button", "button-quiet").Text(t("Previous")).OnClick(func(ctx app.Context, e app.Event) {
				move(ctx, max(0, offset-size))
			}, app.EventScope(offset))
		}),
		app.If(offset+shown < total, func() app.UI {
			return app.Button().ID(id+"-next").Type("button").Class("button", "button-quiet").Text(t("Next")).OnClick(func(ctx app.Context, e app.Event) {
				move(ctx, offset+size)
			}, app.EventScope(offset))
		}),
	)
}
