package approvals

import "time"

// A Record says who submitted a bulk, when, and to which API ("standard"
// or "backoffice"); once another operator has executed it through the
// server, who approved it and when.
type Record struct {
	BulkID      string    `json:"bulkId"`
	SubmittedBy string    `json:"submittedBy"`
	SubmittedAt time.Time `json:"submittedAt"`
	API         string    `json:"api"`
	// ExecutedBy and ExecutedAt are set when the API accepted the
	// execution of the bulk by ExecutedBy.
	ExecutedBy string     `json:"executedBy,omitempty"`
	ExecutedAt *time.Time `json:"executedAt,omitempty"`
}
