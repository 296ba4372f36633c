package approvals

import (
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
)

// Records keep who submitted each bulk and who approved it: a file of
// this server's (Store, under -state-dir), or a database the servers
// behind one address share (-store). recordstest holds them all to the
// same behaviour.
type Records interface {
	// Put stores r, with r.Receipt, unless its bulk already has a
	// record, and says whether it stored it: the first submitter, and
	// their receipt, stay.
	Put(r Record) (bool, error)
	// Get returns a bulk's record without its receipt, and false when
	// there is none.
	Get(bulkID string) (Record, bool, error)
	// Receipt returns the receipt kept with a bulk's record, and false
	// when there is none.
	Receipt(bulkID string) (*bulkreview.Receipt, bool, error)
	// Executed records user's execution of a recorded bulk that has none
	// yet: the first accepted execution is the approval.
	Executed(bulkID, user string, at time.Time) error
	// Cancelled records user's cancellation of a recorded bulk that has
	// none yet.
	Cancelled(bulkID, user string, at time.Time) error
	// Settled records the state the API gave a recorded bulk that still
	// awaits a second operator here, when it is no longer SUBMITTED: it
	// was executed or cancelled around the server.
	Settled(bulkID string, apiStatus bulkapi.Status) error
	// Awaiting returns the records of p.Scope awaiting a second operator
	// (neither executed nor cancelled), newest first, from p's cursor
	// on, at most p.Limit.
	Awaiting(p Page) ([]Record, error)

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
	// Kind is the bulk's kind as the submission's path names it; "" when
	// the path names none the server knows.
	Kind string `json:"kind,omitempty"`
	// FileName is the file the console said it submitted.
	FileName string `json:"fileName,omitempty"`
	// Elements and Totals are those of Receipt, for the approval queue,
	// which lists them without reading every receipt.
	Elements int                 `json:"elements,omitempty"`
	Totals   []bulkreview.Amount `json:"totals,omitempty"`
	// ExecutedBy and ExecutedAt are set when the API accepted the
	// execution of the bulk by ExecutedBy.
	ExecutedBy string     `json:"executedBy,omitempty"`
	ExecutedAt *time.Time `json:"executedAt,omitempty"`
	// CancelledBy and CancelledAt are set when the API accepted the
	// cancellation of the bulk by CancelledBy.
	CancelledBy string     `json:"cancelledBy,omitempty"`
	CancelledAt *time.Time `json:"cancelledAt,omitempty"`
	// APIStatus is the state the API gave the bulk, awaiting a second
	// operator here, once it was executed or cancelled around the server.
	APIStatus bulkapi.Status `json:"apiStatus,omitempty"`
	// Receipt is the maker's receipt the server computed from the
	// submission it passed on, or nil. Put keeps it apart: Get leaves it
	// out, since deciding who may execute needs none of it and a bulk
	// of 10,000 elements drawn on as many sources has a receipt of
	// megabytes; Records.Receipt reads it.
	Receipt *bulkreview.Receipt `json:"-"`
}

// Where a recorded bulk stands for the four-eyes rule (Record.State).
const (
	// StateAwaiting: neither executed nor cancelled, as far as the
	// server knows.
	StateAwaiting = "awaiting"
	// StateExecuted: another operator executed it through the server
	// (the approval), or the API says it ran.
	StateExecuted = "executed"
	// StateCancelled: an operator cancelled it, before or after it was
	// executed, or the API says it is cancelled.
	StateCancelled = "cancelled"
)

// State says where the bulk stands: a cancellation is the last word,
// then an execution.
func (r Record) State() string {
	switch {
	case r.CancelledBy != "" || r.APIStatus == bulkapi.Cancelled:
		return StateCancelled
	case r.ExecutedBy != "" || r.APIStatus != "":
		return StateExecuted
	}
	return StateAwaiting
}

// A Page asks for some of the bulks awaiting a second operator: those of
// Scope (see Rule.Scope; "" for the bulk ids without one) submitted
// before Before, or at Before with a bulk id (as kept: Scope/ID) before
// BeforeID; zero Before means from the newest. Ties of time are ordered
// by bulk id, byte by byte, so that a page never splits them.
type Page struct {
	Scope    string
	Before   time.Time
	BeforeID string
	Limit    int
}

// scopeOf returns the scope of a bulk's key in the records: what comes
// before its "/", or "" (see Rule.key).
func scopeOf(key string) string {
	scope, _, found := strings.Cut(key, "/")
	if !found {
		return ""
	}
	return scope
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
