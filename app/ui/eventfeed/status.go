package eventfeed

import (
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// State says where the console's connection to the receiver stands.
type State string

// The states of a Service.
const (
	// StateIdle: not started.
	StateIdle State = "idle"
	// StateConnecting: listing the receiver's events and opening the stream.
	StateConnecting State = "connecting"
	// StateLive: the stream is open; events arrive as they are accepted.
	StateLive State = "live"
	// StateReconnecting: the stream dropped; it resumes after the newest
	// event held, by the browser's own retry or at Status.RetryAt.
	StateReconnecting State = "reconnecting"
	// StateNoReceiver: the server runs no webhook receiver.
	StateNoReceiver State = "no-receiver"
	// StateOffline: the server does not answer.
	StateOffline State = "offline"
)

// Status is the connection's state and what a page says about it.
type Status struct {
	State State
	// Since is when the connection entered State.
	Since time.Time
	// Online is false while the console knows its server does not answer
	// (its connectivity probe failed), whatever the stream last said.
	Online bool
	// Newest is the sequence number of the newest event the stream (or
	// the listing before it) brought, after which a resumed stream starts.
	Newest uint64
	// Problem says what went wrong last, for people; "" when nothing did.
	Problem string
	// RetryAt is when the Service tries again, when it has scheduled it.
	RetryAt time.Time
	// Gaps are the stretches of events that left the receiver's memory
	// before the console could fetch them, oldest first (the last
	// maxGaps).
	Gaps []Gap
	// Restarted is when the console last found that the receiver had
	// started a new numbering of events; zero if it has not.
	Restarted time.Time
}

// Gap is a stretch of events the console missed: the receiver no longer
// had them when the stream resumed.
type Gap struct {
	// After is the newest event the console had; Oldest the oldest the
	// receiver still had. Events After+1 to Oldest-1 are missing.
	After  uint64 `json:"after"`
	Oldest uint64 `json:"oldest"`
	// At is when the console learned of the gap.
	At time.Time `json:"-"`
}

// Missing returns how many events the gap lost.
func (g Gap) Missing() uint64 {
	if g.Oldest <= g.After+1 {
		return 0
	}
	return g.Oldest - g.After - 1
}

// maxGaps is how many gaps a Status keeps.
const maxGaps = 10

// Update is what a subscriber is told: the events that arrived since the
// last update and the connection's status.
type Update struct {
	// Added are the events new to the feed, in order of arrival: listed,
	// streamed or backfilled.
	Added []webhook.Event
	// Reset says the feed was emptied because the receiver started a new
	// numbering; Added then holds only events of the new one.
	Reset  bool
	Status Status
}
