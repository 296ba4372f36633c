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

	// BeginFlight keeps f until EndFlight or until f.Until, and forgets
	// the flights that lapsed before f.Since.
	BeginFlight(f InFlight) error
	// EndFlight forgets the flight id names; an unknown id is no error.
	EndFlight(id string) error
	// Flights returns the flights begun and not ended whose Until is
	// after at: few, one per call on its way to the API.
	Flights(at time.Time) ([]InFlight, error)
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

// InFlight is a call on its way to the API that the rule must know of
// before it goes, since the API acts on it before it answers: a
// submission (BulkID "") makes a bulk that is unknown until its answer is
// recorded; an execution of a bulk the record does not know (BulkID) must
// not reach the API after a submission of the same operator's made that
// bulk. It ends once its answer is recorded; a server that stops without
// ending it leaves it to lapse at Until.
type InFlight struct {
	// ID names the call, unique among the servers sharing the records.
	ID   string `json:"id"`
	User string `json:"user"`
	API  string `json:"api,omitempty"`
	// BulkID is the bulk an execution names; "" for a submission.
	BulkID string    `json:"bulkId,omitempty"`
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until"`
}
