package wire

import "time"

// JobReviewBulk rebuilds a submitted bulk from the API's record of its
// operations for a second operator, before it is executed: its count, its
// totals per currency and per source, its invalid elements and its body
// hash, compared, when given, with the maker's receipt and with control
// totals the checker typed. The elements are validated with the contract
// in use. Which API it reads is Connection.BackOffice. JobBulkRepeats
// then looks for its elements in other bulks.
// Request: ReviewBulk. Result: BulkReview, with every element of the
// bulk (ReviewElements.MarshalBinary) as Data. Progress:
// PhaseReadingOperations.
const JobReviewBulk = "review-bulk"

// ReviewBulk is the request of JobReviewBulk.
type ReviewBulk struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
	// Receipt is the text of the maker's receipt (JSON, as the CLI and
	// the console write it); "" compares with none.
	Receipt string `json:"receipt,omitempty"`
	// Control holds the totals the checker typed; nil compares with none.
	Control *ControlTotals `json:"control,omitempty"`
}

// ControlTotals are what a checker types from the maker's paper or
// message.
type ControlTotals struct {
	// Count is the element count; nil when not typed.
	Count *int `json:"count,omitempty"`
	// Totals are one per currency, as "EUR 1,234.56".
	Totals []string `json:"totals,omitempty"`
	// Lang is the language (app/lang) the totals are typed in, as it
	// writes numbers ("EUR 1.234,56" in German); "" reads the plain form
	// and English.
	Lang string `json:"lang,omitempty"`
}

// MaxReviewSources is how many sources a BulkReview lists: a salary run
// draws on thousands, more than a page shows at once (the receipt's
// comparison covers them all).
const MaxReviewSources = 50

// MaxReviewInvalid is how many invalid elements a BulkReview lists.
const MaxReviewInvalid = 100

// BulkReview is the result of JobReviewBulk.
type BulkReview struct {
	BulkID string `json:"bulkId"`
	Kind   string `json:"kind,omitempty"`
	Status string `json:"status,omitempty"`
	// Listed is how many operations the bulk says it holds; Elements how
	// many were read.
	Listed     int  `json:"listed"`
	Elements   int  `json:"elements"`
	MovesMoney bool `json:"movesMoney,omitempty"`
	// Totals are per currency and Sources per source instrument, summed
	// as the review of a file sums them: the MaxReviewSources most used
	// sources, of SourceCount.
	Totals      []Total       `json:"totals,omitempty"`
	Sources     []SourceTotal `json:"sources,omitempty"`
	SourceCount int           `json:"sourceCount"`
	// InvalidCount is how many elements have errors; Invalid lists the
	// first MaxReviewInvalid of them.
	InvalidCount int              `json:"invalidCount"`
	Invalid      []InvalidElement `json:"invalid,omitempty"`
	// Contract names the contract the elements were validated with: the
	// one in use in the console.
	Contract string `json:"contract,omitempty"`
	// BodySHA256 is the hex SHA-256 of the bulk's body in record form: a
	// receipt's chunk hash when nothing changed.
	BodySHA256 string `json:"bodySha256,omitempty"`
	// Notes say what does not add up in the API's record itself.
	Notes []string `json:"notes,omitempty"`
	// Compared says a receipt or control totals were given and read;
	// Differences then lists what does not match, none meaning it all
	// matches.
	Compared    bool         `json:"compared,omitempty"`
	Differences []Difference `json:"differences,omitempty"`
	// Unread says why a receipt or a typed total could not be read:
	// nothing is compared with what cannot be read, and the bulk does not
	// match.
	Unread  []string    `json:"unread,omitempty"`
	Failure *APIFailure `json:"failure,omitempty"`
}

// Matches reports whether something was compared and nothing differs.
func (r BulkReview) Matches() bool {
	return r.Compared && len(r.Differences) == 0 && len(r.Unread) == 0 && r.Failure == nil
}

// An InvalidElement is an element of a bulk with errors.
type InvalidElement struct {
	// Element is its sequence in the bulk, from 0.
	Element int `json:"element"`
	// Problems say what is wrong, for operators.
	Problems []string `json:"problems"`
}

// A Difference is one thing the bulk does not hold as the receipt
// declared or the control totals say.
type Difference struct {
	// What is "bulk", "kind", "api", "count", "body", "total" or
	// "source", as bulkreview names them.
	What string `json:"what"`
	Text string `json:"text"`
	// Index is the element a difference is about (What "element",
	// "extra" or "order": its index in the bulk; "missing": its place in
	// the receipt), nil for one about the whole bulk.
	Index *int `json:"index,omitempty"`
}

// JobBulkRepeats looks for the elements of a reviewed bulk in the other
// bulks of this browser's journal and of the API's record (the checks of
// "never twice"), after JobReviewBulk has shown the bulk: reading the
// record may take longer than the review. Request: BulkRepeats. Result:
// BulkRepeatsFound. Progress: PhaseChecking.
const JobBulkRepeats = "bulk-repeats"

// BulkRepeats is the request of JobBulkRepeats.
type BulkRepeats struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
}

// BulkRepeatsFound is the result of JobBulkRepeats.
type BulkRepeatsFound struct {
	BulkID string `json:"bulkId"`
	// Repeats, nil when no other bulk holds an element and the record was
	// read, are the elements other bulks hold, or why the record could not
	// be read.
	Repeats *RepeatsInfo `json:"repeats,omitempty"`
	// Elements are every element other bulks hold, for the checker's
	// grid (Repeats lists the first few in words).
	Elements []ElementRepeat `json:"elements,omitempty"`
	Failure  *APIFailure     `json:"failure,omitempty"`
}

// ReviewRecordVersion is the version of ReviewRecord's layout.
const ReviewRecordVersion = 1

// A ReviewRecord is the checker's file of a review: what the bulk held
// when it was read back, what it was compared with and the verdict, and,
// once the bulk was executed through a server with the four-eyes rule,
// who approved it and when. The console writes it from a review it shows.
type ReviewRecord struct {
	Version int `json:"version"`
	// ReviewedBy is the operator signed in, as the server names them; ""
	// when it does not know. ReviewedAt is when the review was read.
	ReviewedBy string    `json:"reviewedBy,omitempty"`
	ReviewedAt time.Time `json:"reviewedAt"`
	// Receipt is the file name of the maker's receipt compared with, and
	// Control the control totals typed; Matches is the verdict.
	Receipt string `json:"receipt,omitempty"`
	// ServerReceipt says the bulk was compared with the receipt the
	// console's server kept of its submission (JobServerReceipt).
	ServerReceipt bool           `json:"serverReceipt,omitempty"`
	Control       *ControlTotals `json:"control,omitempty"`
	Matches       bool           `json:"matches"`
	Review        BulkReview     `json:"review"`
	// Repeats are the elements other bulks hold, when that was looked up.
	Repeats *RepeatsInfo `json:"repeats,omitempty"`
	// SubmittedBy and SubmittedAt, ApprovedBy and ApprovedAt are the
	// server's four-eyes record of the bulk: who submitted it, and who
	// executed it, which is the approval.
	SubmittedBy string     `json:"submittedBy,omitempty"`
	SubmittedAt *time.Time `json:"submittedAt,omitempty"`
	ApprovedBy  string     `json:"approvedBy,omitempty"`
	ApprovedAt  *time.Time `json:"approvedAt,omitempty"`
}
