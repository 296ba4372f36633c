package jobs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/xuri/excelize/v2"
)

// bulkAPI takes transfer bulks as the API does (deduplicating by
// idempotency-ref, answering a repeat with the earlier bulk and the same
// 201), lists and details them, pages their operations and executes them:
// an element whose description holds "FAIL" fails.
type bulkAPI struct {
	mu    sync.Mutex
	refs  map[string]string // ref → bulk id
	bulks []*fakeBulk
	// operationReads counts the pages of operations read.
	operationReads int
}

type fakeBulk struct {
	id     string
	status bulkapi.Status
	ops    []bulkapi.Operation
}

func newBulkAPI() *bulkAPI { return &bulkAPI{refs: make(map[string]string)} }

func (f *bulkAPI) bulk(id string) *fakeBulk {
	for _, b := range f.bulks {
		if b.id == id {
			return b
		}
	}
	return nil
}

func (b *fakeBulk) view(details bool) bulkapi.BulkProcess {
	v := bulkapi.BulkProcess{BulkID: b.id, Status: b.status, SubmittedItemsCount: len(b.ops), Operation: "POST /transfers"}
	if b.status != bulkapi.Submitted {
		v.ExecutionStart = 1_700_000_000_000
	}
	if details {
		n := make(map[bulkapi.OperationStatus]int)
		for _, op := range b.ops {
			n[op.Status]++
		}
		for _, s := range bulkapi.OperationStatuses() {
			if n[s] > 0 {
				v.OperationStatusCounts = append(v.OperationStatusCounts, bulkapi.StatusCount{Status: s, Count: n[s]})
			}
		}
	}
	return v
}

func (f *bulkAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("api-key") != "key" || r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"message":"who are you?"}`)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/multi")
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case r.Method == "POST" && path == "/bulks/transfers":
		body, _ := io.ReadAll(r.Body)
		ref := r.Header.Get(bulkapi.HeaderIdempotencyRef)
		id, seen := f.refs[ref]
		if !seen {
			var elements []struct {
				RequestBody json.RawMessage `json:"requestBody"`
			}
			if err := json.Unmarshal(body, &elements); err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			id = strconv.Itoa(500 + len(f.bulks))
			b := &fakeBulk{id: id, status: bulkapi.Submitted}
			for i, e := range elements {
				b.ops = append(b.ops, bulkapi.Operation{OperationID: fmt.Sprintf("op-%s-%d", id, i), Sequence: i, Method: "POST", Path: "/transfers", Status: bulkapi.OpSubmitted, RequestPayload: string(e.RequestBody)})
			}
			f.bulks = append(f.bulks, b)
			if ref != "" {
				f.refs[ref] = id
			}
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"bulkId":%q,"operationCount":%d,"path":"/bulks/%s"}`, id, len(f.bulk(id).ops), id)
	case r.Method == "GET" && path == "/bulks":
		page := bulkapi.BulkPage{Count: len(f.bulks), Bulks: []bulkapi.BulkProcess{}}
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		for i := len(f.bulks) - 1 - offset; i >= 0 && (limit == 0 || len(page.Bulks) < limit); i-- {
			page.Bulks = append(page.Bulks, f.bulks[i].view(false))
		}
		page.ResponseCount = len(page.Bulks)
		json.NewEncoder(w).Encode(page)
	case len(parts) >= 2 && parts[0] == "bulks" && f.bulk(parts[1]) != nil:
		b := f.bulk(parts[1])
		switch {
		case r.Method == "GET" && len(parts) == 2:
			json.NewEncoder(w).Encode(b.view(true))
		case r.Method == "GET" && len(parts) == 3 && parts[2] == "operations":
			f.operationReads++
			offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
			limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
			end := min(len(b.ops), offset+limit)
			ops := b.ops[min(offset, end):end]
			json.NewEncoder(w).Encode(bulkapi.OperationPage{Count: len(b.ops), ResponseCount: len(ops), Operations: ops})
		case r.Method == "POST" && len(parts) == 3 && parts[2] == "execute":
			b.status = bulkapi.Completed
			for i := range b.ops {
				op := &b.ops[i]
				if strings.Contains(op.RequestPayload, "FAIL") {
					op.Status, op.ResponsePayload = bulkapi.OpFailed, `{"errorCode":"DECLINED","message":"no"}`
					b.status = bulkapi.PartiallyCompleted
					continue
				}
				op.Status, op.ResponsePayload = bulkapi.OpCompleted, fmt.Sprintf(`{"id":"t%d"}`, 9000+i)
			}
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"no such endpoint"}`)
	}
}

// submitFile loads body as pay.json and submits it in one chunk.
func (h *harness) submitFile(body []byte) worker.Submitted {
	h.t.Helper()
	return h.submitFileAnswering(body, "")
}

// submitFileAnswering submits a file, answering its repeats, if any, as
// repeats says (worker.RepeatsAgain, worker.RepeatsLeaveOut).
func (h *harness) submitFileAnswering(body []byte, repeats string) worker.Submitted {
	h.t.Helper()
	doc := h.load(body)
	c := conn
	p := h.prepare(worker.PrepareSubmission{Document: doc.Document, Connection: &c})
	if p.Plan == "" {
		h.t.Fatalf("nothing to send: %+v", p)
	}
	var got worker.Submitted
	h.result(h.send(worker.JobSubmit, worker.Submit{Plan: p.Plan, Connection: conn, Repeats: repeats}, nil), &got)
	if got.Failure != nil || len(got.Submission.Chunks) != 1 {
		h.t.Fatalf("submission %+v, failure %+v", got.Submission, got.Failure)
	}
	return got
}

func TestASubmissionAnsweredWithAnEarlierBulkSaysSo(t *testing.T) {
	api := newBulkAPI()
	here := newHarness(t, withAPI(api))
	first := here.submitFile(transfers(30))
	id := first.Submission.Chunks[0].BulkID
	if len(first.Existing) != 0 {
		t.Fatalf("a new bulk was reported as existing: %+v", first.Existing)
	}

	// The same file from another browser (a journal of its own), sent
	// again on purpose past the repeat check: the API answers with the
	// bulk it made, and the submission says so.
	elsewhere := newHarness(t, withAPI(api))
	again := elsewhere.submitFileAnswering(transfers(30), worker.RepeatsAgain)
	if len(api.bulks) != 1 || again.Submission.Chunks[0].BulkID != id {
		t.Fatalf("the API holds %d bulks; the answer names %s", len(api.bulks), again.Submission.Chunks[0].BulkID)
	}
	if len(again.Existing) != 1 || again.Existing[0].Bulk.BulkID != id || again.Existing[0].Chunk != 0 ||
		again.Existing[0].Bulk.Status != "SUBMITTED" || again.Existing[0].Bulk.Operations != 30 {
		t.Errorf("existing %+v", again.Existing)
	}

	// Once executed, the bulk answered is told by its state.
	var r worker.BulkResult
	here.result(here.send(worker.JobBulkAction, worker.BulkAction{Connection: conn, BulkID: id, Action: "execute"}, nil), &r)
	third := newHarness(t, withAPI(api))
	late := third.submitFileAnswering(transfers(30), worker.RepeatsAgain)
	if len(late.Existing) != 1 || late.Existing[0].Bulk.Status != "COMPLETED" || late.Existing[0].Bulk.Done != 30 {
		t.Errorf("existing after execution %+v", late.Existing)
	}
}

func TestBulksCarryTheJournalsFileTimeAndTotals(t *testing.T) {
	api := newBulkAPI()
	h := newHarness(t, withAPI(api))
	id := h.submitFile(transfers(250)).Submission.Chunks[0].BulkID

	var l worker.BulkList
	h.result(h.send(worker.JobBulks, worker.ListBulks{Connection: conn}, nil), &l)
	if len(l.Bulks) != 1 {
		t.Fatalf("list %+v", l)
	}
	if b := l.Bulks[0]; b.Source != "pay.json" || b.Submission == "" || b.Submitted == 0 || b.Kind != "transfers" || b.Operations != 250 {
		t.Errorf("listed %+v", b)
	}
	// Another browser's journal does not know the bulk.
	other := newHarness(t, withAPI(api))
	var r worker.BulkResult
	other.result(other.send(worker.JobBulk, worker.GetBulk{Connection: conn, BulkID: id}, nil), &r)
	if b := r.Bulk; b == nil || b.Submission != "" || b.Submitted != 0 || b.Kind != "transfers" {
		t.Errorf("details elsewhere %+v", r.Bulk)
	}

	// The totals are the file's: amounts 100+i cents.
	want := 250*100 + 249*250/2
	var tot worker.BulkTotals
	progress := other.result(other.send(worker.JobBulkTotals, worker.GetBulkTotals{Connection: conn, BulkID: id}, nil), &tot)
	if tot.Failure != nil || !tot.MovesMoney || tot.Elements != 250 || tot.Kind != "transfers" || len(tot.Totals) != 1 ||
		tot.Totals[0].Currency != "EUR" || tot.Totals[0].Minor != strconv.Itoa(want) || tot.Totals[0].Count != 250 ||
		tot.Totals[0].Amount != fmt.Sprintf("%d.%02d", want/100, want%100) {
		t.Errorf("totals %+v, want EUR %d minor units", tot, want)
	}
	if api.operationReads != 3 || len(progress) == 0 {
		t.Errorf("%d pages of operations read, %d progress messages", api.operationReads, len(progress))
	}
	// A bulk's operations never change: the second answer is kept.
	var again worker.BulkTotals
	other.result(other.send(worker.JobBulkTotals, worker.GetBulkTotals{Connection: conn, BulkID: id}, nil), &again)
	if api.operationReads != 3 || len(again.Totals) != 1 || again.Totals[0].Minor != tot.Totals[0].Minor {
		t.Errorf("read again: %d pages, %+v", api.operationReads, again)
	}
}

func TestTheResultWorkbookGivesErrorsToFailuresOnly(t *testing.T) {
	api := newBulkAPI()
	h := newHarness(t, withAPI(api))
	body := bytes.Replace(transfers(3), []byte(`"id":"200000001"}`), []byte(`"id":"200000001"},"description":"FAIL"`), 1)
	id := h.submitFile(body).Submission.Chunks[0].BulkID
	var r worker.BulkResult
	h.result(h.send(worker.JobBulkAction, worker.BulkAction{Connection: conn, BulkID: id, Action: "execute"}, nil), &r)
	if r.Bulk == nil || r.Bulk.Status != "PARTIALLY_COMPLETED" {
		t.Fatalf("executed: %+v", r)
	}
	var f worker.ResultFile
	_, m := h.wait(h.send(worker.JobResultWorkbook, worker.ResultWorkbook{Connection: conn, BulkID: id}, nil))
	if err := json.Unmarshal(m.Body, &f); err != nil || f.Failure != nil || f.Failed != 1 {
		t.Fatalf("result %s", m.Body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, _ := x.GetRows("Results")
	want := [][]string{
		{"Element", "Bulk", "Sequence", "Operation status", "Error", "Response", "Operation id"},
		{"0", id, "0", "COMPLETED", "", `{"id":"t9000"}`, "op-" + id + "-0"},
		{"1", id, "1", "FAILED", "DECLINED: no", "", "op-" + id + "-1"},
		{"2", id, "2", "COMPLETED", "", `{"id":"t9002"}`, "op-" + id + "-2"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("results sheet\n %q\nwant\n %q", rows, want)
	}
}
