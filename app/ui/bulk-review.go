package ui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bulkReview is the checker's review of a submitted bulk on its page
// (wire.JobReviewBulk): the bulk read back from the API, compared with
// the maker's receipt or typed control totals before anyone executes it,
// its elements in a grid, and the record of the review to download. The
// bulk is the page's; the review owns what the checker typed and loaded,
// the review shown and the checks that follow it. It stays mounted,
// empty, while the bulk has no review to show.
type bulkReview struct {
	app.Compo

	IbulkID string
	// Istatus is the bulk's state: a review is offered while it is
	// SUBMITTED, and one shown stays after Execute (its record names
	// the approval).
	Istatus string
	Iconn   wire.Connection
	// Imissing says why the connection is not ready, "" when it is.
	Imissing string
	// IfourEyesRule says the server keeps the maker's receipt of what
	// was submitted through it, to compare with.
	IfourEyesRule bool
	// Iauto starts the review once the bulk is SUBMITTED: the checker
	// came from the queue of bulks awaiting approval to review it.
	Iauto       bool
	IonAnnounce func(ctx app.Context, text string)

	ctx      app.Context
	busy     bool
	progress string
	result   *wire.BulkReview
	message  string
	run      int // numbers reviews; a stale answer is dropped

	// against names what the shown result was compared with: the inputs
	// may have changed since; receiptUsed, control and read are the
	// receipt's name, the typed totals and when the bulk was read, for the
	// review's record.
	against     string
	receiptUsed string
	control     *wire.ControlTotals
	read        time.Time
	recordNote  string

	// The look-up of the bulk's elements in other bulks, which follows
	// the review (JobBulkRepeats): its answer, or its progress or failure.
	repeats        *wire.RepeatsInfo
	repeatsChecked bool
	repeatsNote    string

	receiptName string
	receiptText string
	receiptErr  string
	count       string
	totals      string

	// The bulk's elements as the review sent them, which its checks
	// mark, for the grid (reviewElements); taken numbers the sets of
	// elements, marks the checks that marked them since.
	elements *bulkElements
	taken    int
	marks    int

	// server is the comparison with the receipt the server kept of the
	// bulk (bulk-review-server.go), serverBusy while it runs.
	server     *wire.ServerReceiptCompared
	serverBusy bool
	// autoDone is set once Iauto started the review, or could not.
	autoDone bool
}

func newBulkReview() *bulkReview { return &bulkReview{} }

// Bulk sets the bulk reviewed, as the page names it, and its state.
func (r *bulkReview) Bulk(id, status string) *bulkReview {
	r.IbulkID, r.Istatus = id, status
	return r
}

// Connection sets the connection that reads the bulk, and why it is not
// ready.
func (r *bulkReview) Connection(conn wire.Connection, missing string) *bulkReview {
	r.Iconn, r.Imissing = conn, missing
	return r
}

// FourEyes sets whether the server has a four-eyes rule, and so keeps
// the maker's receipt.
func (r *bulkReview) FourEyes(rule bool) *bulkReview { r.IfourEyesRule = rule; return r }

// Auto sets whether the review starts once the bulk is SUBMITTED.
func (r *bulkReview) Auto(on bool) *bulkReview { r.Iauto = on; return r }

// OnAnnounce sets what tells screen readers what the review found.
func (r *bulkReview) OnAnnounce(f func(ctx app.Context, text string)) *bulkReview {
	r.IonAnnounce = f
	return r
}

func (r *bulkReview) OnMount(ctx app.Context) {
	r.ctx = ctx
	r.reviewOnArrival(ctx)
}

func (r *bulkReview) OnUpdate(ctx app.Context) {
	r.ctx = ctx
	r.reviewOnArrival(ctx)
}

// announce tells screen readers, through the page.
func (r *bulkReview) announce(text string) { r.IonAnnounce(r.ctx, text) }

func (r *bulkReview) Render() app.UI {
	if r.Istatus != wire.BulkSubmitted && r.result == nil {
		return app.Text("") // mounted, empty: see bulkReview
	}
	return r.renderReview()
}

// renderReview is the "Review before executing" section of a SUBMITTED
// bulk.
func (r *bulkReview) renderReview() app.UI {
	return app.Section().ID("bulk-review").Class("bulk-review").Aria("labelledby", "review-title").Body(r.parts()...)
}

// parts are the review's parts, each in its place whether shown or not
// (see bulkPage.content), so that the grid keeps its filter and its
// place when a message appears above it.
func (r *bulkReview) parts() []app.UI {
	btn := app.Button().ID("run-review").Type("button").Class("button").Text(t("Review the bulk")).OnClick(r.runReview)
	if r.busy {
		btn = btn.Disabled(true)
	}
	receiptHint := t("The receipt the maker saved when submitting (JSON, or its page to print). It is read in this browser.")
	if r.IfourEyesRule {
		receiptHint = t("Not needed for a bulk submitted through this server, which kept the maker's receipt: the review compares with it. Load one for a bulk submitted elsewhere.")
	}
	if r.receiptName != "" {
		receiptHint = tf("Loaded: %s", r.receiptName)
	}
	// Once the bulk has left SUBMITTED, the review shown is kept for its
	// record, and a new one is no longer "before executing".
	open := r.Istatus == wire.BulkSubmitted
	title := t("Review before executing")
	if !open {
		title = t("The review before executing")
	}
	return []app.UI{
		app.H3().ID("review-title").Text(title),
		slot(open, func() app.UI { return r.renderReviewInputs(btn, receiptHint) }),
		app.P().ID("review-progress").Class("hint").Role("status").Text(r.progress),
		slot(r.message != "", func() app.UI { return app.P().ID("review-message").Class("alert").Role("alert").Text(r.message) }),
		slot(r.result != nil && r.result.Failure != nil, func() app.UI { return failureView("review-failure", r.result.Failure) }),
		// Always present, so that screen readers hear the verdict change;
		// first, so that it is seen before the figures behind it.
		app.Div().ID("review-verdict-live").Aria("live", "polite").Body(r.renderVerdict()),
		slot(r.result != nil && r.result.Failure == nil, r.renderReviewResult),
		newReviewElements().Elements(r.elements, r.taken, r.marks).OnAnnounce(r.IonAnnounce),
		app.If(r.result != nil && r.result.Failure == nil, func() app.UI {
			note := t("The review as shown, with who reviewed it and, once the bulk is executed, who approved it and when.")
			if r.recordNote != "" {
				note = r.recordNote
			}
			return app.Div().ID("review-record").Class("actions").Body(
				app.Button().ID("download-review").Type("button").Class("button", "button-quiet").Text(t("Download the review")).OnClick(r.downloadReview),
				app.P().ID("review-record-note").Class("note").Text(note),
			)
		}),
	}
}

// renderReviewInputs are what the checker compares the bulk with: the
// maker's receipt, or control totals, and the button that reads it.
func (r *bulkReview) renderReviewInputs(btn app.HTMLButton, receiptHint string) app.UI {
	return app.Div().Body(
		app.P().Class("note").Text(t("Reads the bulk back from the API: what will run, not what the file said. Compare it with the maker's receipt or with the control totals you were given.")),
		app.Div().Class("review-inputs").Body(
			app.Div().Class("field").Body(
				app.Label().For("review-receipt").Text(t("Load the maker's receipt")),
				app.Input().ID("review-receipt").Type("file").Class("input").Class(loadedClass(r.receiptName)).Accept(".json,application/json,.html,text/html").
					Aria("describedby", "review-receipt-hint").OnChange(r.reviewReceiptChosen),
				app.Span().ID("review-receipt-hint").Class("hint").Text(receiptHint),
				app.If(r.receiptErr != "", func() app.UI {
					return app.P().ID("review-receipt-error").Class("warning-text").Role("alert").Text(r.receiptErr)
				}),
			),
			app.Div().Class("field", "field-narrow").Body(
				app.Label().For("review-count").Text(t("Control count")),
				app.Input().ID("review-count").Type("text").Class("input").Attr("inputmode", "numeric").Value(r.count).
					Aria("describedby", "review-count-hint").Attr("autocomplete", "off").
					OnInput(func(ctx app.Context, e app.Event) { r.count = ctx.JSSrc().Get("value").String() }),
				app.Span().ID("review-count-hint").Class("hint").Text(t("Elements, as 10,000; empty if not given.")),
			),
			app.Div().Class("field").Body(
				app.Label().For("review-control-totals").Text(t("Control totals")),
				app.Input().ID("review-control-totals").Type("text").Class("input").Value(r.totals).Placeholder(t("EUR 1,234.56; USD 20.00")).
					Aria("describedby", "review-totals-hint").Attr("autocomplete", "off").Spellcheck(false).
					OnInput(func(ctx app.Context, e app.Event) { r.totals = ctx.JSSrc().Get("value").String() }),
				app.Span().ID("review-totals-hint").Class("hint").Text(t("One per currency, separated by semicolons; empty if not given.")),
			),
		),
		app.Div().Class("actions").Body(btn),
	)
}

// downloadReview writes the review shown as the checker's record
// (wire.ReviewRecord), asking the server first who approved the bulk.
func (r *bulkReview) downloadReview(ctx app.Context, e app.Event) {
	rv, id := r.result, r.IbulkID
	if rv == nil {
		return
	}
	ctx.Async(func() {
		f, err := loadFourEyes(ctx, id)
		ctx.Dispatch(func(app.Context) {
			if id != r.IbulkID || rv != r.result {
				return
			}
			rec := wire.ReviewRecord{Version: wire.ReviewRecordVersion, ReviewedAt: r.read.UTC(), Receipt: r.receiptUsed,
				ServerReceipt: r.server != nil && r.server.Kept == wire.ReceiptCompared, Control: r.control, Matches: rv.Matches(), Review: *rv}
			if r.repeatsChecked {
				rec.Repeats = r.repeats
			}
			if err == nil {
				rec.ReviewedBy = f.You
				if f.Known != nil && *f.Known {
					rec.SubmittedBy, rec.SubmittedAt = f.SubmittedBy, f.SubmittedAt
					rec.ApprovedBy, rec.ApprovedAt = f.ExecutedBy, f.ExecutedAt
				}
			}
			data, jerr := json.MarshalIndent(rec, "", "  ")
			if jerr != nil {
				r.recordNote = tf("The review could not be written: %s", errorText(jerr))
				return
			}
			name := downloadName("bulk-" + id + ".review.json")
			// The record quotes the operator's data: inert for spreadsheets.
			download(app.ValueOf(string(inert.JSON(data))+"\n"), name, "application/json")
			r.recordNote = tf("%s: the review of bulk %s.", name, id)
			if rec.ApprovedBy != "" {
				r.recordNote = tf("%s: the review of bulk %s, approved by %s.", name, id, rec.ApprovedBy)
			}
			r.announce(r.recordNote)
		})
	})
}

func (r *bulkReview) reviewReceiptChosen(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	r.receiptErr = ""
	readText(file, func(text, errText string) {
		r.ctx.Dispatch(func(ctx app.Context) {
			if errText != "" {
				r.receiptName, r.receiptText, r.receiptErr = "", "", tf("The receipt was not loaded: %s", errText)
				return
			}
			r.receiptName, r.receiptText = name, text
			// A review already shown is compared with the receipt at once.
			if r.result != nil && !r.busy {
				r.runReview(ctx, app.Event{})
			}
		})
	})
	// The same file can be chosen again once changed on disk.
	ctx.JSSrc().Set("value", "")
}

// controlTotals reads what the checker typed, as they write numbers
// (money.ParseTyped); nil when nothing was. A count or a total that
// cannot be read is refused with how to type it.
func (r *bulkReview) controlTotals() (*wire.ControlTotals, error) {
	c := wire.ControlTotals{Lang: string(consoleLang)}
	if s := strings.TrimSpace(r.count); s != "" {
		n, err := money.ParseTyped(s, 0, typedSeparators())
		if err != nil || n < 0 || n > 1<<31 {
			return nil, saidError(tf("the control count %q is not a number of elements", s))
		}
		count := int(n)
		c.Count = &count
	}
	for _, t := range strings.FieldsFunc(r.totals, func(c rune) bool { return c == ';' || c == '\n' }) {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		if _, _, err := money.ParseCurrencyAmount(t, typedSeparators()); err != nil {
			return nil, saidError(typedProblem(err, ""))
		}
		c.Totals = append(c.Totals, t)
	}
	if c.Count == nil && len(c.Totals) == 0 {
		return nil, nil
	}
	return &c, nil
}

// reviewOnArrival starts the review of a bulk awaiting approval that the
// checker opened from the queue to review.
func (r *bulkReview) reviewOnArrival(ctx app.Context) {
	if !r.Iauto || r.autoDone || r.Istatus != wire.BulkSubmitted || r.result != nil || r.busy {
		return
	}
	r.autoDone = true
	r.runReview(ctx, app.Event{})
}

func (r *bulkReview) runReview(ctx app.Context, e app.Event) {
	control, err := r.controlTotals()
	if err != nil {
		r.message = wire.Sentence(errorText(err))
		return
	}
	if r.Imissing != "" {
		r.message = r.Imissing
		return
	}
	r.run++
	run, id := r.run, r.IbulkID
	r.busy, r.message, r.progress = true, "", t("Reading the bulk…")
	against := lang.Mark("the control totals")
	if r.receiptText != "" {
		against = lang.Mark("the receipt")
		if control != nil {
			against = lang.Mark("the receipt and the control totals")
		}
	}
	receiptName := ""
	if r.receiptText != "" {
		receiptName = r.receiptName
	}
	req := wire.ReviewBulk{Connection: r.Iconn, BulkID: id, Receipt: r.receiptText, Control: control}
	mark("review-start")
	runJob(r.ctx, wire.JobReviewBulk, req, func(pr wire.Progress) {
		switch {
		case run != r.run:
		case pr.Total > 0:
			if pr.Done == pr.Total {
				mark("review-read")
			}
			r.progress = tf("Reading operations %s of %s", count(pr.Done), count(pr.Total))
		}
	}, func(rv wire.BulkReview, data app.Value, err error) {
		if run != r.run || id != r.IbulkID {
			return
		}
		mark("review-received")
		r.busy, r.progress = false, ""
		if err != nil {
			r.message, r.result = errorText(err), nil
			return
		}
		r.result, r.against, r.receiptUsed, r.control, r.read, r.recordNote = &rv, against, receiptName, control, time.Now(), ""
		r.repeats, r.repeatsChecked, r.repeatsNote = nil, false, ""
		r.server, r.serverBusy, r.elements = nil, false, nil
		r.ctx.Defer(func(app.Context) { mark("review-shown") })
		if rv.Failure != nil {
			return
		}
		if els, err := readReviewElements(data); err != nil {
			r.message = tf("The elements could not be shown: %s", errorText(err))
		} else {
			r.takeElements(els)
			r.elements.setDifferences(rv.Differences)
			r.marked()
		}
		if receiptName == "" && r.IfourEyesRule {
			r.compareServerReceipt(run, id, req.Connection)
		} else {
			r.checkRepeats(run, id, req.Connection)
		}
		switch {
		case rv.Failure != nil:
			r.announce(tf("The bulk could not be read: %s", rv.Failure.Summary))
		case !rv.Compared:
			r.announce(tf("Bulk read: %s.", plural(rv.Elements, "element", "elements")))
		case rv.Matches():
			r.announce(t("The bulk matches."))
		default:
			r.announce(tf("The bulk does not match: %s.", plural(len(rv.Differences)+len(rv.Unread), "difference", "differences")))
		}
	})
}
