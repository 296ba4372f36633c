package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bulkResults is the download of a bulk's result workbook on its page:
// every row of the operator's file with what became of it. It owns the
// download under way, its progress and what went wrong.
type bulkResults struct {
	app.Compo

	IbulkID     string
	Iconn       wire.Connection
	IonAnnounce func(ctx app.Context, text string)

	ctx     app.Context
	busy    bool
	note    string
	failure *wire.APIFailure
}

func newBulkResults() *bulkResults { return &bulkResults{} }

// Bulk sets the bulk whose results are downloaded, and the connection
// that reads them.
func (w *bulkResults) Bulk(id string, conn wire.Connection) *bulkResults {
	w.IbulkID, w.Iconn = id, conn
	return w
}

// OnAnnounce sets what tells screen readers the workbook is downloaded.
func (w *bulkResults) OnAnnounce(f func(ctx app.Context, text string)) *bulkResults {
	w.IonAnnounce = f
	return w
}

func (w *bulkResults) OnMount(ctx app.Context)  { w.ctx = ctx }
func (w *bulkResults) OnUpdate(ctx app.Context) { w.ctx = ctx }

func (w *bulkResults) Render() app.UI {
	btn := app.Button().ID("result-workbook").Type("button").Class("button", "button-quiet").Text(t("Download the result workbook")).OnClick(w.downloadWorkbook)
	if w.busy {
		btn = btn.Disabled(true)
	}
	return app.Div().Class("workbook").Body(
		btn,
		app.P().Class("hint").Text(t("Every row of your file with its bulk, its operation's state, whom it paid, the amount and the reference, and the error of a failed operation or the API's response to the others; the failed rows come first, on a sheet that loads again as it is, to fix and submit.")),
		app.If(w.note != "", func() app.UI { return app.P().ID("workbook-note").Role("status").Text(w.note) }),
		app.If(w.failure != nil, func() app.UI { return failureView("workbook-failure", w.failure) }),
	)
}

func (w *bulkResults) downloadWorkbook(ctx app.Context, e app.Event) {
	w.busy, w.note, w.failure = true, t("Reading the operations…"), nil
	req := wire.ResultWorkbook{Connection: w.Iconn, BulkID: w.IbulkID}
	runJob(w.ctx, wire.JobResultWorkbook, req, func(pr wire.Progress) {
		if pr.Total > 0 {
			w.note = tf("Reading the operations: %s of %s…", count(pr.Done), count(pr.Total))
		}
	}, func(f wire.ResultFile, data app.Value, err error) {
		w.busy = false
		switch {
		case err != nil:
			w.note = errorText(err)
		case f.Failure != nil:
			w.note, w.failure = "", f.Failure
		default:
			download(data, f.Name, f.Type)
			w.note = tf("%s: %s, %s failed.", downloadName(f.Name), plural(f.Rows, "row", "rows"), count(f.Failed))
			w.IonAnnounce(w.ctx, w.note)
		}
	})
}
