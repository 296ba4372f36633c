//go:build !js

package proxy_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// slowRecords are records whose Put first tells putting and waits for
// release, or fails while failing is set.
type slowRecords struct {
	approvals.Records
	putting chan approvals.Record
	release chan struct{}
	failing atomic.Bool
}

func (s *slowRecords) Put(r approvals.Record) (bool, error) {
	if s.putting != nil {
		s.putting <- r
		<-s.release
	}
	if s.failing.Load() {
		return false, errors.New("the records refuse writes")
	}
	return s.Records.Put(r)
}

// TestFourEyesAnExecuteWaitsForTheRecordOfItsSubmission: under
// -four-eyes-unknown allow, the maker's execute that arrives while the
// answer naming the bulk is being recorded is refused, and never reaches
// the API; so it is once the record is written.
func TestFourEyesAnExecuteWaitsForTheRecordOfItsSubmission(t *testing.T) {
	slow := &slowRecords{putting: make(chan approvals.Record), release: make(chan struct{})}
	f := startFourEyesOn(t, true, func(r approvals.Records) approvals.Records { slow.Records = r; return slow })
	submitted := make(chan string, 1)
	go func() {
		status, body, err := f.send("alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`)
		if err != nil || status != http.StatusCreated {
			t.Errorf("the submission: %d %q, %v", status, body, err)
		}
		submitted <- body
	}()
	var rec approvals.Record
	select {
	case rec = <-slow.putting:
	case body := <-submitted:
		t.Fatalf("the submission was answered, %q, without being recorded", body)
	case <-time.After(10 * time.Second):
		t.Fatal("the submission's answer was not recorded within 10 s")
	}
	// The bulk is made and its answer is being recorded.
	status, body := f.do(t, "alice", "POST", "/api/bulks/"+rec.BulkID+"/execute", "{}")
	if status != http.StatusForbidden || !strings.Contains(body, "still awaits its answer") {
		t.Errorf("alice executing while her submission is recorded: %d %q", status, body)
	}
	close(slow.release)
	if body := <-submitted; !strings.Contains(body, rec.BulkID) {
		t.Fatalf("the submission answered %q", body)
	}
	if status, body := f.do(t, "alice", "POST", "/api/bulks/"+rec.BulkID+"/execute", "{}"); status != http.StatusForbidden || !strings.Contains(body, "was submitted by alice") {
		t.Errorf("alice executing once it is recorded: %d %q", status, body)
	}
	if got := f.executions(); len(got) != 0 {
		t.Errorf("alice's execute reached the API: %v", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.refused) != 2 || f.refused[0] != approvals.RefusedInFlight || f.refused[1] != approvals.RefusedSameOperator {
		t.Errorf("refusals reported: %v", f.refused)
	}
}

// TestFourEyesAFailedRecordStillKeepsTheMakerOut: the record of a
// submission fails once the API has answered; the answer still reaches
// the maker, whose execute is refused all the same, and the record is
// written once the records take writes again.
func TestFourEyesAFailedRecordStillKeepsTheMakerOut(t *testing.T) {
	slow := &slowRecords{}
	slow.failing.Store(true)
	f := startFourEyesOn(t, true, func(r approvals.Records) approvals.Records { slow.Records = r; return slow })
	id := f.submit(t, "alice", "/api")
	if status, body := f.do(t, "alice", "POST", "/api/bulks/"+id+"/execute", "{}"); status != http.StatusForbidden || !strings.Contains(body, "was submitted by alice") {
		t.Errorf("alice executing a bulk whose record failed: %d %q", status, body)
	}
	if !strings.Contains(f.log.String(), "not recorded yet") {
		t.Errorf("the log does not say the record failed:\n%s", f.log)
	}
	slow.failing.Store(false)
	var r approvals.Record
	eventually.True(t, 20*time.Second, "the record to be written", func() bool {
		var found bool
		var err error
		r, found, err = slow.Get(id)
		return err == nil && found
	})
	if r.SubmittedBy != "alice" {
		t.Errorf("written at last: %+v", r)
	}
	if got := f.executions(); len(got) != 0 {
		t.Errorf("alice's execute reached the API: %v", got)
	}
}

// TestFourEyesASubmissionThatCannotBeRecordedIsNotSent: with unknown
// bulks allowed, a submission whose flight cannot be recorded is refused
// with 503 before it reaches the API: its bulk could be executed by its
// maker before anything says who that is.
func TestFourEyesASubmissionThatCannotBeRecordedIsNotSent(t *testing.T) {
	f := startFourEyesOn(t, true, func(r approvals.Records) approvals.Records { return noFlights{r} })
	status, body := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`)
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "was not sent") {
		t.Errorf("the submission: %d %q", status, body)
	}
	if n := f.api.Bulks(); n != 0 {
		t.Errorf("the API made %d bulks", n)
	}
}

type noFlights struct{ approvals.Records }

func (noFlights) BeginFlight(approvals.InFlight) error {
	return errors.New("the records refuse writes")
}

// TestFourEyesGatesEverySpellingOfAnExecute: the back-office API below
// the standard one's path (-api-url …/multi, -backoffice-url
// …/multi/backoffice) and doubled slashes lead to the same execute, and
// are gated as it is.
func TestFourEyesGatesEverySpellingOfAnExecute(t *testing.T) {
	f := startFourEyes(t, true)
	id := f.submit(t, "alice", "/backoffice")
	for _, path := range []string{"/api/backoffice/bulks/" + id + "/execute", "/api/bulks//" + id + "/execute", "/backoffice//bulks/" + id + "//execute/"} {
		if status, body := f.do(t, "alice", "POST", path, "{}"); status != http.StatusForbidden || !strings.Contains(body, "was submitted by alice") {
			t.Errorf("POST %s: %d %q", path, status, body)
		}
	}
	if got := f.executions(); len(got) != 0 {
		t.Errorf("alice's execute reached the API: %v", got)
	}
	// A submission through the back-office API below the standard one is
	// recorded too.
	id = f.submit(t, "carol", "/api/backoffice")
	if status, _ := f.do(t, "carol", "POST", "/backoffice/bulks/"+id+"/execute", "{}"); status != http.StatusForbidden {
		t.Errorf("carol executing her bulk: %d", status)
	}
}

// TestFourEyesRecordsSubmissionsOfEveryMethod: card spend rules are
// submitted with PATCH; any call that answers 201 with a bulk records it.
func TestFourEyesRecordsSubmissionsOfEveryMethod(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"bulkId":"b-` + r.Method + `"}`))
	}))
	defer upstream.Close()
	store, f := ruledProxy(t, upstream.URL, true)
	for _, method := range []string{"POST", "PATCH", "PUT"} {
		if status, _ := f.do(t, "alice", method, "/backoffice/bulks/managed_cards/1/spend_rules", "[]"); status != http.StatusCreated {
			t.Fatalf("%s: %d", method, status)
		}
		if r, found, err := store.Get("b-" + method); err != nil || !found || r.SubmittedBy != "alice" {
			t.Errorf("the bulk of a %s: %+v, %v, %v", method, r, found, err)
		}
	}
	if flights, err := store.Flights(time.Now()); err != nil || len(flights) != 0 {
		t.Errorf("in flight once answered: %+v, %v", flights, err)
	}
}

// TestFourEyesASubmissionWaitsForAnExecutionOnItsWay: alice starts
// executing bulk 500, which does not exist yet, and holds back its body,
// so that the API has not acted on it; her submission meanwhile, which
// the API would make bulk 500, is refused until the execution is
// answered. Were it sent, the execution would run her own bulk.
func TestFourEyesASubmissionWaitsForAnExecutionOnItsWay(t *testing.T) {
	f := startFourEyes(t, true)
	body, rest := io.Pipe()
	executed := make(chan string, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "POST", f.url+"/api/bulks/"+strconv.Itoa(fakeapi.FirstBulkID)+"/execute", body)
		req.Header.Set(auth.DefaultHeader, "alice")
		req.Header.Set("api-key", secretKey)
		req.Header.Set("Authorization", "Bearer "+secretToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			executed <- err.Error()
			return
		}
		resp.Body.Close()
		executed <- resp.Status
	}()
	select {
	case <-f.arriving:
	case got := <-executed:
		t.Fatalf("the execution was answered before the API had it: %s", got)
	case <-time.After(10 * time.Second):
		t.Fatal("the execution did not reach the API within 10 s")
	}
	status, answer := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`)
	if status != http.StatusServiceUnavailable || !strings.Contains(answer, "an execution of yours") {
		t.Errorf("alice submitting while her execution is on its way: %d %q", status, answer)
	}
	if status, answer := f.do(t, "bob", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`); status != http.StatusCreated {
		t.Errorf("bob submitting meanwhile: %d %q", status, answer)
	}
	rest.Write([]byte("{}"))
	rest.Close()
	if got := <-executed; got != "204 No Content" {
		t.Errorf("the execution of bob's bulk: %s", got)
	}
	// Bulk 500 is bob's, and alice's execution of it is its approval.
	if rec, _, err := f.rule.Records.Get(strconv.Itoa(fakeapi.FirstBulkID)); err != nil || rec.SubmittedBy != "bob" || rec.ExecutedBy != "alice" {
		t.Errorf("bulk %d: %+v, %v", fakeapi.FirstBulkID, rec, err)
	}
	id := f.submit(t, "alice", "/api")
	if status, answer := f.do(t, "alice", "POST", "/api/bulks/"+id+"/execute", "{}"); status != http.StatusForbidden {
		t.Errorf("alice executing her bulk once submitted: %d %q", status, answer)
	}
}
