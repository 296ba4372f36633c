package approvals

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
)

// Why an execution was refused; the values label the refusals metric.
const (
	RefusedSameOperator = "same_operator"
	RefusedUnknown      = "unknown_bulk"
	RefusedNoUser       = "no_user"
	RefusedError        = "record_unreadable"
	// RefusedInFlight: the bulk is unknown, and a submission of the same
	// operator's is on its way to the API, which may have made it.
	RefusedInFlight = "submission_in_flight"
)

// Rule is a server's four-eyes rule: whoever submitted a bulk may not
// execute it. Close it to stop writing the records it holds (Answered).
type Rule struct {
	Records Records
	// AllowUnknown lets a bulk the record does not know be executed (one
	// submitted elsewhere, or before the rule was on); by default it is
	// refused, since nobody can say who its maker was. An operator with a
	// submission in flight is refused all the same (Submitting), and an
	// execution it lets go is followed until answered (Executing).
	AllowUnknown bool
	// Now is the clock of the records; nil means time.Now.
	Now func() time.Time
	// Scope, when set, keeps this rule's bulks apart from those of
	// another API that shares the records and whose bulk ids could be the
	// same (the sandbox beside a real API): they are kept as Scope/ID,
	// which no bulk id of the API can be (plainID). Submissions in flight
	// are not scoped: an operator's submission holds back their
	// executions of unknown bulks of either API.
	Scope string

	// held keeps, by key, the answered submissions whose record could
	// not be written yet, while retry writes them.
	held    held
	retries sync.WaitGroup
}

// A Decision is the rule's answer for one operator and one bulk.
type Decision struct {
	Allowed bool
	// Reason is one of the Refused… values when not allowed.
	Reason string
	// Message says why, in words an operator reads.
	Message string
	// Known says whether Record holds the bulk's submission.
	Known  bool
	Record Record
}

func (r *Rule) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// key is the name of bulkID in the records.
func (r *Rule) key(bulkID string) string {
	if r.Scope == "" {
		return bulkID
	}
	return r.Scope + "/" + bulkID
}

// Submitted records that user submitted bulkID to api. A bulk already
// recorded keeps its first submitter.
func (r *Rule) Submitted(bulkID, user, api string) error {
	return r.Answered(Flight{user: user, api: api}, Made{BulkID: bulkID})
}

// Executed records that the API accepted user's execution of bulkID: the
// second operator's approval.
func (r *Rule) Executed(bulkID, user string) error {
	key, at := r.key(bulkID), r.now()
	r.held.executed(key, user, at)
	return r.Records.Executed(key, user, at)
}

// Cancelled records that the API accepted user's cancellation of bulkID:
// the bulk no longer awaits a second operator.
func (r *Rule) Cancelled(bulkID, user string) error {
	key, at := r.key(bulkID), r.now()
	r.held.cancelled(key, user, at)
	return r.Records.Cancelled(key, user, at)
}

// Settled records the state the API gave bulkID when an answer through
// the server said it: a bulk no longer SUBMITTED was executed or
// cancelled, through this server or around it, and leaves the queue.
// A bulk's page reads it again and again while it runs: only a record
// awaiting a second operator is written.
func (r *Rule) Settled(bulkID string, apiStatus bulkapi.Status) error {
	key := r.key(bulkID)
	rec, found, err := r.lookup(key)
	if err != nil || !found || rec.State() != StateAwaiting || apiStatus == bulkapi.Submitted {
		return err
	}
	return r.Records.Settled(key, apiStatus)
}

// MayExecute decides whether user may execute bulkID. Names are compared
// without regard to case, so that "Alice" and "alice" of a sign-on portal
// count as the one person they most likely are.
func (r *Rule) MayExecute(bulkID, user string) Decision {
	if user == "" {
		return Decision{Reason: RefusedNoUser, Message: "four eyes: executing a bulk needs a signed-in operator"}
	}
	unreadable := Decision{Reason: RefusedError, Message: fmt.Sprintf("four eyes: the record of who submitted bulk %s could not be read, so it is not executed", bulkID)}
	key := r.key(bulkID)
	rec, found, err := r.lookup(key)
	if err != nil {
		return unreadable
	}
	if !found && r.AllowUnknown {
		// A submission is recorded when the API answers it, after the
		// bulk exists, and ends after that: a submission of this
		// operator's in flight may have made the bulk, and one that ended
		// before this reading was recorded before the second lookup.
		flights, err := r.Records.Flights(r.now())
		if err != nil {
			return unreadable
		}
		for _, f := range flights {
			if f.BulkID == "" && strings.EqualFold(f.User, user) {
				return Decision{Reason: RefusedInFlight, Message: fmt.Sprintf("four eyes: this server has no record of who submitted bulk %s yet, and a submission of yours (to the %s API, since %s) still awaits its answer and may have made it, so it is not executed; another operator must execute your bulks", bulkID, f.API, f.Since.UTC().Format(time.RFC3339))}
			}
		}
		if rec, found, err = r.lookup(key); err != nil {
			return unreadable
		}
	}
	rec.BulkID = bulkID
	switch {
	case !found && r.AllowUnknown:
		return Decision{Allowed: true}
	case !found:
		return Decision{Reason: RefusedUnknown, Message: fmt.Sprintf("four eyes: this server has no record of who submitted bulk %s (it was submitted elsewhere, or before -four-eyes was on), so another operator cannot be confirmed; -four-eyes-unknown allow lets such bulks be executed", bulkID)}
	case strings.EqualFold(rec.SubmittedBy, user):
		return Decision{Reason: RefusedSameOperator, Known: true, Record: rec,
			Message: fmt.Sprintf("four eyes: bulk %s was submitted by %s; another operator must execute it", bulkID, rec.SubmittedBy)}
	}
	return Decision{Allowed: true, Known: true, Record: rec}
}

// lookup reads a bulk's record, held or written.
func (r *Rule) lookup(key string) (Record, bool, error) {
	if rec, ok := r.held.get(key); ok {
		return rec, true, nil
	}
	return r.Records.Get(key)
}

// Close stops writing the records the rule holds and waits until it has:
// a server stopping forgets them (their submissions lapse, see
// Submitting).
func (r *Rule) Close() {
	r.held.stop()
	r.retries.Wait()
}

// stopped is done once the rule is closed.
func (r *Rule) stopped() context.Context { return r.held.context() }
