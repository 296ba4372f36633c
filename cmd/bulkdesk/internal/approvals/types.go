package approvals

import "time"

// Records keep who submitted each bulk and who approved it: a file of
// this server's (Store, under -state-dir), or a database the servers
// behind one address share (-store). recordstest holds them all to the
// same behaviour.
type Records interface {
	// Put stores r unless its bulk already has a record, and says
	// whether it stored it: the first submitter stays.
	Put(r Record) (bool, error)
	// Get returns a bulk's record, and false when there is none.
	Get(bulkID string) (Record, bool, error)
	// Executed records user's execution of a recorded bulk that has none
	// yet: the first accepted execution is the approval.
	Executed(bulkID, user string, at time.Time) error
}

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
