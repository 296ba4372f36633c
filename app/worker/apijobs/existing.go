package apijobs

import (
	"context"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// repeatWatch is the Sender of a submission: it sends as the client does,
// and tells the bulks the API made for the submission from those it
// answered with because it had made them before.
//
// The API answers a repeat of an idempotency-ref with the same content by
// the bulk it made the first time, with the same 201 and the same body as
// a new bulk (the contract gives a bulk no creation time either). The
// same file sent earlier from another browser, or by the CLI, has the
// same refs, so its bulk comes back. What tells it apart: the bulk has
// already run (its state is no longer SUBMITTED), or the identity holds
// no more bulks after the answer than before the first attempt. Both are
// read best effort: without them the bulk counts as made, as before.
//
// A chunk whose journal entry shows an attempt of an earlier job is left
// out: its bulk may be this console's own, made by an attempt whose
// answer was lost.
type repeatWatch struct {
	cl      *bulkapi.Client
	journal submission.Journal
	plan    *submission.Plan
	// before is the identity's bulk count before the first attempt of
	// each ref, -1 when unknown or not checked.
	before map[string]int
	found  []wire.ExistingBulk
}

func newRepeatWatch(cl *bulkapi.Client, j submission.Journal, p *submission.Plan) *repeatWatch {
	return &repeatWatch{cl: cl, journal: j, plan: p, before: make(map[string]int)}
}

// IsBackOffice lets the Submitter check the plan's API.
func (w *repeatWatch) IsBackOffice() bool { return w.cl.IsBackOffice() }

// Submit sends one attempt of a chunk.
func (w *repeatWatch) Submit(ctx context.Context, k *schema.Kind, body []byte, ref string) (*bulkapi.Receipt, error) {
	if _, ok := w.before[ref]; !ok {
		w.before[ref] = -1
		if e, found, err := submission.Lookup(ctx, w.journal, ref); err == nil && found && e.Attempts <= 1 {
			w.before[ref] = w.bulkCount(ctx)
		}
	}
	rc, err := w.cl.Submit(ctx, k, body, ref)
	if err != nil || w.before[ref] < 0 {
		return rc, err
	}
	b, gerr := w.cl.Get(ctx, rc.BulkID)
	if gerr != nil {
		return rc, nil
	}
	old := b.Status != bulkapi.Submitted || b.ExecutionStart != 0
	if !old {
		after := w.bulkCount(ctx)
		old = after >= 0 && after <= w.before[ref]
	}
	if old {
		info := bulkInfo(b, submission.Entry{}, false)
		info.Kind = k.ID
		w.found = append(w.found, wire.ExistingBulk{Chunk: w.chunkOf(ref), Bulk: info})
	}
	return rc, nil
}

// bulkCount is how many bulks the identity holds, -1 when unknown.
func (w *repeatWatch) bulkCount(ctx context.Context) int {
	page, err := w.cl.List(ctx, bulkapi.ListQuery{Limit: 1})
	if err != nil {
		return -1
	}
	return page.Count
}

func (w *repeatWatch) chunkOf(ref string) int {
	for _, c := range w.plan.Chunks {
		if c.Ref == ref {
			return c.Index
		}
	}
	return -1
}
