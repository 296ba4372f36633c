package jobs_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/worker"
)

// recordAPI takes transfer bulks, deduplicating refs, and lists them and
// their operations with each operation's requestPayload, as the contract
// describes; it counts the operation reads of each bulk.
type recordAPI struct {
	mu    sync.Mutex
	order []string                       // bulk ids, oldest first
	refs  map[string]string              // ref → bulk id
	ops   map[string][]bulkapi.Operation // bulk id → operations
	reads map[string]int                 // bulk id → operation pages read
	// refuse is how many of the next submissions are refused (400).
	refuse int
}

func newRecordAPI() *recordAPI {
	return &recordAPI{refs: map[string]string{}, ops: map[string][]bulkapi.Operation{}, reads: map[string]int{}}
}

func (f *recordAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	offset, _ := strconv.Atoi(q.Get("offset"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit == 0 {
		limit = 100
	}
	switch rest, _ := strings.CutPrefix(r.URL.Path, "/multi/bulks"); {
	case r.Method == "POST" && rest == "/transfers" && f.refuse > 0:
		f.refuse--
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"message":"refused for the test"}`)
	case r.Method == "POST" && rest == "/transfers":
		body, _ := io.ReadAll(r.Body)
		ref := r.Header.Get(bulkapi.HeaderIdempotencyRef)
		id, ok := f.refs[ref]
		if !ok {
			var elements []struct {
				RequestBody json.RawMessage `json:"requestBody"`
			}
			_ = json.Unmarshal(body, &elements)
			id = strconv.Itoa(500 + len(f.order))
			f.refs[ref] = id
			f.order = append(f.order, id)
			for i, e := range elements {
				f.ops[id] = append(f.ops[id], bulkapi.Operation{OperationID: fmt.Sprint(id, "-", i), Sequence: i, Method: "POST", Path: "/transfers", Status: bulkapi.OpSubmitted, RequestPayload: string(e.RequestBody)})
			}
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"bulkId":%q,"operationCount":%d,"path":"/bulks/%s"}`, id, len(f.ops[id]), id)
	case r.Method == "GET" && rest == "":
		var all []bulkapi.BulkProcess
		for _, id := range slices.Backward(f.order) {
			all = append(all, bulkapi.BulkProcess{BulkID: id, Status: bulkapi.Submitted, SubmittedItemsCount: len(f.ops[id]), Operation: "POST /transfers"})
		}
		got := all[min(offset, len(all)):min(offset+limit, len(all))]
		_ = json.NewEncoder(w).Encode(bulkapi.BulkPage{Count: len(all), ResponseCount: len(got), Bulks: got})
	case r.Method == "GET" && strings.HasSuffix(rest, "/operations"):
		id := strings.TrimSuffix(strings.TrimPrefix(rest, "/"), "/operations")
		f.reads[id]++
		all := f.ops[id]
		got := all[min(offset, len(all)):min(offset+limit, len(all))]
		_ = json.NewEncoder(w).Encode(bulkapi.OperationPage{Count: len(all), ResponseCount: len(got), Operations: got})
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"no such endpoint"}`)
	}
}

func (f *recordAPI) bulks() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.order)
}

// readsOf returns how many times each bulk's operations were read.
func (f *recordAPI) readsOf() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.reads {
		out[k] = v
	}
	return out
}

func (h *harness) submitAnswering(plan, answer string) worker.Submitted {
	h.t.Helper()
	var s worker.Submitted
	h.result(h.send(worker.JobSubmit, worker.Submit{Plan: plan, Connection: conn, Repeats: answer}, nil), &s)
	return s
}

// TestTheConsoleStopsOnRepeatsFromAnotherBrowser submits a file from one
// browser, then from another (its own, empty journal) with other chunks:
// the confirmation lists the repeats from the API's record, sending
// without an answer sends nothing, and the two answers do as they say.
func TestTheConsoleStopsOnRepeatsFromAnotherBrowser(t *testing.T) {
	api := newRecordAPI()
	first := newHarness(t, withAPI(api))
	doc := first.load(transfers(25))
	p := first.prepare(worker.PrepareSubmission{Document: doc.Document, ChunkSize: 10, Connection: &conn})
	if p.Repeats != nil {
		t.Fatalf("repeats before any submission: %+v", p.Repeats)
	}
	if got := first.submitAnswering(p.Plan, ""); got.Failure != nil || api.bulks() != 3 {
		t.Fatalf("first submission: %+v, %d bulks", got.Failure, api.bulks())
	}

	other := newHarness(t, withAPI(api))
	doc = other.load(transfers(30))
	p = other.prepare(worker.PrepareSubmission{Document: doc.Document, ChunkSize: 7, Connection: &conn})
	r := p.Repeats
	if r == nil || r.Count != 25 || r.ToSend != 30 || !r.Record || len(r.Bulks) != 3 || len(r.Elements) != 25 {
		t.Fatalf("repeats %+v", r)
	}
	if e := r.Elements[0]; e.Element != 0 || e.BulkID != "500" || e.Status != "SUBMITTED" || !strings.Contains(e.Text, "Element 0 was submitted before in bulk 500 (SUBMITTED)") {
		t.Errorf("first repeat %+v", e)
	}
	reads := api.readsOf()
	if len(reads) != 3 || reads["500"] != 1 {
		t.Fatalf("operation reads %v", reads)
	}
	// Without an answer nothing is sent.
	got := other.submitAnswering(p.Plan, "")
	if got.Repeats == nil || !got.Repeats.Stopped || got.Repeats.Count != 25 || api.bulks() != 3 {
		t.Fatalf("no answer: %+v, %d bulks", got.Repeats, api.bulks())
	}
	// The check before sending fetched no bulk again.
	if reads := api.readsOf(); reads["500"] != 1 || len(reads) != 3 {
		t.Errorf("operation reads after a second check %v", reads)
	}
	// "Leave them out": the 5 new elements go, 3 left of the fourth chunk
	// and the fifth, untouched, with its ref.
	got = other.submitAnswering(p.Plan, worker.RepeatsLeaveOut)
	if got.Failure != nil || got.Repeats == nil || !got.Repeats.LeftOut || got.Submission.Elements != 5 || len(got.Submission.Chunks) != 2 ||
		got.Submission.Chunks[1].Ref != p.Chunks[4].Ref || api.bulks() != 5 {
		t.Fatalf("leave out: %+v %+v, %d bulks", got.Submission, got.Repeats, api.bulks())
	}
	// The first browser, with its own journal, sends its first two chunks
	// again under their refs (the same bulks come back: no repeat), and
	// finds the third chunk's elements in three bulks.
	doc = first.load(transfers(30))
	p = first.prepare(worker.PrepareSubmission{Document: doc.Document, ChunkSize: 10, Connection: &conn})
	if p.Repeats == nil || p.Repeats.Count != 10 || p.Repeats.ToSend != 10 || !slices.Equal(p.Repeats.Bulks, []string{"502", "503", "504"}) {
		t.Fatalf("all 30: %+v", p.Repeats)
	}
	// Each worker keeps its own record: the first reads every bulk once
	// (its first check saw none), the second only the ones it made.
	if reads := api.readsOf(); reads["500"] != 2 || reads["503"] != 1 || reads["504"] != 1 {
		t.Errorf("operation reads %v", reads)
	}
	// "Submit them again": a new bulk, as asked.
	if got := first.submitAnswering(p.Plan, worker.RepeatsAgain); got.Failure != nil || got.Repeats != nil || api.bulks() != 6 {
		t.Fatalf("again: %+v %+v, %d bulks", got.Failure, got.Repeats, api.bulks())
	}
}

// TestResumingAsksAboutRepeatsToo: a submission refused once, then
// resumed from the journal after the same elements were submitted from
// another browser, is stopped by them like a new one, and resumes
// without them when asked.
func TestResumingAsksAboutRepeatsToo(t *testing.T) {
	api := newRecordAPI()
	here := newHarness(t, withAPI(api))
	doc := here.load(transfers(20))
	p := here.prepare(worker.PrepareSubmission{Document: doc.Document, Connection: &conn})
	api.mu.Lock()
	api.refuse = 1
	api.mu.Unlock()
	refused := here.submitAnswering(p.Plan, "")
	if refused.Failure == nil || api.bulks() != 0 {
		t.Fatalf("the refusal: %+v, %d bulks", refused.Failure, api.bulks())
	}

	// Cut into other chunks, the same elements get other refs.
	elsewhere := newHarness(t, withAPI(api))
	doc = elsewhere.load(transfers(20))
	p = elsewhere.prepare(worker.PrepareSubmission{Document: doc.Document, ChunkSize: 7, Connection: &conn})
	if got := elsewhere.submitAnswering(p.Plan, ""); got.Failure != nil || api.bulks() != 3 {
		t.Fatalf("the other browser's submission: %+v, %d bulks", got.Failure, api.bulks())
	}

	var resumed worker.Submitted
	here.result(here.send(worker.JobResumeSubmission, worker.ResumeSubmission{Submission: refused.Submission.ID, Connection: conn}, nil), &resumed)
	if resumed.Repeats == nil || !resumed.Repeats.Stopped || resumed.Repeats.Count != 20 || api.bulks() != 3 {
		t.Fatalf("resumed without an answer: %+v, %d bulks", resumed.Repeats, api.bulks())
	}
	here.result(here.send(worker.JobResumeSubmission, worker.ResumeSubmission{Submission: refused.Submission.ID, Connection: conn, Repeats: worker.RepeatsLeaveOut}, nil), &resumed)
	if resumed.Failure != nil || api.bulks() != 3 {
		t.Errorf("resumed leaving them out: %+v, %d bulks", resumed.Failure, api.bulks())
	}
}
