package apijobs

import (
	"context"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// entriesByBulk returns the journal's submitted entries by bulk id; an
// unreadable journal gives none, since the API's answer stands without it.
func (s *Server) entriesByBulk(ctx context.Context) map[string]submission.Entry {
	out := make(map[string]submission.Entry)
	j, _, err := s.journal(ctx)
	if err != nil {
		return out
	}
	all, err := j.Entries(ctx)
	if err != nil {
		return out
	}
	for _, e := range all {
		if e.BulkID != "" {
			out[e.BulkID+apiKey(e.BackOffice)] = e
		}
	}
	return out
}

// apiKey keeps the bulks of the two APIs apart in entriesByBulk.
func apiKey(backOffice bool) string {
	if backOffice {
		return "@back-office"
	}
	return ""
}

// bulkInfo describes a bulk process, with what the journal knows of it.
func bulkInfo(b *bulkapi.BulkProcess, e submission.Entry, known bool) wire.BulkInfo {
	info := wire.BulkInfo{
		BulkID: b.BulkID, Status: string(b.Status), Operations: b.SubmittedItemsCount, Done: b.Done(),
		Operation: b.Operation, Mode: string(b.Mode), Started: b.ExecutionStart, Finished: b.ExecutionFinish,
		Final: b.Status.Final(),
	}
	if len(b.OperationStatusCounts) > 0 {
		info.Counts = make(map[string]int)
		for _, c := range b.OperationStatusCounts {
			info.Counts[string(c.Status)] += c.Count
		}
	}
	for _, a := range b.Status.Actions() {
		info.Actions = append(info.Actions, string(a))
	}
	if k, err := kindOfOperation(b.Operation, false); err == nil {
		info.Kind = k.ID
	} else if k, err := kindOfOperation(b.Operation, true); err == nil {
		info.Kind = k.ID
	}
	if known {
		info.Source, info.Submission, info.Chunk, info.Chunks = e.Source, e.Submission, e.Chunk, e.Chunks
		info.Kind = e.Kind
		if e.State == submission.Submitted && !e.Updated.IsZero() {
			info.Submitted = e.Updated.UnixMilli()
		}
	}
	return info
}

// listBulks runs wire.JobBulks.
func (s *Server) listBulks(c *runner.Call) (any, error) {
	var req wire.ListBulks
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	out := wire.BulkList{Offset: req.Offset, Bulks: []wire.BulkInfo{}}
	cl, fail := s.client(req.Connection)
	if fail != nil {
		out.Failure = fail
		return out, nil
	}
	page, err := cl.List(c.Context(), bulkapi.ListQuery{Status: bulkapi.Status(req.Status), Offset: req.Offset, Limit: pageLimit(req.Limit)})
	if err != nil {
		if canceled(c.Context(), err) {
			return nil, err
		}
		out.Failure = s.failureOf(err, nil)
		return out, nil
	}
	known := s.entriesByBulk(c.Context())
	out.Count = page.Count
	for i := range page.Bulks {
		b := &page.Bulks[i]
		e, ok := known[b.BulkID+apiKey(req.Connection.BackOffice)]
		out.Bulks = append(out.Bulks, bulkInfo(b, e, ok))
	}
	return out, nil
}

// getBulk runs wire.JobBulk.
func (s *Server) getBulk(c *runner.Call) (any, error) {
	var req wire.GetBulk
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	return s.details(c.Context(), req.Connection, req.BulkID, nil)
}

// details reads a bulk's details; run, when not nil, acts on it first.
func (s *Server) details(ctx context.Context, conn wire.Connection, id string, run func(*bulkapi.Client) error) (wire.BulkResult, error) {
	cl, fail := s.client(conn)
	if fail != nil {
		return wire.BulkResult{Failure: fail}, nil
	}
	var out wire.BulkResult
	if run != nil {
		if err := run(cl); err != nil {
			if canceled(ctx, err) {
				return out, err
			}
			out.Failure = s.failureOf(err, nil)
		}
	}
	b, err := cl.Get(ctx, id)
	if err != nil {
		if canceled(ctx, err) {
			return out, err
		}
		if out.Failure == nil {
			out.Failure = s.failureOf(err, nil)
		}
		return out, nil
	}
	e, ok := s.entriesByBulk(ctx)[id+apiKey(conn.BackOffice)]
	info := bulkInfo(b, e, ok)
	out.Bulk = &info
	return out, nil
}

// bulkAction runs wire.JobBulkAction.
func (s *Server) bulkAction(c *runner.Call) (any, error) {
	var req wire.BulkAction
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	a := bulkapi.Action(req.Action)
	switch a {
	case bulkapi.Execute, bulkapi.Pause, bulkapi.Resume, bulkapi.Cancel:
	default:
		return nil, s.Hidden(wire.CodeBadRequest, fmt.Sprintf("unknown action %q", req.Action))
	}
	return s.details(c.Context(), req.Connection, req.BulkID, func(cl *bulkapi.Client) error {
		if a == bulkapi.Execute {
			return cl.Execute(c.Context(), req.BulkID, bulkapi.ExecuteOptions{Mode: bulkapi.Mode(req.Mode)})
		}
		return cl.Do(c.Context(), req.BulkID, a)
	})
}

// listOperations runs wire.JobOperations.
func (s *Server) listOperations(c *runner.Call) (any, error) {
	var req wire.ListOperations
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	out := wire.OperationList{Offset: req.Offset, Operations: []wire.OperationInfo{}}
	cl, fail := s.client(req.Connection)
	if fail != nil {
		out.Failure = fail
		return out, nil
	}
	page, err := cl.Operations(c.Context(), req.BulkID, bulkapi.OperationQuery{Status: bulkapi.OperationStatus(req.Status), Offset: req.Offset, Limit: pageLimit(req.Limit)})
	if err != nil {
		if canceled(c.Context(), err) {
			return nil, err
		}
		out.Failure = s.failureOf(err, nil)
		return out, nil
	}
	out.Count = page.Count
	e, known := s.entriesByBulk(c.Context())[req.BulkID+apiKey(req.Connection.BackOffice)]
	placed := make(map[int]submission.Result)
	if known {
		results, _ := submission.MapOperations(e, page.Operations)
		for _, r := range results {
			placed[r.Sequence] = r
		}
	}
	kind := keysKind(e, known, page.Operations, req.Connection.BackOffice)
	if kind != nil {
		out.MovesMoney, out.HasReference, out.ReceiverType = kind.MovesMoney(), kind.Reference != "", kind.ReceiverType
	}
	for _, op := range page.Operations {
		info := wire.OperationInfo{Sequence: op.Sequence, OperationID: op.OperationID, Status: string(op.Status), Element: -1}
		if kind != nil {
			if el, err := bulkreview.ElementOf(kind, &op); err == nil {
				info.Keys = kind.KeyFields(el)
			}
		}
		if op.Method != "" || op.Path != "" {
			info.Call = op.Method + " " + op.Path
		}
		if op.Status == bulkapi.OpFailed || op.Status == bulkapi.OpCancelled {
			info.Error = op.Failure()
		}
		if r, ok := placed[op.Sequence]; ok {
			info.Element, info.Sheet, info.Row = r.Element, r.Sheet, r.Row
		}
		out.Operations = append(out.Operations, info)
	}
	return out, nil
}

// keysKind is the kind whose key fields a page of operations holds: the
// journal's, or the one their calls name; nil when neither says.
func keysKind(e submission.Entry, known bool, ops []bulkapi.Operation, backOffice bool) *schema.Kind {
	if known {
		if k, err := schema.Lookup(e.Kind); err == nil {
			return k
		}
	}
	for _, op := range ops {
		if k, err := bulkreview.KindOfCall(op.Method, op.Path, backOffice); err == nil {
			return k
		}
	}
	return nil
}

// pageLimit is the page size asked: the API's largest unless smaller.
func pageLimit(limit int) int {
	if limit <= 0 || limit > bulkapi.MaxPageSize {
		return bulkapi.MaxPageSize
	}
	return limit
}
