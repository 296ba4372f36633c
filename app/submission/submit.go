package submission

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Sender submits one bulk request; *bulkapi.Client is one.
type Sender interface {
	Submit(ctx context.Context, k *schema.Kind, body []byte, ref string) (*bulkapi.Receipt, error)
}

// RetryPolicy bounds the retries of one chunk.
type RetryPolicy struct {
	// Attempts is the most requests sent for one chunk in one Submit; 0
	// means 8.
	Attempts int
	// Base is the first pause, doubled after each failure up to Max;
	// 0 means half a second and 30 seconds.
	Base, Max time.Duration
	// MaxWait is the longest a 429's x-ratelimit-reset is waited for
	// before giving up; 0 means 2 minutes.
	MaxWait time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Attempts <= 0 {
		p.Attempts = 8
	}
	if p.Base <= 0 {
		p.Base = 500 * time.Millisecond
	}
	if p.Max <= 0 {
		p.Max = 30 * time.Second
	}
	if p.MaxWait <= 0 {
		p.MaxWait = 2 * time.Minute
	}
	return p
}

// pause returns the wait before retry number n (from 1): the API's
// x-ratelimit-reset when it gave one, else exponential backoff with jitter.
func (p RetryPolicy) pause(n int, err error) time.Duration {
	if reset := bulkapi.RetryAfter(err); reset > 0 {
		return reset
	}
	d := p.Base << min(n-1, 20)
	if d > p.Max || d <= 0 {
		d = p.Max
	}
	return d/2 + rand.N(d/2+1)
}

// Progress reports a step of a submission, for a progress bar.
type Progress struct {
	Plan *Plan
	// Chunk is the chunk concerned; Entry its journal entry now.
	Chunk int
	Entry Entry
	// Done is how many chunks are submitted so far.
	Done int
	// Wait, when positive, is the pause before the next attempt.
	Wait time.Duration
}

// A Submitter sends plans. Its zero value is not usable: set Sender and
// Journal.
type Submitter struct {
	Sender  Sender
	Journal Journal
	Policy  RetryPolicy
	// Now is the clock of journal timestamps; nil means time.Now.
	Now func() time.Time
	// Sleep waits between attempts; nil means a timer that ctx cancels.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnProgress, when set, is called after every step.
	OnProgress func(Progress)
}

// A ChunkError says which chunk stopped a submission and why.
type ChunkError struct {
	Chunk, Chunks int
	Ref           string
	Err           error
}

func (e *ChunkError) Error() string {
	return fmt.Sprintf("part %d of %d (idempotency-ref %s): %v", e.Chunk+1, e.Chunks, e.Ref, e.Err)
}

func (e *ChunkError) Unwrap() error { return e.Err }

// Submit sends every chunk of the plan that the journal does not show as
// submitted, in order, and returns the chunks' entries. It stops at the
// first chunk that cannot be submitted, returning a *ChunkError; the
// journal then tells what was done, and calling Submit again resumes.
func (s *Submitter) Submit(ctx context.Context, p *Plan) ([]Entry, error) {
	if bo, ok := s.Sender.(interface{ IsBackOffice() bool }); ok && bo.IsBackOffice() != p.BackOffice {
		return nil, fmt.Errorf("the plan is for the %s API but the client calls the other one", apiName(p.BackOffice))
	}
	policy := s.Policy.withDefaults()
	known, err := s.Journal.Entries(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	// Record every chunk before the first request, so that the journal
	// alone can resume the submission whenever it stops.
	entries := make([]Entry, len(p.Chunks))
	for i := range p.Chunks {
		c := &p.Chunks[i]
		e, found := entryFor(known, c.Ref)
		if !found {
			e = s.newEntry(p, c)
			if err := s.Journal.Put(ctx, e); err != nil {
				return nil, fmt.Errorf("recording part %d in the journal: %w", i+1, err)
			}
		}
		entries[i] = e
	}
	out := make([]Entry, len(p.Chunks))
	done := 0
	for i := range p.Chunks {
		c := &p.Chunks[i]
		e := entries[i]
		if e.State != Submitted {
			if e, err = s.send(ctx, p, c, e, done, policy); err != nil {
				out[i] = e
				return out[:i+1], &ChunkError{Chunk: c.Index, Chunks: len(p.Chunks), Ref: c.Ref, Err: err}
			}
		}
		out[i] = e
		done++
		s.report(Progress{Plan: p, Chunk: c.Index, Entry: e, Done: done})
	}
	return out, nil
}

func entryFor(entries []Entry, ref string) (Entry, bool) {
	for _, e := range entries {
		if e.Ref == ref {
			return e, true
		}
	}
	return Entry{}, false
}

func apiName(backOffice bool) string {
	if backOffice {
		return "back-office"
	}
	return "standard"
}

func (s *Submitter) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Submitter) report(p Progress) {
	if s.OnProgress != nil {
		s.OnProgress(p)
	}
}

func (s *Submitter) newEntry(p *Plan, c *Chunk) Entry {
	now := s.now()
	return Entry{
		Ref: c.Ref, Digest: c.Digest, Submission: p.ID, Salt: p.Salt, Source: p.Source,
		Kind: p.Kind.ID, BackOffice: p.BackOffice, Chunk: c.Index, Chunks: len(p.Chunks),
		Elements: c.Elements, PlanElements: p.Elements, Sheet: c.Sheet, Rows: c.Rows, State: Planned,
		Body: c.Body, Created: now, Updated: now,
	}
}

// send submits one chunk, retrying what may be retried, and records each
// step in the journal: the Sending entry before every attempt.
func (s *Submitter) send(ctx context.Context, p *Plan, c *Chunk, e Entry, done int, policy RetryPolicy) (Entry, error) {
	e.Body = c.Body
	for attempt := 1; ; attempt++ {
		e.State, e.Attempts, e.Updated = Sending, e.Attempts+1, s.now()
		if err := s.Journal.Put(ctx, e); err != nil {
			return e, fmt.Errorf("recording the part in the journal before sending it: %w", err)
		}
		s.report(Progress{Plan: p, Chunk: c.Index, Entry: e, Done: done})
		rc, err := s.Sender.Submit(ctx, p.Kind, c.Body, c.Ref)
		if err == nil {
			e.State, e.BulkID, e.OperationCount, e.Path = Submitted, rc.BulkID, rc.OperationCount, rc.Path
			e.Fingerprints = c.Fingerprints
			if len(e.Fingerprints) == 0 {
				e.Fingerprints, _ = bodyFingerprints(p.Kind, c.Body)
			}
			e.LastError, e.RequestRef, e.LastStatus, e.Body, e.Updated = "", "", 0, nil, s.now()
			if err := s.Journal.Put(context.WithoutCancel(ctx), e); err != nil {
				return e, fmt.Errorf("bulk %s was submitted but the journal could not record it (submitting again with the same ref is safe): %w", rc.BulkID, err)
			}
			return e, nil
		}
		e.LastError, e.RequestRef, e.LastStatus = err.Error(), "", 0
		if ae, ok := bulkapi.AsError(err); ok {
			e.LastError, e.RequestRef, e.LastStatus = ae.Summary(), ae.RequestRef, ae.Status
		}
		if ctx.Err() != nil {
			// Interrupted: the entry stays Sending, to resume with the same ref.
			_ = s.Journal.Put(context.WithoutCancel(ctx), e)
			return e, fmt.Errorf("interrupted: %w (last attempt: %v)", ctx.Err(), err)
		}
		wait := policy.pause(attempt, err)
		if !bulkapi.Retryable(err) || attempt >= policy.Attempts || wait > policy.MaxWait {
			e.State, e.Updated = Failed, s.now()
			if perr := s.Journal.Put(context.WithoutCancel(ctx), e); perr != nil {
				return e, errors.Join(err, perr)
			}
			if wait > policy.MaxWait {
				return e, fmt.Errorf("%w (the API asks to wait %s)", err, wait)
			}
			return e, err
		}
		s.report(Progress{Plan: p, Chunk: c.Index, Entry: e, Done: done, Wait: wait})
		if err := s.sleep(ctx, wait); err != nil {
			_ = s.Journal.Put(context.WithoutCancel(ctx), e)
			return e, err
		}
	}
}

func (s *Submitter) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// PlanFromJournal rebuilds the plan of a submission from its entries, to
// resume it after a reload without the operator's file. Every chunk not
// yet submitted needs its kept body; ErrNoBody says one is missing.
func PlanFromJournal(entries []Entry) (*Plan, error) {
	if len(entries) == 0 {
		return nil, fmt.Errorf("no entries to resume")
	}
	first := entries[0]
	k, err := schema.Lookup(first.Kind)
	if err != nil {
		return nil, err
	}
	ep, err := k.Endpoint(first.BackOffice)
	if err != nil {
		return nil, err
	}
	p := &Plan{ID: first.Submission, Kind: k, BackOffice: first.BackOffice, Endpoint: ep, Source: first.Source, Salt: first.Salt, Elements: first.PlanElements}
	p.Chunks = make([]Chunk, first.Chunks)
	seen := make([]bool, first.Chunks)
	for _, e := range entries {
		if e.Submission != first.Submission || e.Chunk < 0 || e.Chunk >= first.Chunks {
			return nil, fmt.Errorf("entry %s does not belong to submission %s", e.Ref, first.Submission)
		}
		if e.State != Submitted && len(e.Body) == 0 {
			return nil, fmt.Errorf("part %d of %d: %w", e.Chunk+1, e.Chunks, ErrNoBody)
		}
		c := Chunk{Index: e.Chunk, Elements: e.Elements, Body: e.Body, Digest: e.Digest, Ref: e.Ref, Sheet: e.Sheet, Rows: e.Rows, Fingerprints: e.Fingerprints}
		if len(c.Fingerprints) == 0 && len(c.Body) > 0 {
			if c.Fingerprints, err = bodyFingerprints(k, c.Body); err != nil {
				return nil, fmt.Errorf("part %d of %d: %w", e.Chunk+1, e.Chunks, err)
			}
		}
		p.Chunks[e.Chunk] = c
		seen[e.Chunk] = true
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("part %d of %d is missing from the journal: load the file again to resume", i+1, first.Chunks)
		}
	}
	return p, nil
}

// ErrNoBody means a chunk's body is no longer in the journal: load the
// file again, which plans the same chunks with the same refs.
var ErrNoBody = errors.New("the journal no longer holds the part's request body; load the file again to resume with the same refs")
