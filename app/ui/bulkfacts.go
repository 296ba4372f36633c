package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What tells two bulks apart for an operator: the state in words, when
// it was submitted, from which file, and what it holds (its element count
// and its totals per currency).

// stateWords says where a bulk stands in an operator's words: "Submitted,
// waiting to be executed", "Running: 1,200 of 2,000 done". Progress is
// told only when the API counted the operations (a bulk's details; a list
// gives no counts).
func stateWords(b wire.BulkInfo) string {
	n := count(b.Operations)
	counted := b.Counts != nil
	failed := b.Counts[wire.OperationFailed]
	switch b.Status {
	case wire.BulkSubmitted:
		return t("Awaiting approval: submitted, not executed yet")
	case wire.BulkRunning:
		if counted && b.Done == 1 {
			return tf("Running: 1 of %s done", n)
		}
		if counted {
			return tf("Running: %s of %s done", count(b.Done), n)
		}
		return t("Running")
	case wire.BulkPaused:
		if counted && b.Done == 1 {
			return tf("Paused: 1 of %s done", n)
		}
		if counted {
			return tf("Paused: %s of %s done", count(b.Done), n)
		}
		return t("Paused")
	case wire.BulkCompleted:
		return tf("Completed: all %s done", n)
	case wire.BulkPartiallyCompleted:
		if counted {
			return tf("Partially completed: %s of %s failed", count(failed), n)
		}
		return t("Partially completed: some operations failed")
	case wire.BulkFailed:
		return t("Failed: no operation was executed")
	case wire.BulkCancelled:
		switch ran := b.Done - b.Counts[wire.OperationCancelled]; {
		case counted && ran == 1:
			return tf("Cancelled: 1 of %s had run; the others never will", n)
		case counted:
			return tf("Cancelled: %s of %s had run; the others never will", count(ran), n)
		}
		return t("Cancelled: the operations not yet run never will")
	}
	return statusWord(b.Status)
}

// bulkStateBadge shows a bulk's state in words and colour.
func bulkStateBadge(b wire.BulkInfo) app.UI {
	return app.Span().Class("state", "state-"+b.Status).Text(stateWords(b))
}

// elsewhere is what the console says of a bulk its journal does not know.
var elsewhere = lang.Mark("submitted elsewhere")

// submittedAt says when the bulk was submitted, as the journal recorded:
// the API keeps no such time.
func submittedAt(b wire.BulkInfo) string {
	if b.Submitted == 0 {
		return t("unknown")
	}
	return millis(b.Submitted)
}

// executedText says when the bulk ran: "2026-03-02 10:15:00 to
// 10:17:41", the end's date only when it differs.
func executedText(b wire.BulkInfo) string {
	if b.Started == 0 {
		return ""
	}
	s := millis(b.Started)
	if b.Finished == 0 {
		return tf("since %s", s)
	}
	// A bulk that ends the day it started names the day once. The check
	// is on the times, not on their text, whose layout is the language's.
	start, finish := time.UnixMilli(b.Started).Local(), time.UnixMilli(b.Finished).Local()
	end := millis(b.Finished)
	if y, m, d := start.Date(); finish.Year() == y && finish.Month() == m && finish.Day() == d {
		end = consoleLang.Time(finish)
	}
	return tf("%s to %s", s, end)
}

// kindOf names a bulk's kind, or the API's operation when this console
// does not know the kind.
func kindOf(b wire.BulkInfo) string {
	if b.Kind != "" {
		return kindTitle(b.Kind)
	}
	return b.Operation
}

// sourceOf names the file a bulk came from, or says the journal does not
// know it.
func sourceOf(b wire.BulkInfo) string {
	if s := bulkSource(b); s != "" {
		return s
	}
	if b.Submission != "" {
		return t("a request without a file name")
	}
	return t(elsewhere)
}

// totalsText writes a bulk's totals on one line: "EUR 1,234.56 · GBP
// 10.00"; "" while they are not known.
func totalsText(tot *wire.BulkTotals) string {
	switch {
	case tot == nil:
		return ""
	case tot.Failure != nil:
		return tf("not read: %s", failureSummary(tot.Failure))
	case !tot.MovesMoney:
		return tf("no amounts (%s)", kindTitle(tot.Kind))
	case len(tot.Totals) == 0:
		return t("no readable amount")
	}
	parts := make([]string, len(tot.Totals))
	for i, ct := range tot.Totals {
		parts[i] = totalLabel(ct) + " " + totalAmount(ct)
	}
	return strings.Join(parts, " · ")
}

// modeWords says what an execution mode does when an operation fails.
func modeWords(mode string) string {
	switch mode {
	case wire.ModeOnFailureStop:
		return t("If an operation fails, the bulk stops there: the operations after it do not run.")
	case wire.ModeOnFailureContinue:
		return t("If an operation fails, the others still run; the failed ones are listed afterwards, to fix and submit again.")
	}
	return t("If an operation fails, the API's default applies.")
}

// totalsQueue reads the totals of the bulks a page lists, one bulk at a
// time (each is a read of every operation of the bulk), and keeps them.
type totalsQueue struct {
	got     map[string]*wire.BulkTotals
	waiting []string
	conn    wire.Connection
	busy    bool
}

func totalsKey(backOffice bool, id string) string { return fmt.Sprint(backOffice, " ", id) }

// of returns the totals of a bulk, nil while they are not read.
func (q *totalsQueue) of(backOffice bool, id string) *wire.BulkTotals {
	return q.got[totalsKey(backOffice, id)]
}

// want asks for the totals of the bulks ids not read yet, instead of
// those asked before.
func (q *totalsQueue) want(ctx app.Context, conn wire.Connection, ids []string) {
	q.conn = conn
	q.waiting = q.waiting[:0]
	for _, id := range ids {
		if q.of(conn.BackOffice, id) == nil {
			q.waiting = append(q.waiting, id)
		}
	}
	if !q.busy {
		q.next(ctx)
	}
}

func (q *totalsQueue) next(ctx app.Context) {
	if len(q.waiting) == 0 {
		return
	}
	id, conn := q.waiting[0], q.conn
	q.waiting = q.waiting[1:]
	q.busy = true
	runJob(ctx, wire.JobBulkTotals, wire.GetBulkTotals{Connection: conn, BulkID: id}, nil, func(t wire.BulkTotals, _ app.Value, err error) {
		q.busy = false
		if err != nil {
			t = wire.BulkTotals{BulkID: id, Failure: &wire.APIFailure{Class: wire.ClassOther, Summary: errorText(err), Chunk: wire.NoChunk}}
		}
		if q.got == nil {
			q.got = make(map[string]*wire.BulkTotals)
		}
		q.got[totalsKey(conn.BackOffice, id)] = &t
		q.next(ctx)
	})
}

// submitOutcome says what a submission made: the bulks the API made for
// it, apart from those it answered with because it had made them before.
func submitOutcome(r wire.Submitted) string {
	if len(r.Submission.Chunks) == 0 {
		return t("Nothing was sent: every element was submitted before.")
	}
	made := len(r.Submission.Chunks) - len(r.Existing)
	switch {
	case len(r.Existing) == 0:
		return tf("Submitted: %s made. Open a bulk to execute it.", plural(made, "bulk", "bulks"))
	case made == 0 && len(r.Existing) == 1:
		return t("Submitted, but no new bulk was made: the API answered with a bulk it had made before for the same content.")
	case made == 0:
		return tf("Submitted, but no new bulk was made: the API answered %s with bulks it had made before for the same content.", plural(len(r.Existing), "part", "parts"))
	case len(r.Existing) == 1:
		return tf("Submitted, but %s, and the API answered with a bulk it had made before for the same content.", plural(made, "new bulk was made", "new bulks were made"))
	}
	return tf("Submitted, but %s, and the API answered %s with bulks it had made before for the same content.", plural(made, "new bulk was made", "new bulks were made"), plural(len(r.Existing), "part", "parts"))
}

// existingNotes name each bulk the API had made before, with its state.
func existingNotes(r wire.Submitted) app.UI {
	return app.Ul().ID("existing-bulks").Class("warning-box").Body(
		app.Range(r.Existing).Slice(func(i int) app.UI {
			e := r.Existing[i]
			which, name := "", tf("Bulk %s", e.Bulk.BulkID)
			if len(r.Submission.Chunks) > 1 {
				which, name = tf("Part %s: ", count(e.Chunk+1)), tf("bulk %s", e.Bulk.BulkID)
			}
			return app.Li().DataSet("bulk", e.Bulk.BulkID).Body(
				app.Text(which),
				app.A().Href(bulkHref(e.Bulk.BulkID, r.Submission.BackOffice)).DataSet("bulk", e.Bulk.BulkID).Text(name),
				app.Text(tf(" is not new: the same content was sent before with the same idempotency-ref, perhaps from another browser or the command line. It is %s.", lowerFirst(stateWords(e.Bulk)))),
			)
		}),
	)
}

// lowerFirst lowers the first letter of a sentence put inside another.
func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// progressText says how far a bulk has gone: while it can still run, how
// many operations are done; once it has ended, how they ended (a
// cancelled bulk's operations are not "done").
func progressText(b wire.BulkInfo) string {
	ended := b.Status == wire.BulkCompleted || b.Status == wire.BulkPartiallyCompleted ||
		b.Status == wire.BulkFailed || b.Status == wire.BulkCancelled
	if !ended || b.Counts == nil {
		return tf("%s of %s operations done", count(b.Done), count(b.Operations))
	}
	var parts []string
	if n := b.Counts[wire.OperationCompleted]; n > 0 {
		parts = append(parts, tf("%s completed", count(n)))
	}
	if n := b.Counts[wire.OperationFailed]; n > 0 {
		parts = append(parts, tf("%s failed", count(n)))
	}
	if n := b.Counts[wire.OperationCancelled]; n > 0 {
		parts = append(parts, tf("%s cancelled", count(n)))
	}
	if len(parts) == 0 {
		return tf("%s: no operation ran", plural(b.Operations, "operation", "operations"))
	}
	return fmt.Sprintf("%s: %s", plural(b.Operations, "operation", "operations"), strings.Join(parts, ", "))
}
