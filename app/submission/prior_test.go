package submission_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
)

func TestFindPriorSeesTheSameContentWhateverItsSalt(t *testing.T) {
	ctx := context.Background()
	j := memstore.NewJournal()
	now := time.Date(2030, 1, 2, 9, 0, 0, 0, time.UTC)
	api := newFakeAPI(t, j)
	s := &submission.Submitter{Sender: api, Journal: j, Now: func() time.Time { return now }}
	elements := request(20)
	first := mustPlan(t, elements, submission.PlanOptions{ChunkSize: 10})
	if _, err := s.Submit(ctx, first); err != nil {
		t.Fatal(err)
	}
	// The same file loaded again: both chunks were submitted.
	again := mustPlan(t, elements, submission.PlanOptions{ChunkSize: 10})
	priors, err := submission.FindPrior(ctx, j, again)
	if err != nil || len(priors) != 2 {
		t.Fatalf("priors %v, %v", priors, err)
	}
	w := priors[0].Warning()
	if !strings.Contains(w, "bulk "+api.bulks[first.Chunks[0].Ref]) || !strings.Contains(w, "2030-01-02 09:00") {
		t.Errorf("warning %q does not name the bulk and time", w)
	}
	// A deliberate new bulk is still recognised as the same content.
	salted := mustPlan(t, elements, submission.PlanOptions{ChunkSize: 10, Salt: submission.NewSalt()})
	if priors, _ := submission.FindPrior(ctx, j, salted); len(priors) != 2 || priors[1].Entry.BulkID == "" {
		t.Errorf("salted priors %v", priors)
	}
	// Another file shares only its first chunk.
	mixed := append(elements[:10:10], request(25)[20:]...)
	p := mustPlan(t, mixed, submission.PlanOptions{ChunkSize: 10})
	if priors, _ := submission.FindPrior(ctx, j, p); len(priors) != 1 || priors[0].Chunk != 0 {
		t.Errorf("mixed priors %v", priors)
	}
}

type fakeLister struct {
	bulks []bulkapi.BulkProcess
	calls int
	err   error
}

func (f *fakeLister) ListAll(context.Context, bulkapi.Status) ([]bulkapi.BulkProcess, error) {
	f.calls++
	return f.bulks, f.err
}

func TestOldEntriesAreCheckedAgainstTheBulkList(t *testing.T) {
	now := time.Date(2030, 3, 1, 0, 0, 0, 0, time.UTC)
	old := now.Add(-25 * time.Hour)
	ten := submission.Spans{{From: 0, To: 10}}
	priors := []submission.Prior{
		{Chunk: 0, Entry: submission.Entry{Ref: "a", Kind: "transfers", State: submission.Submitted, BulkID: "11", Elements: ten, Updated: old}},
		{Chunk: 1, Entry: submission.Entry{Ref: "b", Kind: "transfers", State: submission.Sending, Attempts: 2, Elements: ten, Updated: old}},
		{Chunk: 2, Entry: submission.Entry{Ref: "c", Kind: "transfers", State: submission.Submitted, BulkID: "12", Elements: ten, Updated: now.Add(-time.Hour)}},
		{Chunk: 3, Entry: submission.Entry{Ref: "d", Kind: "transfers", State: submission.Submitted, BulkID: "13", Elements: ten, Updated: old}},
	}
	journal := []submission.Entry{priors[0].Entry, priors[1].Entry, priors[2].Entry, priors[3].Entry}
	l := &fakeLister{bulks: []bulkapi.BulkProcess{
		{BulkID: "11", Status: bulkapi.Completed, SubmittedItemsCount: 10, Operation: "POST /transfers"},
		{BulkID: "12", Status: bulkapi.Submitted, SubmittedItemsCount: 10, Operation: "POST /transfers"},
		{BulkID: "14", Status: bulkapi.Submitted, SubmittedItemsCount: 10, Operation: "POST /transfers"},
		{BulkID: "15", Status: bulkapi.Submitted, SubmittedItemsCount: 9, Operation: "POST /transfers"},
		{BulkID: "16", Status: bulkapi.Submitted, SubmittedItemsCount: 10, Operation: "POST /sends"},
	}}
	if err := submission.CheckOld(context.Background(), l, priors, journal, now); err != nil {
		t.Fatal(err)
	}
	if l.calls != 1 {
		t.Errorf("listed %d times", l.calls)
	}
	if p := priors[0]; !p.Checked || p.Listed == nil || p.Listed.Status != bulkapi.Completed || !strings.Contains(p.Warning(), "now COMPLETED") {
		t.Errorf("old submitted: %+v %q", p, p.Warning())
	}
	if p := priors[1]; len(p.Candidates) != 1 || p.Candidates[0].BulkID != "14" || !strings.Contains(p.Warning(), "14") {
		t.Errorf("old interrupted: candidates %v, %q", p.Candidates, p.Warning())
	}
	if priors[2].Checked {
		t.Error("a recent entry was checked: its ref still protects it")
	}
	if p := priors[3]; !p.Checked || p.Listed != nil || !strings.Contains(p.Warning(), "no longer shows") {
		t.Errorf("vanished bulk: %q", p.Warning())
	}
	l.err = errors.New("offline")
	if err := submission.CheckOld(context.Background(), l, priors, journal, now); err == nil {
		t.Error("a failed list was ignored")
	}
}

// A chunk the API answered with a refusal was not lost on the way: the
// warning says it was refused, and why.
func TestARefusedChunkIsNotAnAnswerThatNeverCame(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	refused := submission.Prior{Chunk: 0, Entry: submission.Entry{State: submission.Failed, Attempts: 1, Updated: at,
		LastError: "401 Unauthorized: the token has expired", LastStatus: 401}}
	if w := refused.Warning(); w != "part 1 was refused by the API on 2026-11-23 09:30: 401 Unauthorized: the token has expired" {
		t.Errorf("refused: %q", w)
	}
	lost := submission.Prior{Chunk: 1, Entry: submission.Entry{State: submission.Failed, Attempts: 1, Updated: at, LastError: "connection reset"}}
	if w := lost.Warning(); w != "part 2 was being submitted on 2026-11-23 09:30 and the answer never came (1 attempt)" {
		t.Errorf("lost: %q", w)
	}
}
