package apijobs

import (
	"fmt"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// totalsCache keeps the totals of the bulks already summed: a bulk's
// operations, and so its amounts, never change once it is submitted.
type totalsCache struct {
	mu sync.Mutex
	m  map[string]wire.BulkTotals
}

func (tc *totalsCache) get(key string) (wire.BulkTotals, bool) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	t, ok := tc.m[key]
	return t, ok
}

func (tc *totalsCache) put(key string, t wire.BulkTotals) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.m == nil {
		tc.m = make(map[string]wire.BulkTotals)
	}
	tc.m[key] = t
}

// bulkTotals runs wire.JobBulkTotals: the elements of the bulk are its
// operations' request payloads, summed as the confirmation before a
// submission sums a file (submission.ControlTotals).
func (s *Server) bulkTotals(c *runner.Call) (any, error) {
	var req wire.GetBulkTotals
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	conn := req.Connection
	key := strings.Join([]string{conn.APIURL, conn.BackOfficeURL, apiKey(conn.BackOffice), req.BulkID}, "\x00")
	if t, ok := s.totals.get(key); ok {
		return t, nil
	}
	out := wire.BulkTotals{BulkID: req.BulkID}
	cl, fail := s.client(conn)
	if fail != nil {
		out.Failure = fail
		return out, nil
	}
	ctx := c.Context()
	b, err := cl.Get(ctx, req.BulkID)
	if err != nil {
		if canceled(ctx, err) {
			return nil, err
		}
		out.Failure = s.failureOf(err, nil)
		return out, nil
	}
	kind, err := kindOfOperation(b.Operation, conn.BackOffice)
	if e, ok := s.entriesByBulk(ctx)[req.BulkID+apiKey(conn.BackOffice)]; ok {
		kind, err = schema.Lookup(e.Kind)
	}
	if err != nil {
		return nil, s.Failure(wire.CodeBadRequest, fmt.Errorf("bulk %s: %w", req.BulkID, err))
	}
	out.Kind, out.MovesMoney, out.Elements = kind.ID, kind.MovesMoney(), b.SubmittedItemsCount
	if kind.MovesMoney() {
		ops, err := s.allOperations(c, cl, req.BulkID, 0, b.SubmittedItemsCount)
		if err != nil {
			if canceled(ctx, err) {
				return nil, err
			}
			out.Failure = s.failureOf(err, nil)
			return out, nil
		}
		elements := make([]any, len(ops))
		for i := range ops {
			// A payload that does not decode has no readable amount:
			// ControlTotals leaves it out, as it does in a file.
			if el, err := bulkreview.ElementOf(kind, &ops[i]); err == nil {
				elements[i] = el
			}
		}
		plan := &submission.Plan{Kind: kind, Elements: len(ops), Chunks: []submission.Chunk{{Elements: submission.Spans{{From: 0, To: len(ops)}}}}}
		out.Elements = len(ops)
		out.Totals = wire.TotalsOf(submission.ControlTotals(plan, elements).Amounts)
	}
	s.totals.put(key, out)
	return out, nil
}
