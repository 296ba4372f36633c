//go:build !js

package proxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/proxy"
)

// fourEyesAPI is the proxy with the rule in front of the fake API, behind
// header sign-in from 127.0.0.1; executed counts the executions that
// reached the API. The API reads an execution's body before it acts on
// it, as most do; arriving is told of each execution as it arrives,
// before its body is read.
type fourEyesAPI struct {
	url string
	// h is the proxy behind its sign-in, as the server mounts it.
	h        http.Handler
	api      *fakeapi.API
	rule     *approvals.Rule
	log      *fixture.LogBuffer
	arriving chan string
	mu       sync.Mutex
	executed []string
	refused  []string
	// headers are those of every call that reached the API.
	headers       []http.Header
	refuseCancels atomic.Bool
}

func startFourEyes(t *testing.T, allowUnknown bool) *fourEyesAPI {
	t.Helper()
	return startFourEyesOn(t, allowUnknown, nil)
}

// startFourEyesOn is startFourEyes with the records wrap returns around
// the file's, when wrap is not nil.
func startFourEyesOn(t *testing.T, allowUnknown bool, wrap func(approvals.Records) approvals.Records) *fourEyesAPI {
	t.Helper()
	f := &fourEyesAPI{api: fakeapi.New(), log: &fixture.LogBuffer{}, arriving: make(chan string, 1)}
	f.api.Key, f.api.Token = secretKey, secretToken
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		// The fake knows no cancellation: here every bulk can be
		// cancelled, unless refuseCancels is set.
		if r.Method == "POST" && strings.HasSuffix(strings.ToLower(strings.TrimSuffix(r.URL.Path, "/")), "/cancel") {
			status := http.StatusNoContent
			if f.refuseCancels.Load() {
				status = http.StatusConflict
			}
			w.WriteHeader(status)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/execute") {
			select {
			case f.arriving <- r.URL.Path:
			default: // nobody is waiting
			}
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			f.mu.Lock()
			f.executed = append(f.executed, r.URL.Path)
			f.mu.Unlock()
		}
		f.api.ServeHTTP(w, r)
	}))
	t.Cleanup(upstream.Close)
	store, err := approvals.Open(t.TempDir(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var records approvals.Records = store
	if wrap != nil {
		records = wrap(store)
	}
	f.rule = &approvals.Rule{Records: records, AllowUnknown: allowUnknown}
	t.Cleanup(f.rule.Close)
	h, err := proxy.New(proxy.Config{
		APIURL: upstream.URL + "/multi", BackOfficeURL: upstream.URL + "/multi/backoffice",
		Logger:   slog.New(slog.NewTextHandler(f.log, nil)),
		FourEyes: f.rule,
		Refused: func(reason string) {
			f.mu.Lock()
			f.refused = append(f.refused, reason)
			f.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.h = auth.Header(auth.DefaultHeader, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, h)
	srv := httptest.NewServer(f.h)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

// do sends one call as user and returns the status and body.
func (f *fourEyesAPI) do(t *testing.T, user, method, path, body string, setup ...func(*http.Request)) (int, string) {
	t.Helper()
	status, answer, err := f.send(user, method, path, body, setup...)
	if err != nil {
		t.Fatal(err)
	}
	return status, answer
}

// send is do for a goroutine other than the test's.
func (f *fourEyesAPI) send(user, method, path, body string, setup ...func(*http.Request)) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, f.url+path, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set(auth.DefaultHeader, user)
	req.Header.Set("api-key", secretKey)
	req.Header.Set("Authorization", "Bearer "+secretToken)
	req.Header.Set("Content-Type", "application/json")
	for _, f := range setup {
		f(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// submit submits a bulk of one transfer as user and returns its id.
func (f *fourEyesAPI) submit(t *testing.T, user, base string) string {
	t.Helper()
	status, body := f.do(t, user, "POST", base+"/bulks/transfers", `[{"requestBody":{"tag":"payroll"}}]`)
	var created struct {
		BulkID string `json:"bulkId"`
	}
	if status != http.StatusCreated || json.Unmarshal([]byte(body), &created) != nil || created.BulkID == "" {
		t.Fatalf("submitting: %d %q", status, body)
	}
	return created.BulkID
}

func (f *fourEyesAPI) executions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.executed...)
}

func TestFourEyesTheMakerMayNotExecute(t *testing.T) {
	for _, base := range []string{"/api", "/backoffice"} {
		t.Run(base, func(t *testing.T) {
			f := startFourEyes(t, false)
			before := time.Now()
			id := f.submit(t, "alice", base)
			after := time.Now()
			rec, found, err := f.rule.Records.Get(id)
			wantAPI := map[string]string{"/api": "standard", "/backoffice": "backoffice"}[base]
			at := rec.SubmittedAt
			if err != nil || !found || rec.SubmittedBy != "alice" || rec.API != wantAPI || at.Before(before.Truncate(time.Microsecond)) || at.After(after) {
				t.Fatalf("the record: %+v, %v, %v", rec, found, err)
			}

			status, body := f.do(t, "alice", "POST", base+"/bulks/"+id+"/execute", "{}")
			want := "four eyes: bulk " + id + " was submitted by alice; another operator must execute it"
			if status != http.StatusForbidden || !strings.Contains(body, want) {
				t.Errorf("the maker's execute: %d %q", status, body)
			}
			// Neither case nor a trailing slash gets past the rule.
			if status, _ := f.do(t, "ALICE", "POST", base+"/BULKS/"+id+"/Execute/", "{}"); status != http.StatusForbidden {
				t.Errorf("the maker's execute, spelt otherwise: %d", status)
			}
			if got := f.executions(); len(got) != 0 {
				t.Fatalf("the maker's execute reached the API: %v", got)
			}
			// Pausing is not gated: the API answers it (here with 404).
			if status, body := f.do(t, "alice", "POST", base+"/bulks/"+id+"/pause", ""); status == http.StatusForbidden {
				t.Errorf("pause was refused: %q", body)
			}

			if status, body := f.do(t, "bob", "POST", base+"/bulks/"+id+"/execute", "{}"); status != http.StatusNoContent {
				t.Errorf("the checker's execute: %d %q", status, body)
			}
			if got := f.executions(); len(got) != 1 || !strings.HasSuffix(got[0], "/bulks/"+id+"/execute") {
				t.Errorf("executions that reached the API: %v", got)
			}
			// The accepted execution is the checker's approval, on the record.
			if rec, _, err := f.rule.Records.Get(id); err != nil || rec.ExecutedBy != "bob" || rec.ExecutedAt == nil || rec.SubmittedBy != "alice" {
				t.Errorf("the record after the checker's execute: %+v, %v", rec, err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.refused) != 2 || f.refused[0] != approvals.RefusedSameOperator {
				t.Errorf("refusals reported: %v", f.refused)
			}
			for _, secret := range []string{secretKey, secretToken} {
				if strings.Contains(f.log.String(), secret) {
					t.Errorf("the log holds %q", secret)
				}
			}
		})
	}
}

func TestFourEyesAcrossTheTwoAPIs(t *testing.T) {
	f := startFourEyes(t, false)
	id := f.submit(t, "alice", "/api")
	if status, _ := f.do(t, "alice", "POST", "/backoffice/bulks/"+id+"/execute", "{}"); status != http.StatusForbidden {
		t.Errorf("the maker executing through the other API: %d", status)
	}
}

func TestFourEyesUnknownBulks(t *testing.T) {
	for _, allow := range []bool{false, true} {
		f := startFourEyes(t, allow)
		// A bulk made at the API directly, not through the proxy.
		id := f.api.Add("SUBMITTED", time.Time{}, `{"tag":"x"}`)
		status, body := f.do(t, "bob", "POST", "/api/bulks/"+id+"/execute", "{}")
		switch {
		case !allow && (status != http.StatusForbidden || !strings.Contains(body, "no record") || !strings.Contains(body, "-four-eyes-unknown allow")):
			t.Errorf("unknown, refused: %d %q", status, body)
		case allow && status != http.StatusNoContent:
			t.Errorf("unknown, allowed: %d %q", status, body)
		}
		if n := len(f.executions()); allow && n != 1 || !allow && n != 0 {
			t.Errorf("allow %v: %d executions reached the API", allow, n)
		}
	}
}

func TestFourEyesARefusedSubmissionRecordsNothing(t *testing.T) {
	f := startFourEyes(t, false)
	f.api.RefuseNext(1)
	if status, body := f.do(t, "alice", "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`); status != http.StatusBadRequest {
		t.Fatalf("a refused submission: %d %q", status, body)
	}
	// The next bulk the fake makes gets the id the refused one would have.
	id := f.submit(t, "bob", "/api")
	if rec, found, _ := f.rule.Records.Get(id); !found || rec.SubmittedBy != "bob" {
		t.Errorf("bulk %s: %+v, %v", id, rec, found)
	}
	if n := f.api.Bulks(); n != 1 {
		t.Errorf("the API holds %d bulks", n)
	}
}

func TestFourEyesARepeatedSubmissionKeepsItsFirstSubmitter(t *testing.T) {
	f := startFourEyes(t, false)
	withRef := func(r *http.Request) { r.Header.Set("idempotency-ref", secretRef) }
	var ids []string
	for _, user := range []string{"bob", "carol"} {
		status, body := f.do(t, user, "POST", "/api/bulks/transfers", `[{"requestBody":{}}]`, withRef)
		var created struct {
			BulkID string `json:"bulkId"`
		}
		if status != http.StatusCreated || json.Unmarshal([]byte(body), &created) != nil {
			t.Fatalf("%s submitting: %d %q", user, status, body)
		}
		ids = append(ids, created.BulkID)
	}
	if ids[0] != ids[1] {
		t.Fatalf("the API made two bulks: %v", ids)
	}
	if status, _ := f.do(t, "bob", "POST", "/api/bulks/"+ids[0]+"/execute", "{}"); status != http.StatusForbidden {
		t.Errorf("bob executing his own bulk: %d", status)
	}
	if status, _ := f.do(t, "carol", "POST", "/api/bulks/"+ids[0]+"/execute", "{}"); status != http.StatusNoContent {
		t.Errorf("carol executing bob's bulk: %d", status)
	}
	if strings.Contains(f.log.String(), secretRef) {
		t.Error("the log holds the idempotency-ref")
	}
}

func TestFourEyesPassesTheSubmissionsAnswerOnUnchanged(t *testing.T) {
	long := `{"bulkId":"b-long","path":"` + strings.Repeat("x", 100<<10) + `"}`
	answers := map[string]string{"/multi/bulks/transfers": `{"bulkId":"b-7","operationCount":1,"path":"/bulks/b-7"}`, "/multi/bulks/sends": long}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, answers[r.URL.Path])
	}))
	defer upstream.Close()
	store, err := approvals.Open(t.TempDir(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	h, err := proxy.New(proxy.Config{APIURL: upstream.URL + "/multi", FourEyes: &approvals.Rule{Records: store}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(auth.Header(auth.DefaultHeader, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, h))
	defer srv.Close()
	f := &fourEyesAPI{url: srv.URL}
	for path, want := range map[string]string{"/api/bulks/transfers": answers["/multi/bulks/transfers"], "/api/bulks/sends": long} {
		if status, body := f.do(t, "alice", "POST", path, "[]"); status != http.StatusCreated || body != want {
			t.Errorf("%s: %d, %d bytes, want %d", path, status, len(body), len(want))
		}
	}
	if r, found, _ := store.Get("b-7"); !found || r.SubmittedBy != "alice" {
		t.Errorf("b-7: %+v, %v", r, found)
	}
	// An answer too long to be the contract's is not read for its id.
	if _, found, _ := store.Get("b-long"); found {
		t.Error("the over-long answer was recorded")
	}
}
