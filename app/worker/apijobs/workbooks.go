package apijobs

import (
	"context"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// elementsWorkbook runs handoff.ElementsWorkbookJob: elements to fix, with
// their notes, as a workbook (the first worker's wire.JobAsideWorkbook).
func (s *Server) elementsWorkbook(c *runner.Call) (any, error) {
	var req handoff.ElementsWorkbook
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	k, err := schema.Lookup(req.Kind)
	if err != nil {
		return nil, s.Failure(wire.CodeBadRequest, err)
	}
	elements, err := decodeElements(c.Data)
	if err != nil {
		return nil, err
	}
	data, err := workbook.ElementsWorkbook(k, req.Fields, elements, req.Notes)
	if err != nil {
		return nil, fmt.Errorf("writing the workbook: %w", err)
	}
	c.SetData(data)
	return wire.File{Name: req.Name, Type: wire.XLSXType, Rows: len(elements)}, nil
}

// errorWorkbook runs handoff.ErrorWorkbookJob: the error workbook of a
// document (the first worker's wire.JobExport).
func (s *Server) errorWorkbook(c *runner.Call) (any, error) {
	var req handoff.ErrorWorkbook
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Table == nil {
		return nil, s.Hidden(wire.CodeBadRequest, "the error workbook has no table")
	}
	r := &schema.Report{Kind: req.Kind, Elements: req.Elements, Problems: req.Problems}
	l, _ := lang.Parse(req.Lang)
	data, err := workbook.ErrorWorkbook(req.Table, req.Header, r, l)
	if err != nil {
		return nil, fmt.Errorf("writing the error workbook: %w", err)
	}
	out := req.Exported
	out.Size = len(data)
	c.SetData(data)
	return out, nil
}

// decodeElements reads elements written as a JSON array: by the first
// worker, or as a chunk's body.
func decodeElements(data []byte) ([]any, error) {
	v, _, err := schema.DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("reading the elements: %w", err)
	}
	elements, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("the elements are not an array")
	}
	return elements, nil
}

// resultWorkbook runs handoff.ResultWorkbookJob (the page's
// wire.JobResultWorkbook): the outcome of every element of the
// submission the bulk belongs to (or of the bulk alone, when this console
// did not submit it).
func (s *Server) resultWorkbook(c *runner.Call) (any, error) {
	var ho handoff.ResultWorkbook
	if err := c.Decode(&ho); err != nil {
		return nil, err
	}
	req := ho.Request
	ctx := c.Context()
	cl, fail := s.client(req.Connection)
	if fail != nil {
		return wire.ResultFile{Failure: fail}, nil
	}
	b, err := cl.Get(ctx, req.BulkID)
	if err != nil {
		return s.resultFailure(ctx, err)
	}
	kind, err := kindOfOperation(b.Operation, req.Connection.BackOffice)
	entries := s.submissionOf(ctx, req.BulkID, req.Connection.BackOffice)
	if len(entries) > 0 {
		kind, err = schema.Lookup(entries[0].Kind)
	}
	if err != nil {
		return nil, s.Failure(wire.CodeBadRequest, fmt.Errorf("bulk %s: %w", req.BulkID, err))
	}
	if len(entries) == 0 {
		// A bulk this console did not submit: its operations are its
		// elements, in sequence.
		entries = []submission.Entry{workbook.BulkEntry(b)}
	}
	total := 0
	for _, e := range entries {
		total += e.Elements.Len()
	}
	var readErr error
	rows, err := workbook.ResultRowsOf(kind, entries, func(e submission.Entry, before int) ([]bulkapi.Operation, error) {
		ops, err := s.allOperations(c, cl, e.BulkID, before, total)
		readErr = err
		return ops, err
	})
	if readErr != nil {
		return s.resultFailure(ctx, readErr)
	}
	if err != nil {
		return nil, err
	}
	c.Progress(wire.Progress{Phase: wire.PhaseWriting, Done: len(rows.Results), Total: len(rows.Results)})
	fields, ok := ho.Fields[kind.ID]
	if !ok {
		fields = schema.Default().Fields(kind)
	}
	data, err := workbook.ResultWorkbook(kind, fields, rows.Results, rows.Failed, rows.Notes)
	if err != nil {
		return nil, fmt.Errorf("writing the workbook: %w", err)
	}
	c.SetData(data)
	name := "bulk-" + req.BulkID
	if entries[0].Source != "" {
		name = wire.FileStem(entries[0].Source)
	}
	return wire.ResultFile{File: wire.File{Name: name + "-results.xlsx", Type: wire.XLSXType, Rows: len(rows.Results)}, Failed: len(rows.Failed)}, nil
}

func (s *Server) resultFailure(ctx context.Context, err error) (any, error) {
	if canceled(ctx, err) {
		return nil, err
	}
	return wire.ResultFile{Failure: s.failureOf(err, nil)}, nil
}

// allOperations reads every operation of a bulk, reporting progress after
// the before operations read already of total.
func (s *Server) allOperations(c *runner.Call, cl *bulkapi.Client, bulkID string, before, total int) ([]bulkapi.Operation, error) {
	return bulkreview.Operations(c.Context(), cl, bulkID, func(done, count int) {
		c.Progress(wire.Progress{Phase: wire.PhaseReadingOperations, Done: before + done, Total: max(total, before+count)})
	})
}

// submissionOf returns the journal entries of the submission that made
// the bulk, in chunk order, or nil.
func (s *Server) submissionOf(ctx context.Context, bulkID string, backOffice bool) []submission.Entry {
	e, ok := s.entriesByBulk(ctx)[bulkID+apiKey(backOffice)]
	if !ok {
		return nil
	}
	j, _, err := s.journal(ctx)
	if err != nil {
		return []submission.Entry{e}
	}
	sub, found, err := findSubmission(ctx, j, e.Submission)
	if err != nil || !found {
		return []submission.Entry{e}
	}
	return sub.Entries
}

// kindOfOperation finds the kind whose single operation a bulk runs.
func kindOfOperation(op string, backOffice bool) (*schema.Kind, error) {
	return bulkreview.KindOfOperation(op, backOffice)
}
