package jobs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

func (h *harness) submitAnswering(plan, answer string) wire.Submitted {
	h.t.Helper()
	var s wire.Submitted
	h.result(h.send(wire.JobSubmit, wire.Submit{Plan: plan, Connection: conn, Repeats: answer}, nil), &s)
	return s
}

// TestTheConsoleStopsOnRepeatsFromAnotherBrowser submits a file from one
// browser, then from another (its own, empty journal) with other chunks:
// the confirmation lists the repeats from the API's record, sending
// without an answer sends nothing, and the two answers do as they say.
func TestTheConsoleStopsOnRepeatsFromAnotherBrowser(t *testing.T) {
	api := fakeapi.New()
	first := newHarness(t, withAPI(api))
	doc := first.load(fixture.Transfers(25))
	p := first.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10, Connection: &conn})
	if p.Repeats != nil {
		t.Fatalf("repeats before any submission: %+v", p.Repeats)
	}
	if got := first.submitAnswering(p.Plan, ""); got.Failure != nil || api.Bulks() != 3 {
		t.Fatalf("first submission: %+v, %d bulks", got.Failure, api.Bulks())
	}

	other := newHarness(t, withAPI(api))
	doc = other.load(fixture.Transfers(30))
	p = other.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 7, Connection: &conn})
	r := p.Repeats
	if r == nil || r.Count != 25 || r.ToSend != 30 || !r.Record || len(r.Bulks) != 3 || len(r.Elements) != 25 {
		t.Fatalf("repeats %+v", r)
	}
	if e := r.Elements[0]; e.Element != 0 || e.BulkID != "500" || e.Status != "SUBMITTED" || !strings.Contains(e.Text, "Element 0 was submitted before in bulk 500 (SUBMITTED)") {
		t.Errorf("first repeat %+v", e)
	}
	reads := api.Reads()
	if len(reads) != 3 || reads["500"] != 1 {
		t.Fatalf("operation reads %v", reads)
	}
	// Without an answer nothing is sent.
	got := other.submitAnswering(p.Plan, "")
	if got.Repeats == nil || !got.Repeats.Stopped || got.Repeats.Count != 25 || api.Bulks() != 3 {
		t.Fatalf("no answer: %+v, %d bulks", got.Repeats, api.Bulks())
	}
	// The check before sending fetched no bulk again.
	if reads := api.Reads(); reads["500"] != 1 || len(reads) != 3 {
		t.Errorf("operation reads after a second check %v", reads)
	}
	// "Leave them out": the 5 new elements go, 3 left of the fourth chunk
	// and the fifth, untouched, with its ref.
	got = other.submitAnswering(p.Plan, wire.RepeatsLeaveOut)
	if got.Failure != nil || got.Repeats == nil || !got.Repeats.LeftOut || got.Submission.Elements != 5 || len(got.Submission.Chunks) != 2 ||
		got.Submission.Chunks[1].Ref != p.Chunks[4].Ref || api.Bulks() != 5 {
		t.Fatalf("leave out: %+v %+v, %d bulks", got.Submission, got.Repeats, api.Bulks())
	}
	// The first browser, with its own journal, sends its first two chunks
	// again under their refs (the same bulks come back: no repeat), and
	// finds the third chunk's elements in three bulks.
	doc = first.load(fixture.Transfers(30))
	p = first.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 10, Connection: &conn})
	if p.Repeats == nil || p.Repeats.Count != 10 || p.Repeats.ToSend != 10 || !slices.Equal(p.Repeats.Bulks, []string{"502", "503", "504"}) {
		t.Fatalf("all 30: %+v", p.Repeats)
	}
	// Each worker keeps its own record: the first reads every bulk once
	// (its first check saw none), the second only the ones it made.
	if reads := api.Reads(); reads["500"] != 2 || reads["503"] != 1 || reads["504"] != 1 {
		t.Errorf("operation reads %v", reads)
	}
	// "Submit them again": a new bulk, as asked.
	if got := first.submitAnswering(p.Plan, wire.RepeatsAgain); got.Failure != nil || got.Repeats != nil || api.Bulks() != 6 {
		t.Fatalf("again: %+v %+v, %d bulks", got.Failure, got.Repeats, api.Bulks())
	}
}

// TestResumingAsksAboutRepeatsToo: a submission refused once, then
// resumed from the journal after the same elements were submitted from
// another browser, is stopped by them like a new one, and resumes
// without them when asked.
func TestResumingAsksAboutRepeatsToo(t *testing.T) {
	api := fakeapi.New()
	here := newHarness(t, withAPI(api))
	doc := here.load(fixture.Transfers(20))
	p := here.prepare(wire.PrepareSubmission{Document: doc.Document, Connection: &conn})
	api.RefuseNext(1)
	refused := here.submitAnswering(p.Plan, "")
	if refused.Failure == nil || api.Bulks() != 0 {
		t.Fatalf("the refusal: %+v, %d bulks", refused.Failure, api.Bulks())
	}

	// Cut into other chunks, the same elements get other refs.
	elsewhere := newHarness(t, withAPI(api))
	doc = elsewhere.load(fixture.Transfers(20))
	p = elsewhere.prepare(wire.PrepareSubmission{Document: doc.Document, ChunkSize: 7, Connection: &conn})
	if got := elsewhere.submitAnswering(p.Plan, ""); got.Failure != nil || api.Bulks() != 3 {
		t.Fatalf("the other browser's submission: %+v, %d bulks", got.Failure, api.Bulks())
	}

	var resumed wire.Submitted
	here.result(here.send(wire.JobResumeSubmission, wire.ResumeSubmission{Submission: refused.Submission.ID, Connection: conn}, nil), &resumed)
	if resumed.Repeats == nil || !resumed.Repeats.Stopped || resumed.Repeats.Count != 20 || api.Bulks() != 3 {
		t.Fatalf("resumed without an answer: %+v, %d bulks", resumed.Repeats, api.Bulks())
	}
	here.result(here.send(wire.JobResumeSubmission, wire.ResumeSubmission{Submission: refused.Submission.ID, Connection: conn, Repeats: wire.RepeatsLeaveOut}, nil), &resumed)
	if resumed.Failure != nil || api.Bulks() != 3 {
		t.Errorf("resumed leaving them out: %+v, %d bulks", resumed.Failure, api.Bulks())
	}
}
