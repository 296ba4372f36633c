package wire

import "time"

// JobServerReceipt compares the bulk JobReviewBulk last read with the
// maker's receipt the console's server kept of its submission (GET
// four-eyes/bulks/{id} under bulkdesk serve -four-eyes), so that no file
// passes between the two operators. It follows the review rather than
// holding it up: the receipt of 10,000 elements takes a while to read.
// Request: ServerReceipt. Result: ServerReceiptCompared.
const JobServerReceipt = "server-receipt"

// ServerReceipt is the request of JobServerReceipt.
type ServerReceipt struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
	// URL is the server's four-eyes record of the bulk, an absolute URL
	// on the console's own origin.
	URL string `json:"url"`
}

// Where the server's receipt of a bulk stands (ServerReceiptCompared.Kept).
const (
	// ReceiptCompared: the server kept a receipt, and the bulk was
	// compared with it.
	ReceiptCompared = "compared"
	// ReceiptRuleOff: the server runs no four-eyes rule, and keeps none.
	ReceiptRuleOff = "rule-off"
	// ReceiptUnknown: the server has no record of the bulk: it was
	// submitted elsewhere, or before the rule was on.
	ReceiptUnknown = "unknown"
	// ReceiptNone: the server recorded who submitted the bulk, but
	// computed no receipt of it.
	ReceiptNone = "none"
	// ReceiptUnread: the server's answer could not be read (Problem says
	// why): nothing was compared.
	ReceiptUnread = "unread"
)

// ServerReceiptCompared is the result of JobServerReceipt.
type ServerReceiptCompared struct {
	BulkID string `json:"bulkId"`
	// Kept is ReceiptCompared, ReceiptRuleOff, ReceiptUnknown,
	// ReceiptNone or ReceiptUnread; Problem says why it was unread.
	Kept    string `json:"kept"`
	Problem string `json:"problem,omitempty"`
	// SubmittedBy and SubmittedAt are who submitted the bulk and when, as
	// the server recorded; File is the file the receipt names.
	SubmittedBy string     `json:"submittedBy,omitempty"`
	SubmittedAt *time.Time `json:"submittedAt,omitempty"`
	File        string     `json:"file,omitempty"`
	// Differences are what the bulk does not hold as the receipt
	// declares; none, with Kept ReceiptCompared, means it matches.
	Differences []Difference `json:"differences,omitempty"`
	Failure     *APIFailure  `json:"failure,omitempty"`
}

// Matches reports whether the bulk was compared with the server's receipt
// and nothing differs.
func (r ServerReceiptCompared) Matches() bool {
	return r.Kept == ReceiptCompared && len(r.Differences) == 0 && r.Failure == nil
}
