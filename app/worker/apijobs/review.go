package apijobs

import (
	"context"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// reviewBulk runs wire.JobReviewBulk, handed over by the first worker
// with the contract in use there.
func (s *Server) reviewBulk(c *runner.Call) (any, error) {
	var h handoff.ReviewBulk
	if err := c.Decode(&h); err != nil {
		return nil, err
	}
	req := h.Request
	conn := req.Connection
	out := wire.BulkReview{BulkID: req.BulkID, Contract: h.Contract.Name()}
	v, err := s.validators.of(h.Contract)
	if err != nil {
		return nil, err
	}
	// The receipt and the typed totals are read first: a checker's typo
	// is told before the bulk's operations are read, and never compared
	// as zero.
	var receipt *bulkreview.Receipt
	if req.Receipt != "" {
		r, err := bulkreview.ReadReceipt([]byte(req.Receipt))
		if err != nil {
			out.Unread = append(out.Unread, wire.Sentence(err.Error()))
		}
		receipt = r
	}
	var control *bulkreview.Control
	if req.Control != nil && (req.Control.Count != nil || len(req.Control.Totals) > 0) {
		control = &bulkreview.Control{Count: -1}
		typed, _ := lang.Parse(req.Control.Lang)
		if n := req.Control.Count; n != nil {
			if *n < 0 {
				out.Unread = append(out.Unread, typed.F("The control count %d is not a count of elements.", *n))
			}
			control.Count = *n
		}
		seen := make(map[string]bool)
		for _, text := range req.Control.Totals {
			t, err := bulkreview.ParseControlTotal(text, typed.Separators())
			if err != nil {
				out.Unread = append(out.Unread, s.said(err))
				continue
			}
			if seen[t.Currency] {
				out.Unread = append(out.Unread, typed.F("Two control totals are typed for %s: type one per currency.", t.Currency))
				continue
			}
			seen[t.Currency] = true
			control.Totals = append(control.Totals, t)
		}
	}

	cl, fail := s.client(conn)
	if fail != nil {
		out.Failure = fail
		return out, nil
	}
	ctx := c.Context()
	opts := bulkreview.Options{
		Validator: v,
		Progress: func(done, total int) {
			c.Progress(wire.Progress{Phase: wire.PhaseReadingOperations, Done: done, Total: total})
		},
	}
	// The journal knows the kind the bulk was submitted as, which the
	// operation alone may not tell apart.
	if e, ok := s.entriesByBulk(ctx)[req.BulkID+apiKey(conn.BackOffice)]; ok {
		if k, err := schema.Lookup(e.Kind); err == nil {
			opts.Kind = k
		}
	}
	rv, err := bulkreview.Fetch(ctx, cl, req.BulkID, opts)
	if err != nil {
		if canceled(ctx, err) {
			return nil, err
		}
		out.Failure = s.failureOf(err, nil)
		return out, nil
	}
	out.Kind, out.Status, out.Listed, out.Elements = rv.Kind.ID, string(rv.Status), rv.Listed, len(rv.Elements)
	out.MovesMoney = rv.Kind.MovesMoney()
	out.Totals = wire.TotalsOf(rv.Currencies)
	out.SourceCount = len(rv.Sources)
	for _, src := range rv.Sources[:min(len(rv.Sources), wire.MaxReviewSources)] {
		out.Sources = append(out.Sources, wire.SourceTotal{Source: src.Source, Count: src.Count, Totals: wire.TotalsOf(src.Totals)})
	}
	out.InvalidCount = len(rv.Invalid)
	for _, i := range rv.Invalid[:min(len(rv.Invalid), wire.MaxReviewInvalid)] {
		el := wire.InvalidElement{Element: i}
		for _, p := range rv.Problems(i) {
			if p.Severity == schema.Error {
				el.Problems = append(el.Problems, wire.Sentence(p.Message))
			}
		}
		out.Invalid = append(out.Invalid, el)
	}
	out.BodySHA256, out.Notes = rv.BodySHA256, rv.Notes
	s.reviewed.keep(conn.BackOffice, rv)
	elements, err := reviewElements(rv)
	if err != nil {
		return nil, err
	}
	c.SetData(elements)

	var diffs []bulkreview.Difference
	if receipt != nil {
		out.Compared = true
		diffs = append(diffs, bulkreview.Compare(receipt, rv)...)
	}
	if control != nil {
		out.Compared = true
		diffs = append(diffs, control.Compare(rv)...)
	}
	if len(out.Unread) > 0 {
		out.Compared = true
	}
	out.Differences = differencesOf(diffs)
	return out, nil
}

// bulkRepeats runs wire.JobBulkRepeats, on the bulk the review just
// read, or on the bulk read again when this worker no longer holds it.
func (s *Server) bulkRepeats(c *runner.Call) (any, error) {
	var req wire.BulkRepeats
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	out := wire.BulkRepeatsFound{BulkID: req.BulkID}
	cl, rv, fail, err := s.reviewedBulk(c.Context(), req.Connection, req.BulkID)
	if fail != nil || err != nil {
		out.Failure = fail
		return out, err
	}
	out.Repeats, out.Elements, err = s.reviewRepeats(c, req.Connection, cl, rv)
	return out, err
}

// reviewedBulk returns the bulk the last review of the connection's API
// read, when it is bulkID, or reads it again, with the client that reads
// it; failure is the API's refusal.
func (s *Server) reviewedBulk(ctx context.Context, conn wire.Connection, bulkID string) (*bulkapi.Client, *bulkreview.Review, *wire.APIFailure, error) {
	cl, fail := s.client(conn)
	if fail != nil {
		return nil, nil, fail, nil
	}
	if rv := s.reviewed.get(conn.BackOffice, bulkID); rv != nil {
		return cl, rv, nil, nil
	}
	rv, err := bulkreview.Fetch(ctx, cl, bulkID, bulkreview.Options{})
	switch {
	case err == nil:
		return cl, rv, nil, nil
	case canceled(ctx, err):
		return nil, nil, nil, err
	}
	return nil, nil, s.failureOf(err, nil), nil
}

// reviewRepeats checks a reviewed bulk's elements against the other bulks
// of this browser's journal and of the API's record, as a submission is
// checked. A record that cannot be read is said, not fatal.
func (s *Server) reviewRepeats(c *runner.Call, conn wire.Connection, cl *bulkapi.Client, rv *bulkreview.Review) (*wire.RepeatsInfo, []wire.ElementRepeat, error) {
	ctx := c.Context()
	now := time.Now()
	var entries []submission.Entry
	if j, _, err := s.journal(ctx); err == nil {
		if entries, err = j.Entries(ctx); err != nil {
			return nil, nil, err
		}
	}
	rc := repeatCheck{toSend: len(rv.Elements), record: true}
	var err error
	if conn.RecordURL() == "" {
		// The bulk's operations were just read: this worker's record need
		// not read them again.
		err = rv.Remember(ctx, s.recordCache(), cl.BaseURL(), now)
	}
	var record *submission.Record
	if err == nil {
		c.Progress(wire.Progress{Phase: wire.PhaseChecking, Detail: "Checking the API's record of recent bulks for the same elements"})
		record, err = s.readRecord(c, conn, cl, rv.Kind)
	}
	switch {
	case canceled(ctx, err):
		return nil, nil, ctx.Err()
	case err != nil:
		rc.record, record = false, nil
		rc.failure = wire.Sentence(s.words.tag().F("The API's record of bulks could not be read (%s): only this browser's journal was checked", s.why(err)))
	}
	if rc.repeats, err = rv.Repeats(entries, record, now); err != nil {
		return nil, nil, err
	}
	each := make([]wire.ElementRepeat, len(rc.repeats))
	for i, r := range rc.repeats {
		each[i] = wire.ElementRepeat{Element: r.Element, BulkID: r.Earlier.BulkID, Others: r.Others}
	}
	return rc.info(), each, nil
}

// reviewedBulks holds the bulk each API's last review read, for the
// look-up of its repeats that follows it.
type reviewedBulks struct {
	mu   sync.Mutex
	last map[bool]*bulkreview.Review
}

func (r *reviewedBulks) keep(backOffice bool, rv *bulkreview.Review) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = make(map[bool]*bulkreview.Review)
	}
	r.last[backOffice] = rv
}

// get returns the bulk the last review of that API read, if it is bulkID.
func (r *reviewedBulks) get(backOffice bool, bulkID string) *bulkreview.Review {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rv := r.last[backOffice]; rv != nil && rv.BulkID == bulkID {
		return rv
	}
	return nil
}
