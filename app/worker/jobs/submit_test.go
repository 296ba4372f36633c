package jobs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/kvstore"
	"github.com/bulkdesk/bulkdesk/app/submission/memstore"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// conn is a connection to the fake API.
var conn = wire.Connection{APIURL: "http://api.test/multi", APIKey: fakeapi.Key, Token: fakeapi.Token}

// withAPI makes the server call h in-process.
func withAPI(h http.Handler) func(*workers) {
	return func(w *workers) { w.api.Transport = bulkapi.HandlerTransport(h) }
}

// load opens a request body of transfers, which builds at once, and
// returns how it was read.
func (h *harness) load(body []byte) wire.Prepared {
	h.t.Helper()
	var p wire.Prepared
	h.result(h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "pay.json", Auto: true}, body), &p)
	if p.Summary == nil {
		h.t.Fatalf("the request body was not built at once: %+v", p)
	}
	return p
}

func (h *harness) prepare(req wire.PrepareSubmission) wire.Confirmation {
	h.t.Helper()
	var p wire.Confirmation
	h.result(h.send(wire.JobPrepareSubmission, req, nil), &p)
	return p
}

func (h *harness) submit(plan string, c wire.Connection) (wire.Submitted, []wire.Progress) {
	h.t.Helper()
	var s wire.Submitted
	progress := h.result(h.send(wire.JobSubmit, wire.Submit{Plan: plan, Connection: c}, nil), &s)
	return s, progress
}

func TestOnlyAValidRequestIsSendableByDefault(t *testing.T) {
	h := newHarness(t)
	doc := h.load(fixture.Transfers(25, 4, 17))

	p := h.prepare(wire.PrepareSubmission{Document: doc.Document})
	if p.Plan != "" || !strings.Contains(p.Blocked, "2 of 25 elements have errors") || p.Invalid != 2 || p.Elements != 25 {
		t.Errorf("a request with invalid elements was planned: %+v", p)
	}

	p = h.prepare(wire.PrepareSubmission{Document: doc.Document, ValidOnly: true, ChunkSize: 10})
	if p.Plan == "" || p.Sending != 23 || len(p.Chunks) != 3 || p.Endpoint != "POST /bulks/transfers" {
		t.Fatalf("the valid elements were not planned: %+v", p)
	}
	// Chunk 1 holds elements 0 to 10 but 4; chunk 2 ends at 21, past 17.
	if c := p.Chunks[0]; c.Elements != 10 || c.First != 0 || c.Last != 10 {
		t.Errorf("chunk 1 = %+v", c)
	}
	if c := p.Chunks[1]; c.First != 11 || c.Last != 21 || c.Ref == p.Chunks[0].Ref {
		t.Errorf("chunk 2 = %+v", c)
	}
	// Amounts are 100+i cents: the 23 valid ones sum to 2300 + 300 - 21.
	want := 23*100 + (24*25/2 - 4 - 17)
	if len(p.Totals) != 1 || p.Totals[0].Currency != "EUR" || p.Totals[0].Minor != strconv.Itoa(want) ||
		p.Totals[0].Amount != fmt.Sprintf("%d.%02d", want/100, want%100) || p.Totals[0].Count != 23 {
		t.Errorf("totals %+v, want EUR %d minor units", p.Totals, want)
	}

	empty := h.load([]byte(`[]`))
	if p := h.prepare(wire.PrepareSubmission{Document: empty.Document}); p.Plan != "" || !strings.Contains(p.Blocked, "no elements") {
		t.Errorf("an empty request: %+v", p)
	}
	broken := h.load([]byte(`[{,}]`))
	if p := h.prepare(wire.PrepareSubmission{Document: broken.Document, ValidOnly: true}); p.Plan != "" || !strings.Contains(p.Blocked, "not a JSON request body") {
		t.Errorf("a file that is not JSON: %+v", p)
	}
}

func TestSubmissionIsJournaledAndWarnsOfTheEarlierBulk(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	doc := h.load(fixture.Transfers(25))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10})
	if len(p.Priors) != 0 {
		t.Fatalf("priors before any submission: %+v", p.Priors)
	}

	// Without credentials nothing is sent, and the operator is told why.
	got, _ := h.submit(p.Plan, wire.Connection{APIURL: conn.APIURL})
	if got.Failure == nil || got.Failure.Class != "credentials" || api.Bulks() != 0 {
		t.Fatalf("without credentials: %+v", got.Failure)
	}

	got, progress := h.submit(p.Plan, conn)
	if got.Failure != nil || got.Submission.State != "submitted" || len(got.Submission.Chunks) != 3 {
		t.Fatalf("submission %+v, failure %+v", got.Submission, got.Failure)
	}
	if c := got.Submission.Chunks[2]; c.BulkID == "" || c.OperationCount != 5 || c.State != "submitted" {
		t.Errorf("chunk 3 = %+v", c)
	}
	if last := progress[len(progress)-1]; last.Phase != "submitting" || last.Done != 3 || last.Total != 3 {
		t.Errorf("last progress %+v", last)
	}

	// The same file again: every chunk names its bulk, with the same ref.
	again := h.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10})
	if len(again.Priors) != 3 || !again.Priors[0].SameRef || again.Priors[0].BulkID != got.Submission.Chunks[0].BulkID ||
		!strings.Contains(again.Priors[0].Warning, "bulk "+got.Submission.Chunks[0].BulkID) {
		t.Fatalf("priors %+v", again.Priors)
	}
	// Sent again with the same refs, the API gives the same bulks back.
	if dup, _ := h.submit(again.Plan, conn); dup.Failure != nil || api.Bulks() != 3 {
		t.Errorf("resending made %d bulks: %+v", api.Bulks(), dup.Failure)
	}
	// "Submit again as a new bulk" gets fresh refs, and new bulks.
	fresh := h.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10, NewBulk: true})
	if !fresh.NewBulk || len(fresh.Priors) != 3 || fresh.Priors[0].SameRef || fresh.Chunks[0].Ref == p.Chunks[0].Ref {
		t.Fatalf("a new bulk reuses refs: %+v", fresh)
	}
	if _, _ = h.submit(fresh.Plan, conn); api.Bulks() != 6 {
		t.Errorf("after a new submission the API holds %d bulks, want 6", api.Bulks())
	}

	var list wire.JournalList
	h.result(h.send(wire.JobJournal, wire.Journal{}, nil), &list)
	if list.Storage != "memory" || len(list.Submissions) != 2 || list.Submissions[0].Interrupted {
		t.Fatalf("journal %+v", list)
	}
	h.result(h.send(wire.JobForgetSubmission, wire.ForgetSubmission{Submission: list.Submissions[0].ID}, nil), &list)
	if len(list.Submissions) != 1 {
		t.Errorf("after forgetting one: %+v", list.Submissions)
	}
}

func TestARefusalNamesTheRowsAndKeepsTheWork(t *testing.T) {
	api := fakeapi.New()
	// The second chunk is refused: its element 3 is element 14 of the file.
	api.Refuse = func(n int, body []byte) (int, string) {
		if n == 2 {
			return http.StatusBadRequest, `{"message":"bad request","syntaxErrors":{"invalidFields":[{"fieldName":"[3].requestBody.destinationAmount.amount","error":"RANGE","params":["1"]},{"fieldName":"profileId","error":"REQUIRED"}]}}`
		}
		return 0, ""
	}
	h := newHarness(t, withAPI(api))
	doc := h.load(fixture.Transfers(25, 2))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10, ValidOnly: true})
	got, _ := h.submit(p.Plan, conn)
	f := got.Failure
	if f == nil || f.Class != "bad-request" || f.Status != 400 || f.Chunk != 1 || f.Ref != p.Chunks[1].Ref || f.RequestRef == "" {
		t.Fatalf("failure %+v", f)
	}
	if len(f.Fields) != 2 || f.Fields[0].Element != 14 || f.Fields[0].Field != "requestBody.destinationAmount.amount" || f.Fields[0].Error != "RANGE" ||
		f.Fields[1].Element != wire.RequestLevel {
		t.Errorf("fields %+v", f.Fields)
	}
	if got.Submission.State != "failed" || got.Submission.Chunks[0].State != "submitted" || got.Submission.Chunks[1].State != "failed" {
		t.Errorf("the journal shows %+v", got.Submission)
	}
	// The document is still loaded: nothing of the operator's work is lost.
	if again := h.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10, ValidOnly: true}); again.Plan == "" {
		t.Errorf("the document is gone after a refusal: %+v", again)
	}
}

func TestAnInterruptedSubmissionResumesWithItsRefs(t *testing.T) {
	api := fakeapi.New()
	api.Gate, api.Held = make(chan struct{}), make(chan struct{}, 1)
	h := newHarness(t, withAPI(api))
	doc := h.load(fixture.Transfers(25))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10})
	id := h.send(wire.JobSubmit, wire.Submit{Plan: p.Plan, Connection: conn}, nil)
	// While the first request hangs, the operator stops.
	select {
	case <-api.Held:
	case <-time.After(10 * time.Second):
		t.Fatal("the first request did not reach the API within 10s")
	}
	h.server.Receive(wire.Message{ID: id, Type: wire.TypeCancel})
	if e := h.failure(id); e.Code != wire.CodeCanceled {
		t.Fatalf("stopping gave %+v", e)
	}
	close(api.Gate)

	var list wire.JournalList
	h.result(h.send(wire.JobJournal, wire.Journal{}, nil), &list)
	if len(list.Submissions) != 1 || !list.Submissions[0].Interrupted || !list.Submissions[0].Resumable || list.Submissions[0].Chunks[0].State != "sending" {
		t.Fatalf("journal after the stop: %+v", list.Submissions)
	}
	var resumed wire.Submitted
	h.result(h.send(wire.JobResumeSubmission, wire.ResumeSubmission{Submission: list.Submissions[0].ID, Connection: conn}, nil), &resumed)
	if resumed.Failure != nil || resumed.Submission.State != "submitted" {
		t.Fatalf("resumed: %+v %+v", resumed.Submission, resumed.Failure)
	}
	for i, c := range resumed.Submission.Chunks {
		if c.Ref != p.Chunks[i].Ref {
			t.Errorf("chunk %d resumed with ref %s, planned %s", i, c.Ref, p.Chunks[i].Ref)
		}
	}
	if api.Bulks() != 3 {
		t.Errorf("the API holds %d bulks, want one per chunk", api.Bulks())
	}
}

func TestNetworkJobsRunBesideValidation(t *testing.T) {
	api := fakeapi.New()
	api.Gate = make(chan struct{})
	h := newHarness(t, withAPI(api))
	doc := h.load(fixture.Transfers(5))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document})
	first := h.send(wire.JobSubmit, wire.Submit{Plan: p.Plan, Connection: conn}, nil)
	// A second press while the first is under way: one of the two is
	// refused, whichever the worker started second.
	second := h.send(wire.JobSubmit, wire.Submit{Plan: p.Plan, Connection: conn}, nil)
	// The worker validates the next file while the submission waits.
	next := h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "next.json", Auto: true}, fixture.Transfers(3))
	results := map[int]wire.Message{}
	for len(results) < 2 {
		select {
		case m := <-h.posted:
			if m.Type != wire.TypeProgress {
				results[m.ID] = m
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no answers; got %v", results)
		}
	}
	if m := results[next]; m.Type != wire.TypeResult {
		t.Errorf("the validation waited for the submission: %s %s", m.Type, m.Body)
	}
	sending := first
	if m, ok := results[first]; ok {
		sending = second
		if m.Type != wire.TypeError || !strings.Contains(string(m.Body), "being sent already") {
			t.Errorf("the press refused: %s %s", m.Type, m.Body)
		}
	} else if m := results[second]; m.Type != wire.TypeError || !strings.Contains(string(m.Body), "being sent already") {
		t.Errorf("the second press: %s %s", m.Type, m.Body)
	}
	close(api.Gate)
	var got wire.Submitted
	h.result(sending, &got)
	if got.Submission.State != "submitted" || api.Bulks() != 1 {
		t.Errorf("submission %+v, %d bulks", got.Submission, api.Bulks())
	}
}

func TestTheJournalFallsBackToThePagesLocalStorage(t *testing.T) {
	api := fakeapi.New()
	var h *harness
	h = newHarness(t, withAPI(api), func(w *workers) {
		w.api.OpenJournal = func(ctxt context.Context) (submission.Journal, string, error) {
			return kvstore.NewJournal(w.api.PageStorage(), "test"), "localStorage", nil
		}
	})
	if wire.StorageKeyPrefix != kvstore.KeyPrefix {
		t.Fatalf("the page serves keys %q, the journal uses %q", wire.StorageKeyPrefix, kvstore.KeyPrefix)
	}
	doc := h.load(fixture.Transfers(5))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document})
	if got, _ := h.submit(p.Plan, conn); got.Failure != nil || got.Submission.State != "submitted" {
		t.Fatalf("submission %+v %+v", got.Submission, got.Failure)
	}
	h.pageMu.Lock()
	stored := h.page[kvstore.KeyPrefix+"test"]
	h.pageMu.Unlock()
	var entries []submission.Entry
	if err := json.Unmarshal([]byte(stored), &entries); err != nil || len(entries) != 1 || entries[0].State != submission.Submitted || entries[0].BulkID == "" {
		t.Errorf("the page's localStorage holds %s (%v)", stored, err)
	}
	var list wire.JournalList
	h.result(h.send(wire.JobJournal, wire.Journal{}, nil), &list)
	if list.Storage != "localStorage" || len(list.Submissions) != 1 {
		t.Errorf("journal %+v", list)
	}
}

func TestRetriesAreReportedAndKeepTheRef(t *testing.T) {
	api := fakeapi.New()
	api.Refuse = func(n int, body []byte) (int, string) {
		switch n {
		case 1:
			return http.StatusTooManyRequests, `{"message":"slow down"}`
		case 2:
			return http.StatusBadGateway, `{"message":"upstream"}`
		}
		return 0, ""
	}
	h := newHarness(t, withAPI(api))
	doc := h.load(fixture.Transfers(3))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document})
	got, progress := h.submit(p.Plan, conn)
	if got.Failure != nil || got.Submission.State != "submitted" || got.Submission.Chunks[0].Attempts != 3 || api.Bulks() != 1 {
		t.Fatalf("submission %+v, failure %+v, %d bulks", got.Submission, got.Failure, api.Bulks())
	}
	refs := api.Refs()
	if len(refs) != 3 || refs[0] != p.Chunks[0].Ref || refs[1] != refs[0] || refs[2] != refs[0] {
		t.Errorf("the attempts carried refs %q, want %s each time", refs, p.Chunks[0].Ref)
	}
	// Every wait is reported at once, with its reason: the 429's reset.
	var waits []string
	for _, pr := range progress {
		if strings.Contains(pr.Detail, "trying again") {
			waits = append(waits, pr.Detail)
		}
	}
	if len(waits) != 2 || !strings.Contains(waits[0], "too many requests") || !strings.Contains(waits[0], "in 1s") || !strings.Contains(waits[1], "the API failed") {
		t.Errorf("the waits reported: %q", waits)
	}
}

func TestAJournalThatCannotOpenStopsSubmissionUntilItOpens(t *testing.T) {
	api := fakeapi.New()
	opens := 0
	h := newHarness(t, withAPI(api), func(w *workers) {
		w.api.OpenJournal = func(context.Context) (submission.Journal, string, error) {
			opens++
			if opens == 1 {
				return nil, "", fmt.Errorf("IndexedDB blocked")
			}
			return memstore.NewJournal(), "IndexedDB", nil
		}
	})
	// The browser's own words go to the log, under the reference the
	// sentence gives.
	if e := h.failure(h.send(wire.JobJournal, wire.Journal{}, nil)); e.Code != wire.CodeUnavailable || !strings.Contains(e.Message, "journal cannot be opened") || !strings.Contains(e.Message, "reference") || strings.Contains(e.Message, "IndexedDB blocked") {
		t.Fatalf("the first journal job: %+v", e)
	}
	doc := h.load(fixture.Transfers(2))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document})
	if got, _ := h.submit(p.Plan, conn); got.Submission.State != "submitted" || api.Bulks() != 1 {
		t.Errorf("once the journal opens: %+v, %d bulks", got.Submission, api.Bulks())
	}
}
