package approvals

import (
	"fmt"
	"strings"
	"time"
)

// Why an execution was refused; the values label the refusals metric.
const (
	RefusedSameOperator = "same_operator"
	RefusedUnknown      = "unknown_bulk"
	RefusedNoUser       = "no_user"
	RefusedError        = "record_unreadable"
)

// Rule is a server's four-eyes rule: whoever submitted a bulk may not
// execute it.
type Rule struct {
	Records Records
	// AllowUnknown lets a bulk the record does not know be executed (one
	// submitted elsewhere, or before the rule was on); by default it is
	// refused, since nobody can say who its maker was.
	AllowUnknown bool
	// Now is the clock of the records; nil means time.Now.
	Now func() time.Time
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

// Submitted records that user submitted bulkID to api. A bulk already
// recorded keeps its first submitter.
func (r *Rule) Submitted(bulkID, user, api string) error {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	_, err := r.Records.Put(Record{BulkID: bulkID, SubmittedBy: user, SubmittedAt: now().UTC(), API: api})
	return err
}

// Executed records that the API accepted user's execution of bulkID: the
// second operator's approval.
func (r *Rule) Executed(bulkID, user string) error {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return r.Records.Executed(bulkID, user, now())
}

// MayExecute decides whether user may execute bulkID. Names are compared
// without regard to case, so that "Alice" and "alice" of a sign-on portal
// count as the one person they most likely are.
func (r *Rule) MayExecute(bulkID, user string) Decision {
	if user == "" {
		return Decision{Reason: RefusedNoUser, Message: "four eyes: executing a bulk needs a signed-in operator"}
	}
	rec, found, err := r.Records.Get(bulkID)
	switch {
	case err != nil:
		return Decision{Reason: RefusedError, Message: fmt.Sprintf("four eyes: the record of who submitted bulk %s could not be read, so it is not executed", bulkID)}
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
