package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// operationsPageSize is the size of a page of a bulk's operations.
const operationsPageSize = 50

var operationStatuses = wire.OperationStates()

// bulkOperations is the list of a bulk's operations on its page, each
// placed at the row of the operator's file it came from, a page at a time
// and filtered by state. The bulk is the page's; the list owns the filter,
// the page of operations shown and whether it is read.
type bulkOperations struct {
	app.Compo

	IbulkID string
	Iconn   wire.Connection
	// Iread numbers the page's readings of the bulk that call for its
	// operations again (a new state, an action): the list reads them once
	// for each.
	Iread int

	ctx     app.Context
	status  string
	offset  int
	list    wire.OperationList
	loaded  bool
	failure *wire.APIFailure
	run     int // numbers the readings; a stale answer is dropped
	readFor int // the page's reading the list last followed
}

func newBulkOperations() *bulkOperations { return &bulkOperations{} }

// Bulk sets the bulk whose operations are listed, and the connection that
// reads them.
func (o *bulkOperations) Bulk(id string, conn wire.Connection) *bulkOperations {
	o.IbulkID, o.Iconn = id, conn
	return o
}

// Read sets the page's reading of the bulk: another one reads the
// operations again.
func (o *bulkOperations) Read(n int) *bulkOperations { o.Iread = n; return o }

func (o *bulkOperations) OnMount(ctx app.Context) {
	o.ctx = ctx
	o.load(ctx)
}

func (o *bulkOperations) OnUpdate(ctx app.Context) {
	o.ctx = ctx
	if o.Iread != o.readFor {
		o.load(ctx)
	}
}

func (o *bulkOperations) Render() app.UI {
	l := o.list
	return app.Section().ID("operations").DataSet("loaded", o.loaded).Aria("labelledby", "operations-title").Body(
		app.H3().ID("operations-title").Text(t("Operations")),
		app.Div().Class("filters").Body(
			app.Div().Class("field").Body(
				app.Label().For("operation-status").Text(t("State")),
				app.Select().ID("operation-status").Class("select").OnChange(func(ctx app.Context, e app.Event) {
					o.status, o.offset = ctx.JSSrc().Get("value").String(), 0
					o.load(ctx)
				}).Body(
					option("", t("Every state"), o.status == ""),
					app.Range(operationStatuses).Slice(func(i int) app.UI {
						return option(operationStatuses[i], statusWord(operationStatuses[i]), operationStatuses[i] == o.status)
					}),
				),
			),
		),
		app.If(o.failure != nil, func() app.UI { return failureView("operations-failure", o.failure) }),
		app.If(o.loaded && len(l.Operations) == 0, func() app.UI {
			return app.P().Class("note").Text(t("No operation in this state."))
		}),
		app.If(len(l.Operations) > 0, o.renderTable),
	)
}

// renderTable is the page of operations shown, and its pager.
func (o *bulkOperations) renderTable() app.UI {
	l := o.list
	return app.Div().Body(
		app.Div().Class("table-scroll").Body(app.Table().ID("operations-table").Class("table").Body(
			app.Caption().Text(tf("%s to %s of %s", count(l.Offset+1), count(l.Offset+len(l.Operations)), plural(l.Count, "operation", "operations"))),
			app.THead().Body(app.Tr().Body(
				app.Th().Class("num").Text(t("Sequence")), app.Th().Text(t("In your file")), app.Th().Text(t("State")),
				app.Th().Text(receiverHeading(l.MovesMoney, l.ReceiverType)),
				app.If(l.MovesMoney, func() app.UI { return app.Th().Class("num").Text(t("Amount")) }),
				app.If(l.HasReference, func() app.UI { return app.Th().Text(t("Reference")) }),
				app.Th().Text(t("Error")),
			)),
			app.TBody().Body(app.Range(l.Operations).Slice(func(i int) app.UI {
				op := l.Operations[i]
				return app.Tr().DataSet("sequence", op.Sequence).DataSet("status", op.Status).Body(
					app.Td().Class("num").Text(count(op.Sequence)),
					app.Td().Class("operation-place").Text(placeOf(op.Element, op.Sheet, op.Row)),
					app.Td().Body(statusBadge(op.Status)),
					app.Td().Class("operation-receiver").Text(counterpartyText(op.Keys.Counterparty)),
					app.If(l.MovesMoney, func() app.UI { return app.Td().Class("num", "operation-amount").Text(keyAmountText(op.Keys.Amount)) }),
					app.If(l.HasReference, func() app.UI { return app.Td().Class("operation-reference").Text(op.Keys.Reference) }),
					app.Td().Class("operation-error").Text(op.Error),
				)
			})),
		)),
		pager("operations", l.Offset, len(l.Operations), l.Count, operationsPageSize, func(ctx app.Context, offset int) {
			o.offset = offset
			o.load(ctx)
		}),
	)
}

// load reads the page of operations the filter asks for.
func (o *bulkOperations) load(ctx app.Context) {
	o.readFor = o.Iread
	o.run++
	run := o.run
	req := wire.ListOperations{Connection: o.Iconn, BulkID: o.IbulkID, Status: o.status, Offset: o.offset, Limit: operationsPageSize}
	runJob(o.ctx, wire.JobOperations, req, nil, func(l wire.OperationList, _ app.Value, err error) {
		if run != o.run {
			return
		}
		o.loaded = true
		switch {
		case err != nil:
			o.failure = &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}
		case l.Failure != nil:
			o.failure = l.Failure
		default:
			o.list, o.failure = l, nil
		}
	})
}
