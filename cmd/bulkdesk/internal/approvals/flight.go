package approvals

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/backoff"
)

// A Flight is one call the rule follows from before it goes to the API
// until its answer: a submission (Submitting, then Answered) or an
// execution (Executing, then End).
type Flight struct {
	user, api string
	// id names the InFlight record kept for it; "" when none was.
	id string
}

// ErrExecutionInFlight refuses a submission while an execution of the
// same operator's of a bulk the record does not know is on its way: the
// submission could make that bulk before the API receives the execution.
var ErrExecutionInFlight = errors.New("four eyes: an execution of yours of a bulk this server has no record of is on its way to the API; submit once it is answered")

// Submitting records, before a call of user's that may make a bulk goes
// to api, that it is on its way: until it is Answered, or lifetime has
// passed (its server stopped), an execution by user of a bulk the record
// does not know is refused, since the API makes a bulk before it answers.
// It is kept only when unknown bulks may be executed (AllowUnknown);
// otherwise they are refused anyway. An error means the call must not be
// sent: its bulk could be executed by its maker before it is recorded,
// or an execution of theirs of an unknown bulk is on its way
// (ErrExecutionInFlight).
func (r *Rule) Submitting(user, api string, lifetime time.Duration) (Flight, error) {
	if !r.AllowUnknown {
		return Flight{user: user, api: api}, nil
	}
	f, err := r.begin(InFlight{User: user, API: api}, lifetime)
	if err != nil {
		return Flight{}, err
	}
	// Each side records itself before it looks for the other (Executing),
	// so that of a submission and an execution begun at once, at least
	// one sees the other.
	flights, err := r.Records.Flights(r.now())
	if err != nil {
		_ = r.End(f) // else it lapses
		return Flight{}, err
	}
	for _, other := range flights {
		if other.BulkID != "" && strings.EqualFold(other.User, user) {
			_ = r.End(f)
			return Flight{}, ErrExecutionInFlight
		}
	}
	return f, nil
}

// Executing decides, as MayExecute does, whether user may execute bulkID,
// for an execution about to go to the API. One of a bulk the record does
// not know that it lets go is recorded as in flight first, and decided
// again, so that no submission of user's can make that bulk before the
// API has received the execution (Submitting refuses meanwhile); End the
// flight once the API answered.
func (r *Rule) Executing(bulkID, user string, lifetime time.Duration) (Decision, Flight) {
	d := r.MayExecute(bulkID, user)
	if !d.Allowed || d.Known || !r.AllowUnknown {
		return d, Flight{}
	}
	f, err := r.begin(InFlight{User: user, BulkID: bulkID}, lifetime)
	if err != nil {
		return Decision{Reason: RefusedError, Message: fmt.Sprintf("four eyes: the execution of bulk %s, which this server has no record of, could not be recorded before it was sent, so it is not executed", bulkID)}, Flight{}
	}
	if d = r.MayExecute(bulkID, user); !d.Allowed {
		_ = r.End(f)
		return d, Flight{}
	}
	return d, f
}

// begin records f as in flight for lifetime, under a new id.
func (r *Rule) begin(f InFlight, lifetime time.Duration) (Flight, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Flight{}, fmt.Errorf("naming %s's call in flight: %w", f.User, err)
	}
	f.ID, f.Since = hex.EncodeToString(b[:]), r.now().UTC()
	f.Until = f.Since.Add(lifetime)
	if err := r.Records.BeginFlight(f); err != nil {
		return Flight{}, err
	}
	return Flight{user: f.User, api: f.API, id: f.ID}, nil
}

// End ends the flight f, if one was kept.
func (r *Rule) End(f Flight) error {
	if f.id == "" {
		return nil
	}
	return r.Records.EndFlight(f.id)
}

// Made is what the server knows of the bulk a submission made.
type Made struct {
	// BulkID is the bulk the API's answer names; "" for none.
	BulkID string
	// Kind is the bulk's kind, as the submission's path names it.
	Kind string
	// FileName is the file the console said it submitted.
	FileName string
	// Receipt is the maker's receipt computed from the submission's
	// body, or nil; its maker and time are set to the record's.
	Receipt *bulkreview.Receipt
}

// Answered records what the API answered the submission f: made.BulkID,
// the bulk it made, with f's operator as its maker, and its receipt;
// made.BulkID "" when it made none (it refused the call, or the call
// makes no bulk). Only then does the flight end. A call whose answer
// never came, or does not say, is left to lapse.
//
// When the record cannot be written, the rule holds it, decides by it,
// and writes it again with a growing pause until it is stored or the
// rule is closed; the flight ends once it is stored, so that other
// servers sharing the records keep refusing the maker meanwhile.
func (r *Rule) Answered(f Flight, made Made) error {
	if made.BulkID != "" {
		rec := r.record(f, made)
		if _, err := r.Records.Put(rec); err != nil {
			r.hold(rec, f)
			return fmt.Errorf("%w (this server keeps it and writes it again)", err)
		}
	}
	return r.End(f)
}

// record is the record of the bulk f made. Its time is kept to the
// microsecond, as the shared database keeps it, so that both stores page
// the queue alike.
func (r *Rule) record(f Flight, made Made) Record {
	rec := Record{BulkID: r.key(made.BulkID), SubmittedBy: f.user, SubmittedAt: r.now().UTC().Truncate(time.Microsecond), API: f.api,
		Kind: made.Kind, FileName: made.FileName}
	if rc := made.Receipt; rc != nil {
		rc.SubmittedBy, rc.SubmittedAt, rc.File = rec.SubmittedBy, rec.SubmittedAt, made.FileName
		rec.Receipt, rec.Elements, rec.Totals = rc, rc.Elements, rc.Totals
		if rec.Kind == "" {
			rec.Kind = rc.Kind
		}
	}
	return rec
}

// hold keeps rec, which could not be written, and writes it again until
// it is stored or the rule is closed; then ends the flight.
func (r *Rule) hold(rec Record, f Flight) {
	r.held.put(rec)
	ctx := r.stopped()
	r.retries.Add(1)
	go func() {
		defer r.retries.Done()
		var pause backoff.Pause
		for pause.Wait(ctx) {
			if _, err := r.Records.Put(rec); err != nil {
				continue
			}
			// An approval or a cancellation given while it was held is
			// written too.
			if kept, ok := r.held.take(rec.BulkID); ok {
				if kept.ExecutedBy != "" {
					_ = r.Records.Executed(kept.BulkID, kept.ExecutedBy, *kept.ExecutedAt)
				}
				if kept.CancelledBy != "" {
					_ = r.Records.Cancelled(kept.BulkID, kept.CancelledBy, *kept.CancelledAt)
				}
			}
			_ = r.End(f) // else it lapses
			return
		}
	}()
}
