package approvals

import "time"

// A Record says who submitted a bulk, when, and to which API ("standard"
// or "backoffice").
type Record struct {
	BulkID      string    `json:"bulkId"`
	SubmittedBy string    `json:"submittedBy"`
	SubmittedAt time.Time `json:"submittedAt"`
	API         string    `json:"api"`
}
