package jobs

import (
	"context"
	"slices"

	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// The changes an operator made to a document's cells, to undo last first
// (wire.JobUndo). The history is the file's, not the review's: it
// outlives a rebuild of the review (another mapping or setting), as the
// edits do, and goes when the file is read again, which throws the edits
// away. Each change is tied to its op in the draft, which leaves the draft
// when the change is undone: a reload replays the changes still standing,
// and rebuilds this history from them.

// editHistory is a document's changes to cells, oldest first.
type editHistory struct {
	// of holds the edited cells: the table read from the file, or the
	// file of a request body.
	of    any
	steps []editStep
	// was holds each edited cell's text before its first change, and the
	// step that made that change.
	was map[review.CellKey]firstChange
}

// An editStep is one change and the seq of its op in the draft (0 when
// the draft did not record it).
type editStep struct {
	seq    int
	change review.Change
}

type firstChange struct {
	text string
	step int
}

// edits returns d's history of changes, emptied when the cells it names
// were read again from the file.
func (d *LoadedFile) edits() *editHistory {
	var of any = d.file
	if d.table != nil {
		of = d.table
	}
	if d.history.of != of {
		d.history = editHistory{of: of}
	}
	return &d.history
}

// push adds a change; one that changed nothing is not one to undo.
func (h *editHistory) push(seq int, c review.Change) {
	if c.Len() == 0 {
		return
	}
	if h.was == nil {
		h.was = make(map[review.CellKey]firstChange)
	}
	for _, b := range c.Before() {
		if _, seen := h.was[b.Key]; !seen {
			h.was[b.Key] = firstChange{text: b.Text, step: len(h.steps)}
		}
	}
	h.steps = append(h.steps, editStep{seq: seq, change: c})
}

// pop removes the last change; its cells are no longer edited unless an
// earlier change edited them too.
func (h *editHistory) pop() {
	last := len(h.steps) - 1
	for k, f := range h.was {
		if f.step == last {
			delete(h.was, k)
		}
	}
	h.steps = h.steps[:last]
}

// markEdited marks the cells of a row of d the operator changed.
func markEdited(d *LoadedFile, g *wire.GridRow) {
	h := d.edits()
	if len(h.was) == 0 {
		return
	}
	for c := range g.Cells {
		key, ok := d.review.CellKey(g.Element, c)
		if !ok {
			continue
		}
		if f, ok := h.was[key]; ok {
			g.Edited = append(g.Edited, wire.EditedCell{Column: c, Was: f.text})
		}
	}
}

// undo runs wire.JobUndo.
func (s *Server) undo(c *runner.Call) (any, error) {
	var req wire.Undo
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	h := d.edits()
	out := wire.Undone{Element: -1, Column: -1}
	if len(h.steps) == 0 {
		out.Summary = s.summary(d)
		return out, nil
	}
	step := h.steps[len(h.steps)-1]
	changed, err := d.review.Undo(step.change)
	if err != nil {
		return nil, s.failure(wire.CodeBadRequest, err)
	}
	h.pop()
	s.dropFromDraft(c.Context(), d, step.seq)
	out.Cells = step.change.Len()
	if len(changed) > 0 {
		out.Element = changed[0]
		row := d.review.Row(out.Element)
		out.Label = row.Label
		first := step.change.Before()[0]
		for col := range d.review.Columns() {
			if key, ok := d.review.CellKey(out.Element, col); ok && key == first.Key {
				out.Column, out.Text = col, row.Cells[col]
			}
		}
	}
	out.Summary = s.summary(d)
	return out, nil
}

// dropFromDraft takes the op of an undone change out of d's draft.
func (s *Server) dropFromDraft(ctx context.Context, d *LoadedFile, seq int) {
	ctx = context.WithoutCancel(ctx)
	st := &s.draft
	st.mu.Lock()
	if seq == 0 || d.ID != st.doc {
		st.mu.Unlock()
		return
	}
	st.changes = slices.DeleteFunc(st.changes, func(q int) bool { return q == seq })
	stored := st.stored
	st.mu.Unlock()
	if !stored {
		return
	}
	store := s.drafts(ctx)
	if err := store.Drop(ctx, seq); err != nil {
		s.draftLost(ctx, store, err)
	}
}
