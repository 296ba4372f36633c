package apijobs

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// receipt runs wire.JobReceipt, from the plan this worker keeps after
// a submission (the journal keeps a chunk's body only until it is sent).
func (s *Server) receipt(c *runner.Call) (any, error) {
	var req wire.ReceiptRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	_, sub, err := s.journalSubmission(c.Context(), req.Submission)
	if err != nil {
		return nil, err
	}
	plan, err := s.submit.plan(req.Submission)
	if err != nil {
		return nil, s.Failure(wire.CodeGone, lang.Errorf("a receipt is written right after its submission, in the tab that sent it; this submission is no longer held here"))
	}
	elements, err := planElements(plan)
	if err != nil {
		return nil, err
	}
	first := sub.Entries[0]
	r, err := bulkreview.NewReceipt(plan, sub.Entries, elements, bulkreview.Declared{File: first.Source, Reading: req.Reading, SubmittedBy: req.SubmittedBy, SubmittedAt: first.Created})
	if err != nil {
		return nil, s.Failure(wire.CodeBadRequest, err)
	}
	out := wire.File{Name: wire.FileStem(first.Source) + ".receipt.json", Type: "application/json", Rows: r.Elements}
	var data []byte
	switch req.Format {
	case "", wire.ReceiptJSON:
		data, err = r.MarshalIndent()
	case wire.ReceiptPage:
		out.Name, out.Type = wire.FileStem(first.Source)+".receipt.html", "text/html"
		data, err = r.HTML()
	default:
		return nil, s.Hidden(wire.CodeBadRequest, fmt.Sprintf("a receipt is written as %s or %s, not %q", wire.ReceiptJSON, wire.ReceiptPage, req.Format))
	}
	if err != nil {
		return nil, fmt.Errorf("writing the receipt: %w", err)
	}
	c.SetData(data)
	return out, nil
}

// planElements reads the elements a plan's chunks send back from their
// bodies, at the indexes the chunks give them in the request.
func planElements(plan *submission.Plan) ([]any, error) {
	n := 0
	for _, c := range plan.Chunks {
		for _, i := range c.Elements.Indexes() {
			n = max(n, i+1)
		}
	}
	elements := make([]any, n)
	for _, c := range plan.Chunks {
		part, err := decodeElements(c.Body)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", c.Index+1, err)
		}
		idx := c.Elements.Indexes()
		if len(part) != len(idx) {
			return nil, fmt.Errorf("part %d does not hold its %d elements", c.Index+1, len(idx))
		}
		for k, i := range idx {
			elements[i] = part[k]
		}
	}
	return elements, nil
}
