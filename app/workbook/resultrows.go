package workbook

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// ResultRows are what a result workbook holds (see ResultWorkbook): a
// result per element, and the elements of the failed and cancelled
// operations with a note each, to load again.
type ResultRows struct {
	Results []Result
	Failed  []any
	Notes   []string
}

// ReadOperations reads every operation of a submitted entry's bulk;
// before is how many operations of the submission were read already.
type ReadOperations func(e submission.Entry, before int) ([]bulkapi.Operation, error)

// BulkEntry stands for a bulk the journal does not know: its operations
// are its elements, in sequence.
func BulkEntry(b *bulkapi.BulkProcess) submission.Entry {
	return submission.Entry{BulkID: b.BulkID, State: submission.Submitted, Elements: submission.Spans{{From: 0, To: b.SubmittedItemsCount}}, Chunks: 1}
}

// ResultRowsOf maps the operations of every submitted entry of a
// submission of kind k (in chunk order) to the elements of the operator's
// request, with each element's key fields read from its operation, and
// the file, sheet and row the journal knows. An entry not submitted gives
// rows without a bulk, with key fields when the journal still holds its
// body. The first error of read is returned as it is.
func ResultRowsOf(k *schema.Kind, entries []submission.Entry, read ReadOperations) (*ResultRows, error) {
	out := &ResultRows{}
	before := 0
	for _, e := range entries {
		if e.State != submission.Submitted {
			out.unsent(k, e)
			continue
		}
		ops, err := read(e, before)
		if err != nil {
			return nil, err
		}
		before += len(ops)
		if err := out.sent(k, e, ops); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// unsent adds the rows of an entry whose chunk was not submitted.
func (rr *ResultRows) unsent(k *schema.Kind, e submission.Entry) {
	var elements []any
	if len(e.Body) > 0 {
		if doc, _, err := schema.DecodeJSON(e.Body); err == nil {
			elements, _ = doc.([]any)
		}
	}
	for i, el := range e.Elements.Indexes() {
		r := Result{Element: el, File: e.Source, Sequence: -1}
		r.Sheet, r.Row = e.Row(i)
		if i < len(elements) {
			r.Keys = k.KeyFields(elements[i])
		}
		rr.Results = append(rr.Results, r)
	}
}

// sent adds the rows of a submitted entry from its bulk's operations.
func (rr *ResultRows) sent(k *schema.Kind, e submission.Entry, ops []bulkapi.Operation) error {
	mapped, _ := submission.MapOperations(e, ops)
	byElement := make(map[int]submission.Result, len(mapped))
	for _, r := range mapped {
		byElement[r.Element] = r
	}
	opOf := make(map[int]*bulkapi.Operation, len(ops))
	for i := range ops {
		opOf[ops[i].Sequence] = &ops[i]
	}
	for i, el := range e.Elements.Indexes() {
		row := Result{Element: el, File: e.Source, BulkID: e.BulkID, Sequence: i}
		row.Sheet, row.Row = e.Row(i)
		if r, ok := byElement[el]; ok {
			row.Sequence, row.Status, row.Error, row.Response, row.OperationID = r.Sequence, string(r.Status), r.Error, r.Response, r.OperationID
		}
		op := opOf[row.Sequence]
		var elem any
		if op != nil {
			var err error
			elem, err = bulkreview.ElementOf(k, op)
			switch {
			case err == nil:
				row.Keys = k.KeyFields(elem)
			case row.Failed():
				// A failed row goes back to the operator, who must be
				// able to load it again.
				return fmt.Errorf("operation %d of bulk %s: %w", op.Sequence, e.BulkID, err)
			}
		}
		rr.Results = append(rr.Results, row)
		if !row.Failed() || op == nil {
			continue
		}
		rr.Failed = append(rr.Failed, elem)
		note := row.Status
		if row.Error != "" {
			note += ": " + row.Error
		}
		where := fmt.Sprintf("(was element %d) ", el)
		if row.Sheet != "" {
			where = fmt.Sprintf("(was %s row %d) ", row.Sheet, row.Row)
		}
		rr.Notes = append(rr.Notes, where+note)
	}
	return nil
}
