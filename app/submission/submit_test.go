package submission_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/schema"
)

// fakeAPI is a Sender that fails as scripted, dedupes refs as the API
// does, and checks that every request was journalled before it was sent.
type fakeAPI struct {
	t       *testing.T
	journal submission.Journal
	// fail returns the error for call n (from 1) of a ref, or nil.
	fail  func(ref string, n int) error
	mu    sync.Mutex
	calls map[string]int
	bulks map[string]string // ref → bulk id
	made  int               // bulks created
}

func newFakeAPI(t *testing.T, j submission.Journal) *fakeAPI {
	return &fakeAPI{t: t, journal: j, calls: map[string]int{}, bulks: map[string]string{}}
}

func (f *fakeAPI) Submit(ctx context.Context, k *schema.Kind, body []byte, ref string) (*bulkapi.Receipt, error) {
	e, ok, err := submission.Lookup(ctx, f.journal, ref)
	if err != nil || !ok || e.State != submission.Sending || string(e.Body) != string(body) {
		f.t.Errorf("sent %s before the journal recorded it as sending (entry %+v, %v)", ref, e.State, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[ref]++
	if f.fail != nil {
		if err := f.fail(ref, f.calls[ref]); err != nil {
			if errors.Is(err, errCommitThenDrop) {
				f.create(ref)
				return nil, &bulkapi.TransportError{Method: "POST", Path: "/bulks/transfers", Err: err}
			}
			return nil, err
		}
	}
	id := f.create(ref)
	return &bulkapi.Receipt{BulkID: id, OperationCount: strings.Count(string(body), `"requestBody"`), Path: "/bulks/" + id}, nil
}

var errCommitThenDrop = errors.New("connection dropped after the bulk was made")

func (f *fakeAPI) create(ref string) string {
	if id, ok := f.bulks[ref]; ok {
		return id
	}
	f.made++
	f.bulks[ref] = fmt.Sprint(1000 + f.made)
	return f.bulks[ref]
}

// sleeps records the pauses instead of taking them.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func TestRetriesKeepTheRefAndHonourTheReset(t *testing.T) {
	j := memstore.NewJournal()
	api := newFakeAPI(t, j)
	api.fail = func(ref string, n int) error {
		switch n {
		case 1:
			return &bulkapi.Error{Status: 503}
		case 2:
			return &bulkapi.Error{Status: 429, RateLimitReset: 7 * time.Second}
		case 3:
			return &bulkapi.TransportError{Err: errors.New("reset")}
		case 4:
			return errCommitThenDrop
		}
		return nil
	}
	var sl sleeps
	var progress []submission.Progress
	s := &submission.Submitter{Sender: api, Journal: j, Sleep: sl.sleep, OnProgress: func(p submission.Progress) { progress = append(progress, p) }}
	p := mustPlan(t, request(25), submission.PlanOptions{ChunkSize: 10})
	entries, err := s.Submit(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if api.made != 3 {
		t.Errorf("%d bulks made, want 3", api.made)
	}
	for i, e := range entries {
		if e.State != submission.Submitted || e.BulkID != api.bulks[p.Chunks[i].Ref] || e.Attempts != 5 || e.Body != nil || e.LastError != "" {
			t.Errorf("chunk %d: %+v", i, e)
		}
		if api.calls[p.Chunks[i].Ref] != 5 {
			t.Errorf("chunk %d sent %d times", i, api.calls[p.Chunks[i].Ref])
		}
	}
	if len(sl.d) != 12 || sl.d[1] != 7*time.Second {
		t.Errorf("pauses %v", sl.d)
	}
	if last := progress[len(progress)-1]; last.Done != 3 {
		t.Errorf("last progress %+v", last)
	}
	// Submitting the same plan again sends nothing.
	if _, err := s.Submit(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if api.calls[p.Chunks[0].Ref] != 5 {
		t.Error("a submitted chunk was sent again")
	}
}

func TestARefusalStopsTheSubmission(t *testing.T) {
	j := memstore.NewJournal()
	api := newFakeAPI(t, j)
	p := mustPlan(t, request(30), submission.PlanOptions{ChunkSize: 10})
	api.fail = func(ref string, n int) error {
		if ref == p.Chunks[1].Ref {
			return &bulkapi.Error{Status: 400, Message: "bad", RequestRef: "rr-9"}
		}
		return nil
	}
	var sl sleeps
	s := &submission.Submitter{Sender: api, Journal: j, Sleep: sl.sleep}
	entries, err := s.Submit(context.Background(), p)
	var ce *submission.ChunkError
	if !errors.As(err, &ce) || ce.Chunk != 1 || ce.Ref != p.Chunks[1].Ref {
		t.Fatalf("err = %v", err)
	}
	if len(entries) != 2 || entries[1].State != submission.Failed || entries[1].RequestRef != "rr-9" || !strings.Contains(entries[1].LastError, "bad") {
		t.Errorf("entries %+v", entries)
	}
	if api.calls[p.Chunks[1].Ref] != 1 || len(sl.d) != 0 {
		t.Errorf("a 400 was retried")
	}
	third, _, _ := submission.Lookup(context.Background(), j, p.Chunks[2].Ref)
	if third.State != submission.Planned || third.Attempts != 0 || len(third.Body) == 0 {
		t.Errorf("chunk 3 after the stop: %+v", third)
	}
	// The operator fixes what was wrong; Submit resumes with the same refs.
	api.fail = nil
	entries, err = s.Submit(context.Background(), p)
	if err != nil || len(entries) != 3 || api.made != 3 || api.calls[p.Chunks[0].Ref] != 1 {
		t.Errorf("resume: %v, %d bulks, chunk 1 sent %d times", err, api.made, api.calls[p.Chunks[0].Ref])
	}
}

func TestRetriesAreBounded(t *testing.T) {
	j := memstore.NewJournal()
	api := newFakeAPI(t, j)
	api.fail = func(string, int) error { return &bulkapi.Error{Status: 500} }
	var sl sleeps
	s := &submission.Submitter{Sender: api, Journal: j, Sleep: sl.sleep, Policy: submission.RetryPolicy{Attempts: 4, Base: time.Second, Max: 3 * time.Second}}
	p := mustPlan(t, request(2), submission.PlanOptions{})
	entries, err := s.Submit(context.Background(), p)
	if err == nil || entries[0].State != submission.Failed || entries[0].Attempts != 4 {
		t.Fatalf("%v %+v", err, entries)
	}
	for i, d := range sl.d {
		lo, hi := []time.Duration{500 * time.Millisecond, time.Second, 1500 * time.Millisecond}[i], []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}[i]
		if d < lo || d > hi {
			t.Errorf("pause %d = %v, want %v to %v", i, d, lo, hi)
		}
	}
	// A reset beyond MaxWait gives up at once rather than block for hours.
	api.fail = func(string, int) error { return &bulkapi.Error{Status: 429, RateLimitReset: time.Hour} }
	s.Policy.MaxWait = time.Minute
	_, err = s.Submit(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "1h0m0s") {
		t.Errorf("err = %v", err)
	}
}

func TestAnInterruptedSubmissionResumesFromTheJournalAlone(t *testing.T) {
	j := memstore.NewJournal()
	api := newFakeAPI(t, j)
	p := mustPlan(t, request(30), submission.PlanOptions{ChunkSize: 10, Source: "pay.xlsx"})
	ctx, cancel := context.WithCancel(context.Background())
	api.fail = func(ref string, n int) error {
		if ref == p.Chunks[1].Ref {
			cancel() // the tab closes while chunk 2 is in flight
			return errCommitThenDrop
		}
		return nil
	}
	s := &submission.Submitter{Sender: api, Journal: j, Sleep: (&sleeps{}).sleep}
	if _, err := s.Submit(ctx, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	all, _ := j.Entries(context.Background())
	subs := submission.Submissions(all)
	if len(subs) != 1 || !subs[0].Interrupted() || subs[0].Entries[1].State != submission.Sending || subs[0].Entries[0].Source != "pay.xlsx" {
		t.Fatalf("journal after the interruption: %+v", subs)
	}
	resumed, err := submission.PlanFromJournal(subs[0].Entries)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.ID != p.ID || resumed.Chunks[2].Ref != p.Chunks[2].Ref || string(resumed.Chunks[1].Body) != string(p.Chunks[1].Body) {
		t.Fatal("the resumed plan differs from the original")
	}
	api.fail = nil
	entries, err := s.Submit(context.Background(), resumed)
	if err != nil {
		t.Fatal(err)
	}
	if api.made != 3 || api.calls[p.Chunks[0].Ref] != 1 || api.calls[p.Chunks[1].Ref] != 2 {
		t.Errorf("%d bulks; calls %v", api.made, api.calls)
	}
	if entries[1].BulkID != api.bulks[p.Chunks[1].Ref] {
		t.Errorf("chunk 2 recorded bulk %s", entries[1].BulkID)
	}
	all, _ = j.Entries(context.Background())
	for _, e := range all {
		if e.Body != nil {
			t.Errorf("a submitted chunk's body is still kept")
		}
	}
	if _, err := submission.PlanFromJournal(nil); err == nil {
		t.Error("an empty journal was resumed")
	}
	bodyless := subs[0].Entries
	bodyless[2].Body = nil
	if _, err := submission.PlanFromJournal(bodyless); !errors.Is(err, submission.ErrNoBody) {
		t.Errorf("a chunk without its body: %v", err)
	}
}

func TestThePlanMustMatchTheClientsAPI(t *testing.T) {
	c, err := bulkapi.New(bulkapi.Config{BaseURL: "http://api.test/multi", BackOfficeURL: "http://api.test/multi/backoffice"})
	if err != nil {
		t.Fatal(err)
	}
	s := &submission.Submitter{Sender: c, Journal: memstore.NewJournal()}
	_, err = s.Submit(context.Background(), mustPlan(t, request(1), submission.PlanOptions{BackOffice: true}))
	if err == nil || !strings.Contains(err.Error(), "back-office") {
		t.Errorf("err = %v", err)
	}
}

// failingJournal refuses every write.
type failingJournal struct{ memstore.Journal }

func (*failingJournal) Put(context.Context, submission.Entry) error { return errors.New("disk full") }

func TestNothingIsSentWithoutAJournalRecord(t *testing.T) {
	j := &failingJournal{}
	api := newFakeAPI(t, j)
	s := &submission.Submitter{Sender: api, Journal: j}
	if _, err := s.Submit(context.Background(), mustPlan(t, request(1), submission.PlanOptions{})); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v", err)
	}
	if len(api.calls) != 0 {
		t.Error("a request went out without a journal record")
	}
}
