package ui

import (
	"net/url"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Under the server's four-eyes rule, the server keeps the maker's receipt
// of every submission through it: the checker's review compares with it,
// and no file passes between the two operators. A receipt the checker
// loads is compared instead, for bulks submitted elsewhere.

// What a review was compared with, in words (bulkReview.against).
var (
	againstServer        = lang.Mark("the receipt the server kept")
	againstServerControl = lang.Mark("the receipt the server kept and the control totals")
)

// compareServerReceipt compares the bulk just reviewed with the receipt
// the server kept of it, then looks for its elements in other bulks.
func (r *bulkReview) compareServerReceipt(run int, id string, conn wire.Connection) {
	r.serverBusy = true
	req := wire.ServerReceipt{Connection: conn, BulkID: id, URL: localURL("four-eyes/bulks/" + url.PathEscape(id))}
	runJob(r.ctx, wire.JobServerReceipt, req, nil, func(res wire.ServerReceiptCompared, _ app.Value, err error) {
		if run != r.run || id != r.IbulkID {
			return
		}
		r.serverBusy = false
		if err != nil {
			res = wire.ServerReceiptCompared{BulkID: id, Kept: wire.ReceiptUnread, Problem: errorText(err)}
		}
		r.takeServerReceipt(res)
		if rv := r.result; rv != nil && r.server.Kept == wire.ReceiptCompared {
			if rv.Matches() {
				r.announce(t("The bulk matches."))
			} else {
				r.announce(tf("The bulk does not match: %s.", plural(len(rv.Differences)+len(rv.Unread), "difference", "differences")))
			}
		}
		r.ctx.Defer(func(app.Context) { mark("review-server-compared") })
		r.checkRepeats(run, id, conn)
	})
}

// takeServerReceipt folds the comparison with the server's receipt into
// the review shown: its differences join those of the control totals,
// and the elements it names are marked in the grid.
func (r *bulkReview) takeServerReceipt(res wire.ServerReceiptCompared) {
	r.server = &res
	rv := r.result
	if rv == nil || res.Kept != wire.ReceiptCompared {
		return
	}
	rv.Compared = true
	rv.Differences = append(rv.Differences, res.Differences...)
	r.against = againstServer
	if r.control != nil {
		r.against = againstServerControl
	}
	if r.elements != nil {
		r.elements.setDifferences(rv.Differences)
		r.marked()
	}
}

// comparedWith says which receipt the review was compared with.
func (r *bulkReview) comparedWith() string {
	s := r.server
	switch {
	case r.receiptUsed != "":
		return tf("Compared with the receipt loaded from %s.", r.receiptUsed)
	case s == nil || s.Kept != wire.ReceiptCompared:
		return ""
	case s.SubmittedAt != nil && s.File != "":
		return tf("Compared with the receipt the server kept when %s submitted %s on %s: no file was needed.", s.SubmittedBy, s.File, dateTime(s.SubmittedAt.Local()))
	case s.SubmittedAt != nil:
		return tf("Compared with the receipt the server kept when %s submitted the bulk on %s: no file was needed.", s.SubmittedBy, dateTime(s.SubmittedAt.Local()))
	}
	return t("Compared with the receipt the server kept: no file was needed.")
}

// serverReceiptWhy says why the server's receipt was not compared.
func serverReceiptWhy(s *wire.ServerReceiptCompared) string {
	switch s.Kept {
	case wire.ReceiptUnknown:
		return t("The server has no record of this bulk: it was submitted elsewhere, or before its four-eyes rule was on.")
	case wire.ReceiptNone:
		return tf("The server recorded that %s submitted this bulk, but kept no receipt of it.", s.SubmittedBy)
	case wire.ReceiptUnread:
		return tf("The server's receipt could not be read: %s", s.Problem)
	}
	return ""
}
