package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// submitReceipt offers the maker's receipt of a submission sent whole,
// for the colleague who reviews its bulks before executing them: as JSON,
// and as a page to read and print (which the review reads too). It owns
// its download: whether one is under way, and what the last one gave.
type submitReceipt struct {
	app.Compo

	Isub wire.SubmissionInfo
	// Ireading says how the file was read, in words, for the receipt.
	Ireading    []string
	IonAnnounce func(ctx app.Context, text string)

	busy bool
	note string
	// ctx is the receipt's own context, for the worker's answer.
	ctx app.Context
}

func newSubmitReceipt() *submitReceipt { return &submitReceipt{} }

// Submission sets the submission whose receipt is offered.
func (r *submitReceipt) Submission(s wire.SubmissionInfo) *submitReceipt { r.Isub = s; return r }

// Reading sets how the file was read, in words.
func (r *submitReceipt) Reading(statements []string) *submitReceipt {
	r.Ireading = statements
	return r
}

// OnAnnounce sets what tells screen readers.
func (r *submitReceipt) OnAnnounce(f func(ctx app.Context, text string)) *submitReceipt {
	r.IonAnnounce = f
	return r
}

// receiptOffered reports whether a submission has a receipt: sent whole.
func receiptOffered(s wire.SubmissionInfo) bool {
	return s.ID != "" && len(s.Chunks) > 0 && s.State == wire.StateSubmitted
}

func (r *submitReceipt) OnMount(ctx app.Context) { r.ctx = ctx }

func (r *submitReceipt) Render() app.UI {
	asJSON := app.Button().ID("download-receipt").Type("button").Class("button", "button-quiet").Text(t("Download the receipt")).
		OnClick(func(ctx app.Context, e app.Event) { r.download(ctx, wire.ReceiptJSON) })
	page := app.Button().ID("print-receipt").Type("button").Class("button", "button-quiet").Text(t("Download the receipt to print")).
		OnClick(func(ctx app.Context, e app.Event) { r.download(ctx, wire.ReceiptPage) })
	if r.busy {
		asJSON, page = asJSON.Disabled(true), page.Disabled(true)
	}
	note := t("The bulks, their counts, totals and a fingerprint of their elements, for the colleague who reviews them on the bulk's page before they are executed. The page to print holds the same receipt.")
	if r.note != "" {
		note = r.note
	}
	return app.Div().Body(
		app.Div().ID("receipt").Class("actions").Body(asJSON, page, app.P().ID("receipt-note").Class("note").Text(note)),
		techDetails("receipt-details", t("The fingerprint is the SHA-256 of the elements; on the command line, bulkdesk bulks review -receipt compares a bulk with it.")),
	)
}

// download writes the maker's receipt of the submission in format
// (wire.ReceiptJSON or wire.ReceiptPage).
func (r *submitReceipt) download(ctx app.Context, format string) {
	r.busy = true
	writeReceipt(r.ctx, r.Isub, r.Ireading, format, func(f wire.File, data app.Value, err error) {
		r.busy = false
		if err != nil {
			r.note = errorText(err)
			return
		}
		download(data, f.Name, f.Type)
		r.note = tf("%s: the receipt of %s.", downloadName(f.Name), plural(f.Rows, "element", "elements"))
		r.IonAnnounce(r.ctx, r.note)
	})
}

// writeReceipt has the worker write the maker's receipt of sub in
// format, naming the maker as the server knows the operator signed in,
// and hands it to done on ctx's component.
func writeReceipt(ctx app.Context, sub wire.SubmissionInfo, reading []string, format string, done func(f wire.File, data app.Value, err error)) {
	req := wire.ReceiptRequest{Submission: sub.ID, Format: format, Reading: reading}
	first := ""
	if chunks := sub.Chunks; len(chunks) > 0 {
		first = chunks[0].BulkID
	}
	ctx.Async(func() {
		req.SubmittedBy = submitterOf(ctx, first)
		ctx.Dispatch(func(ctx app.Context) {
			runJob(ctx, wire.JobReceipt, req, nil, func(f wire.File, data app.Value, err error) { done(f, data, err) })
		})
	})
}
