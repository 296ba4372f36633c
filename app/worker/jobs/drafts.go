package jobs

import (
	"context"
	"errors"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// The draft is kept and restored here, in the worker, rather than on the
// page: the worker holds the file's bytes (the page hands them over and
// keeps no copy), runs every change to the document, and can store it
// before it answers, so that a change the page shows is already stored;
// replaying the draft is the same work as opening and editing the file,
// off the page's thread. The page keeps only where the operator is: on a
// mount it asks for the draft (JobRestoreDraft) and shows what comes back.

// draftState is the worker's side of the draft: which document it is of
// and where its log stands.
type draftState struct {
	mu sync.Mutex
	// store is opened on first use; persistent says it outlives the
	// worker (IndexedDB), not memory.
	store      draft.Store
	persistent bool
	// doc is the draft's document, 0 when there is none; stored says
	// the store holds it, all of it: a file too large, or a change that
	// could not be stored, leaves the document in the worker only.
	doc    int
	stored bool
	// seq numbers the last op; changes are the seqs of the ops that
	// changed cells, dropped when a rebuild throws them away.
	seq     int
	changes []int
	// err is why the document is not stored, said in the language the
	// page speaks when it asks.
	err error
	// openErr is why the browser's store could not be opened, when it
	// could not: the draft is then kept in memory only.
	openErr error
}

// drafts returns the draft store, opening it on first use: OpenDrafts in
// the browser, memory where it is unset or fails.
func (s *Server) drafts(ctx context.Context) draft.Store {
	st := &s.draft
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.store != nil {
		return st.store
	}
	if s.OpenDrafts != nil {
		// Opened for every job to come: the first one's cancel (a page
		// that asked for the draft and went away) must not leave the
		// worker without its store.
		store, err := s.OpenDrafts(context.WithoutCancel(ctx))
		if err == nil {
			st.store, st.persistent = store, true
			return store
		}
		st.openErr = s.reason(err)
	}
	st.store = draft.NewMemory()
	return st.store
}

// draftOf returns what a Summary says of d's draft.
func (s *Server) draftOf(d *LoadedFile) wire.DraftState {
	l := s.language()
	st := &s.draft
	st.mu.Lock()
	defer st.mu.Unlock()
	if d == nil || d.ID != st.doc {
		return wire.DraftState{}
	}
	return wire.DraftState{Kept: st.persistent && st.stored, Edits: len(st.changes), Error: l.Say(st.err)}
}

// beginDraft starts the draft of a document just opened, replacing any
// other.
func (s *Server) beginDraft(ctx context.Context, d *LoadedFile, req wire.Open, data []byte) {
	store := s.drafts(ctx)
	st := &s.draft
	meta := draft.Meta{Open: draftOpen(req), Limits: s.limits.Texts()}
	var err error
	if len(data) > draft.MaxBytes {
		err = lang.Errorf("the file is too large to keep in the browser; it is lost on a reload")
		_ = store.Clear(ctx)
	} else {
		err = store.Begin(ctx, meta, data)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.doc, st.stored, st.seq, st.changes, st.err = d.ID, err == nil, 0, nil, nil
	switch {
	case err != nil:
		st.err = s.reason(err)
	case st.openErr != nil:
		st.err = lang.Errorf("the browser's storage could not be opened, so a reload loses the file: %s", st.openErr)
	}
}

// recordDraft adds op to the draft when it is of d's, and returns its seq
// (0 when it is not). reread says the op read the file's table again,
// which throws the edits made to the table before away: those leave the
// log.
func (s *Server) recordDraft(ctx context.Context, d *LoadedFile, op draft.Op, reread bool) int {
	// A canceled job still changed the document: its op is stored.
	ctx = context.WithoutCancel(ctx)
	st := &s.draft
	st.mu.Lock()
	if d == nil || d.ID != st.doc {
		st.mu.Unlock()
		return 0
	}
	var drop []int
	if reread {
		drop, st.changes = st.changes, nil
	}
	st.seq++
	op.Seq = st.seq
	if op.Changes() {
		st.changes = append(st.changes, op.Seq)
	}
	stored := st.stored
	st.mu.Unlock()
	if !stored {
		return op.Seq
	}
	store := s.drafts(ctx)
	err := store.Drop(ctx, drop...)
	if err == nil {
		err = store.Append(ctx, op)
	}
	if err != nil {
		s.draftLost(ctx, store, err)
	}
	return op.Seq
}

// draftLost discards a draft a change could not be stored in: a log with a
// change missing would replay into another document. The page says so.
func (s *Server) draftLost(ctx context.Context, store draft.Store, err error) {
	_ = store.Clear(ctx)
	st := &s.draft
	st.mu.Lock()
	defer st.mu.Unlock()
	st.stored = false
	st.err = lang.Errorf("the file is no longer kept in the browser, and a reload would lose your changes: %s", s.reason(err))
}

// discardDraft removes the draft.
func (s *Server) discardDraft(ctx context.Context) error {
	store := s.drafts(ctx)
	st := &s.draft
	st.mu.Lock()
	st.doc, st.stored, st.seq, st.changes, st.err = 0, false, 0, nil, nil
	st.mu.Unlock()
	return store.Clear(ctx)
}

// discard runs wire.JobDiscardDraft.
func (s *Server) discard(c *runner.Call) (any, error) {
	if err := s.discardDraft(c.Context()); err != nil {
		return nil, err
	}
	return wire.DiscardDraft{}, nil
}

// restoreDraft runs wire.JobRestoreDraft.
func (s *Server) restoreDraft(c *runner.Call) (any, error) {
	ctx := c.Context()
	s.draft.mu.Lock()
	id := s.draft.doc
	s.draft.mu.Unlock()
	if id != 0 {
		if d, err := s.documents.Get(id); err == nil {
			return s.restored(c, d)
		}
	}
	store := s.drafts(ctx)
	dr, ok, err := store.Load(ctx)
	if err != nil {
		_ = s.discardDraft(ctx)
		if errors.Is(err, draft.ErrOtherVersion) {
			return wire.Restored{Problem: s.language().T("The file kept in this browser was saved by another version of the console and cannot be brought back; it is discarded. Open the file again.")}, nil
		}
		return wire.Restored{Problem: s.language().F("The draft kept in this browser could not be read, and is discarded: %s", s.reason(err))}, nil
	}
	if !ok {
		return wire.Restored{}, nil
	}
	d, err := s.replay(c, dr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		_ = s.discardDraft(ctx)
		return wire.Restored{Problem: s.language().F("The draft kept in this browser could not be opened again, and is discarded: %s", s.reason(err))}, nil
	}
	st := &s.draft
	st.mu.Lock()
	st.doc, st.stored, st.err, st.changes = d.ID, true, nil, nil
	for _, o := range dr.Ops {
		st.seq = max(st.seq, o.Seq)
		if o.Changes() {
			st.changes = append(st.changes, o.Seq)
		}
	}
	st.mu.Unlock()
	return s.restored(c, d)
}

// restored describes the draft's document as it stands.
func (s *Server) restored(c *runner.Call, d *LoadedFile) (wire.Restored, error) {
	p, err := s.finish(c, d, false, false)
	if err != nil {
		return wire.Restored{}, err
	}
	return wire.Restored{Found: true, Prepared: &p, Edits: s.draftOf(d).Edits, Limits: s.limits.TextsIn(s.language().Separators())}, nil
}

// replay opens a draft's file again and applies its ops in order. An op
// that failed when the operator made it fails the same way again, and
// leaves the document as it left it then: its error is not the replay's.
func (s *Server) replay(c *runner.Call, dr *draft.Draft) (*LoadedFile, error) {
	ctx := c.Context()
	if _, err := s.setLimits(dr.Meta.Limits, "", nil); err != nil {
		return nil, err
	}
	d, _, err := s.openDocument(c, wireOpen(dr.Meta.Open), dr.Data)
	if err != nil {
		return nil, err
	}
	for _, o := range dr.Ops {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch {
		case o.Prepare != nil:
			_, _ = s.prepareDocument(c, d, wirePrepare(*o.Prepare, d.ID))
		case o.Build:
			if d.review == nil {
				_ = s.buildDocument(c, d)
			}
		case o.Edit != nil:
			if d.review != nil {
				if c, err := d.review.EditCell(o.Edit.Element, o.Edit.Column, o.Edit.Value); err == nil {
					d.edits().push(o.Seq, c)
				}
			}
		case o.Replace != nil:
			if d.review != nil {
				if c, err := s.replaceIn(d, wireReplace(*o.Replace, d.ID)); err == nil {
					d.edits().push(o.Seq, c)
				}
			}
		case o.Limits != nil:
			_, _ = s.setLimits(o.Limits.Limits, o.Limits.Lang, d)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d, nil
}
