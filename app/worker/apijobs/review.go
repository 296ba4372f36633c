package apijobs

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// reviewBulk runs worker.JobReviewBulk. It validates with the default
// contract: this worker holds no other (the contract in use lives in the
// first worker, with the documents).
func (s *Server) reviewBulk(c *runner.Call) (any, error) {
	var req worker.ReviewBulk
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	conn := req.Connection
	out := worker.BulkReview{BulkID: req.BulkID}
	// The receipt and the typed totals are read first: a checker's typo
	// is told before the bulk's operations are read, and never compared
	// as zero.
	var receipt *bulkreview.Receipt
	if req.Receipt != "" {
		r, err := bulkreview.ReadReceipt([]byte(req.Receipt))
		if err != nil {
			out.Unread = append(out.Unread, worker.Sentence(err.Error()))
		}
		receipt = r
	}
	var control *bulkreview.Control
	if req.Control != nil && (req.Control.Count != nil || len(req.Control.Totals) > 0) {
		control = &bulkreview.Control{Count: -1}
		if n := req.Control.Count; n != nil {
			if *n < 0 {
				out.Unread = append(out.Unread, fmt.Sprintf("The control count %d is not a count of elements.", *n))
			}
			control.Count = *n
		}
		seen := make(map[string]bool)
		for _, text := range req.Control.Totals {
			t, err := bulkreview.ParseControlTotal(text)
			if err != nil {
				out.Unread = append(out.Unread, worker.Sentence(err.Error()))
				continue
			}
			if seen[t.Currency] {
				out.Unread = append(out.Unread, fmt.Sprintf("Two control totals are typed for %s: type one per currency.", t.Currency))
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
		Validator: schema.Default(),
		Progress: func(done, total int) {
			c.Progress(worker.Progress{Phase: worker.PhaseReadingOperations, Done: done, Total: total})
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
		out.Failure = failureOf(err, nil)
		return out, nil
	}
	out.Kind, out.Status, out.Listed, out.Elements = rv.Kind.ID, string(rv.Status), rv.Listed, len(rv.Elements)
	out.MovesMoney = rv.Kind.MovesMoney()
	out.Totals = worker.TotalsOf(rv.Currencies)
	for _, src := range rv.Sources {
		out.Sources = append(out.Sources, worker.SourceTotal{Source: src.Source, Count: src.Count, Totals: worker.TotalsOf(src.Totals)})
	}
	out.InvalidCount = len(rv.Invalid)
	for _, i := range rv.Invalid[:min(len(rv.Invalid), worker.MaxReviewInvalid)] {
		el := worker.InvalidElement{Element: i}
		for _, p := range rv.Problems(i) {
			if p.Severity == schema.Error {
				el.Problems = append(el.Problems, worker.Sentence(p.Message))
			}
		}
		out.Invalid = append(out.Invalid, el)
	}
	out.BodySHA256, out.Notes = rv.BodySHA256, rv.Notes

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
	for _, d := range diffs {
		out.Differences = append(out.Differences, worker.Difference{What: d.What, Text: worker.Sentence(d.Text)})
	}
	return out, nil
}
