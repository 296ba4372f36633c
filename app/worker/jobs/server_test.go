package jobs_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/apijobs"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// harness runs the two workers in the background, the second behind the
// first as in the browser, and collects what they post to the page. It
// plays the page's part in the requests for localStorage.
type harness struct {
	t      testing.TB
	server *jobs.Server
	api    *apijobs.Server
	posted chan wire.Message
	warm   chan struct{}
	nextID int

	pageMu sync.Mutex
	page   map[string]string // the page's localStorage
}

// workers are the two workers of a harness, for setting them up.
type workers struct {
	reader *jobs.Server
	api    *apijobs.Server
}

// newHarness starts the workers; setup, if given, configures them before
// they run.
func newHarness(t testing.TB, setup ...func(*workers)) *harness {
	t.Helper()
	h := &harness{t: t, posted: make(chan wire.Message, 1000), warm: make(chan struct{}), page: make(map[string]string)}
	h.server = jobs.NewServer(func(m wire.Message) {
		switch m.Type {
		case wire.TypeWarm:
			close(h.warm)
			return
		case wire.TypeStorage:
			go h.serveStorage(m)
			return
		}
		h.posted <- m
	})
	h.api = apijobs.NewServer(h.server.FromSecond)
	h.server.Forward = h.api.Receive
	for _, f := range setup {
		f(&workers{reader: h.server, api: h.api})
	}
	ctx, cancel := context.WithCancel(context.Background())
	var done sync.WaitGroup
	done.Add(2)
	go func() { h.server.Run(ctx); done.Done() }()
	go func() { h.api.Run(ctx); done.Done() }()
	t.Cleanup(func() { cancel(); done.Wait() })
	return h
}

// serveStorage answers the worker's request for localStorage as a page does.
func (h *harness) serveStorage(m wire.Message) {
	var req wire.StorageRequest
	var reply wire.StorageReply
	if err := json.Unmarshal(m.Body, &req); err != nil {
		reply.Error = err.Error()
	}
	h.pageMu.Lock()
	switch req.Op {
	case "get":
		reply.Value, reply.Found = h.page[req.Key]
	case "set":
		h.page[req.Key] = req.Value
	}
	h.pageMu.Unlock()
	body, _ := json.Marshal(reply)
	h.server.Receive(wire.Message{ID: m.ID, Type: wire.TypeStorageReply, Body: body})
}

// waitWarm waits for the server's warm-up to end.
func (h *harness) waitWarm() {
	h.t.Helper()
	select {
	case <-h.warm:
	case <-time.After(30 * time.Second):
		h.t.Fatal("the server did not warm up")
	}
}

// send posts a request and returns its id.
func (h *harness) send(job string, req any, data []byte) int {
	h.t.Helper()
	body, err := json.Marshal(req)
	if err != nil {
		h.t.Fatal(err)
	}
	h.nextID++
	h.server.Receive(wire.Message{ID: h.nextID, Type: wire.TypeRequest, Job: job, Body: body, Data: data})
	return h.nextID
}

// wait returns the progress messages of request id and its final message.
func (h *harness) wait(id int) (progress []wire.Progress, final wire.Message) {
	h.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m := <-h.posted:
			if m.ID != id {
				h.t.Fatalf("message for request %d while waiting for %d: %+v", m.ID, id, m)
			}
			if m.Type != wire.TypeProgress {
				return progress, m
			}
			var p wire.Progress
			if err := json.Unmarshal(m.Body, &p); err != nil {
				h.t.Fatal(err)
			}
			progress = append(progress, p)
		case <-timeout:
			h.t.Fatalf("no answer to request %d", id)
		}
	}
}

// result waits for request id and decodes its result into v.
func (h *harness) result(id int, v any) []wire.Progress {
	h.t.Helper()
	progress, m := h.wait(id)
	if m.Type != wire.TypeResult {
		h.t.Fatalf("request %d: got %s %s, want a result", id, m.Type, m.Body)
	}
	if err := json.Unmarshal(m.Body, v); err != nil {
		h.t.Fatal(err)
	}
	return progress
}

// summary waits for a JobOpen that built its document and returns the
// document's summary and the job's progress.
func (h *harness) summary(id int) (wire.Summary, []wire.Progress) {
	h.t.Helper()
	var p wire.Prepared
	progress := h.result(id, &p)
	if p.Summary == nil {
		h.t.Fatalf("request %d: the document was not built: %+v", id, p)
	}
	return *p.Summary, progress
}

// failure waits for request id and returns its error.
func (h *harness) failure(id int) wire.Error {
	h.t.Helper()
	_, m := h.wait(id)
	if m.Type != wire.TypeError {
		h.t.Fatalf("request %d: got %s %s, want an error", id, m.Type, m.Body)
	}
	var e wire.Error
	if err := json.Unmarshal(m.Body, &e); err != nil {
		h.t.Fatal(err)
	}
	return e
}

func TestOpenValidatesARequestBodyWithProgress(t *testing.T) {
	h := newHarness(t)
	id := h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "pay.json", Auto: true}, fixture.Transfers(1000, 3, 500))
	got, progress := h.summary(id)

	if got.Elements != 1000 || got.Valid != 998 || got.Invalid != 2 || got.Errors != 2 || got.Kind != "transfers" || got.FileName != "pay.json" {
		t.Errorf("counts = %+v, want 1000 elements, 998 valid, 2 invalid, 2 errors", got)
	}
	if len(got.Problems) != 2 || got.Problems[0].Element != 3 || got.Problems[1].Element != 500 ||
		got.Problems[0].Field != "destinationAmount.currency" || got.Problems[0].Severity != "error" || got.Problems[0].Message == "" {
		t.Errorf("problems = %+v, want the currency of elements 3 and 500", got.Problems)
	}
	// The table's first window comes with the summary, as JobRows would
	// send it.
	var rows wire.Rows
	h.result(h.send(wire.JobRows, wire.RowsWindow{Document: got.Document, Limit: wire.FirstWindow}, nil), &rows)
	if first := got.FirstRows; first == nil || first.Total != 1000 || first.Offset != 0 || len(first.Rows) != wire.FirstWindow ||
		first.Version != got.Version || !reflect.DeepEqual(*first, rows) {
		t.Errorf("the first window %+v is not what JobRows sends", first)
	}
	if len(progress) == 0 {
		t.Fatal("no progress message")
	}
	last := progress[len(progress)-1]
	if last.Phase != "validating" || last.Done != 1000 || last.Total != 1000 {
		t.Errorf("last progress = %+v, want validating 1000 of 1000", last)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i].Done < progress[i-1].Done {
			t.Errorf("progress went back: %+v", progress)
		}
	}
}

func TestOpenReportsRequestBodyProblems(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		name, body, code, message string
	}{
		{"syntax", "[\n{\"pathParams\": {},,}]", "not-json", "bad.json is not a JSON request body: line 2"},
		{"empty", "[]", "empty", "no elements"},
		{"object", `{"pathParams": {}}`, "not-an-array", "JSON array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "bad.json", Auto: true}, []byte(tc.body))
			got, _ := h.summary(id)
			if got.Errors != 1 || len(got.Problems) != 1 {
				t.Fatalf("got %+v, want one request-level error", got)
			}
			p := got.Problems[0]
			if p.Element != wire.RequestLevel || p.Code != tc.code || !strings.Contains(p.Message, tc.message) {
				t.Errorf("problem = %+v, want code %q and a message with %q", p, tc.code, tc.message)
			}
		})
	}
}

func TestBadRequestsAreErrors(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		name, job string
		req       any
		code      string
	}{
		{"unknown kind", wire.JobOpen, wire.Open{Kind: "pizzas", FileName: "p.json"}, wire.CodeBadRequest},
		{"no back-office variant", wire.JobOpen, wire.Open{Kind: "users", BackOffice: true, FileName: "u.json"}, wire.CodeBadRequest},
		{"unknown job", "juggle", struct{}{}, wire.CodeUnknownJob},
		{"body of the wrong shape", wire.JobProblems, []int{1}, wire.CodeBadRequest},
		{"unknown document", wire.JobProblems, wire.ProblemsPage{Document: 99, Limit: 10}, wire.CodeGone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := h.failure(h.send(tc.job, tc.req, []byte("[]")))
			if e.Code != tc.code || e.Message == "" {
				t.Errorf("error = %+v, want code %q with a message", e, tc.code)
			}
		})
	}
}

func TestProblemsPages(t *testing.T) {
	h := newHarness(t)
	bad := make([]int, 0, 150)
	for i := range 150 {
		bad = append(bad, 2*i)
	}
	v, _ := h.summary(h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "t.json", Auto: true}, fixture.Transfers(400, bad...)))
	if v.Errors != 150 || len(v.Problems) != 25 {
		t.Fatalf("got %d errors and a first page of %d, want 150 and 25", v.Errors, len(v.Problems))
	}

	var page wire.Problems
	h.result(h.send(wire.JobProblems, wire.ProblemsPage{Document: v.Document, Offset: 100, Limit: 100}, nil), &page)
	if page.Total != 150 || page.Offset != 100 || len(page.Problems) != 50 || page.Problems[0].Element != 200 {
		t.Errorf("second page = total %d, offset %d, %d problems starting at element %d; want 150, 100, 50, 200",
			page.Total, page.Offset, len(page.Problems), page.Problems[0].Element)
	}

	// Only the last two documents are kept.
	for range 2 {
		h.summary(h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "t.json", Auto: true}, fixture.Transfers(1)))
	}
	if e := h.failure(h.send(wire.JobProblems, wire.ProblemsPage{Document: v.Document, Limit: 10}, nil)); e.Code != wire.CodeGone {
		t.Errorf("an evicted document gave %+v, want %q", e, wire.CodeGone)
	}
}

func TestCancelStopsARunningJob(t *testing.T) {
	h := newHarness(t)
	h.waitWarm()
	id := h.nextID + 1
	// The first progress message is posted before any element is checked;
	// canceling from the yield that follows it stops the job at once.
	h.server.Yield = func() { h.server.Receive(wire.Message{ID: id, Type: wire.TypeCancel}) }
	h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "t.json", Auto: true}, fixture.Transfers(5000))
	progress, m := h.wait(id)
	if m.Type != wire.TypeError || !strings.Contains(string(m.Body), wire.CodeCanceled) {
		t.Fatalf("got %s %s, want a canceled error", m.Type, m.Body)
	}
	if n := len(progress); n != 1 || progress[0].Done != 0 {
		t.Errorf("progress = %+v, want only the first message", progress)
	}
}

func TestCancelDropsAWaitingJob(t *testing.T) {
	h := newHarness(t)
	block := make(chan struct{})
	started := make(chan struct{})
	h.server.Register("block", func(*runner.Call) (any, error) { close(started); <-block; return "done", nil })
	first := h.send("block", nil, nil)
	<-started
	second := h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "t.json", Auto: true}, fixture.Transfers(10))
	h.server.Receive(wire.Message{ID: second, Type: wire.TypeCancel})
	close(block)

	var s string
	h.result(first, &s)
	if e := h.failure(second); e.Code != wire.CodeCanceled {
		t.Errorf("the waiting job gave %+v, want canceled", e)
	}
}

func TestAPanickingJobIsAnErrorAndTheServerGoesOn(t *testing.T) {
	h := newHarness(t)
	h.server.Register("explode", func(*runner.Call) (any, error) { panic("boom") })
	if e := h.failure(h.send("explode", nil, nil)); e.Code != wire.CodeInternal || e.Ref == "" || strings.Contains(e.Message, "boom") {
		t.Errorf("error = %+v, want internal with a reference and without the panic's value, which goes to the log", e)
	}
	v, _ := h.summary(h.send(wire.JobOpen, wire.Open{Kind: "transfers", FileName: "t.json", Auto: true}, fixture.Transfers(2)))
	if v.Valid != 2 {
		t.Errorf("after the panic: %+v", v)
	}
}

func TestResultsCarryData(t *testing.T) {
	h := newHarness(t)
	h.server.Register("echo", func(c *runner.Call) (any, error) { c.SetData(c.Data); return len(c.Data), nil })
	id := h.send("echo", nil, []byte("payload"))
	_, m := h.wait(id)
	if m.Type != wire.TypeResult || string(m.Body) != "7" || string(m.Data) != "payload" {
		t.Errorf("got %+v, want result 7 with the payload", m)
	}
}

func TestTheServerWarmsUpWhenIdleAndSaysSo(t *testing.T) {
	h := newHarness(t)
	// A job sent during the warm-up is answered, and the warm-up ends.
	v, _ := h.summary(h.send(wire.JobOpen, wire.Open{Kind: "users", FileName: "u.json", Auto: true}, []byte(`[{"pathParams":{},"requestBody":{}}]`)))
	if v.Invalid != 1 {
		t.Errorf("result = %+v", v)
	}
	h.waitWarm()
}
