//go:build !js

package approvals_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

func TestTheMakerMayNotExecute(t *testing.T) {
	rule := &approvals.Rule{Records: mustOpen(t, t.TempDir())}
	defer rule.Records.(*approvals.Store).Close()
	if err := rule.Submitted("b-1", "alice", "backoffice"); err != nil {
		t.Fatal(err)
	}
	d := rule.MayExecute("b-1", "Alice")
	if d.Allowed || d.Reason != approvals.RefusedSameOperator || d.Message != "four eyes: bulk b-1 was submitted by alice; another operator must execute it" {
		t.Errorf("the maker: %+v", d)
	}
	if d := rule.MayExecute("b-1", "bob"); !d.Allowed || !d.Known || d.Record.API != "backoffice" {
		t.Errorf("the checker: %+v", d)
	}
	if d := rule.MayExecute("b-2", "bob"); d.Allowed || d.Reason != approvals.RefusedUnknown || !strings.Contains(d.Message, "-four-eyes-unknown allow") {
		t.Errorf("an unknown bulk: %+v", d)
	}
	if d := rule.MayExecute("b-1", ""); d.Allowed {
		t.Errorf("nobody: %+v", d)
	}
	rule.AllowUnknown = true
	if d := rule.MayExecute("b-2", "bob"); !d.Allowed || d.Known {
		t.Errorf("an unknown bulk, allowed: %+v", d)
	}
	if d := rule.MayExecute("b-1", "alice"); d.Allowed {
		t.Errorf("the maker, unknown allowed: %+v", d)
	}
}

func TestTheStatusEndpoint(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	rule := &approvals.Rule{Records: mustOpen(t, t.TempDir()), Now: func() time.Time { return at }}
	defer rule.Records.(*approvals.Store).Close()
	if err := rule.Submitted("b-1", "alice", "standard"); err != nil {
		t.Fatal(err)
	}
	ask := func(rule *approvals.Rule, user, id string) (int, map[string]any, http.Header) {
		mux := http.NewServeMux()
		mux.Handle("GET /four-eyes/bulks/{id}", approvals.Handler(rule, func(context.Context) string { return user }))
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", "/four-eyes/bulks/"+id, nil))
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", rec.Body.String(), err)
		}
		return rec.Code, m, rec.Header()
	}
	code, m, h := ask(rule, "bob", "b-1")
	if code != 200 || m["rule"] != true || m["submittedBy"] != "alice" || m["submittedAt"] != "2026-11-23T09:30:00Z" || m["you"] != "bob" || m["mayExecute"] != true || m["api"] != "standard" || h.Get("Cache-Control") != "no-store" {
		t.Errorf("the checker: %d %v %v", code, m, h)
	}
	if code, m, _ := ask(rule, "alice", "b-1"); code != 200 || m["mayExecute"] != false || !strings.Contains(m["message"].(string), "another operator") {
		t.Errorf("the maker: %d %v", code, m)
	}
	if code, m, _ := ask(rule, "bob", "b-9"); code != 404 || m["rule"] != true || m["known"] != false || m["mayExecute"] != false {
		t.Errorf("unknown: %d %v", code, m)
	}
	// With the rule off the console still learns who signed in, to name
	// the maker in a receipt and the checker in a review.
	if code, m, _ := ask(nil, "bob", "b-1"); code != 200 || len(m) != 2 || m["rule"] != false || m["you"] != "bob" {
		t.Errorf("the rule off: %d %v", code, m)
	}
	if code, m, _ := ask(nil, "", "b-1"); code != 200 || len(m) != 1 || m["rule"] != false {
		t.Errorf("the rule off, no sign-in: %d %v", code, m)
	}
}

// TestAScopedRuleKeepsItsBulksApart: the sandbox beside a real API shares
// the records; a bulk id of one names another bulk at the other.
func TestAScopedRuleKeepsItsBulksApart(t *testing.T) {
	store := mustOpen(t, t.TempDir())
	defer store.Close()
	api := &approvals.Rule{Records: store}
	sandbox := &approvals.Rule{Records: store, Scope: "sandbox"}
	if err := api.Submitted("500", "alice", "standard"); err != nil {
		t.Fatal(err)
	}
	if err := sandbox.Submitted("500", "bob", "standard"); err != nil {
		t.Fatal(err)
	}
	if d := api.MayExecute("500", "bob"); !d.Allowed || d.Record.SubmittedBy != "alice" || d.Record.BulkID != "500" {
		t.Errorf("bob, the API's bulk 500: %+v", d)
	}
	if d := sandbox.MayExecute("500", "bob"); d.Reason != approvals.RefusedSameOperator || d.Record.BulkID != "500" {
		t.Errorf("bob, the sandbox's bulk 500: %+v", d)
	}
	if d := sandbox.MayExecute("501", "alice"); d.Reason != approvals.RefusedUnknown {
		t.Errorf("alice, the sandbox's unknown bulk 501: %+v", d)
	}
}

// TestTheStatusOfABulkASubmissionMayHaveMade: with unknown bulks allowed,
// the maker asking about an unknown bulk while a submission of theirs is
// in flight reads that it may not be executed, and why.
func TestTheStatusOfABulkASubmissionMayHaveMade(t *testing.T) {
	store := mustOpen(t, t.TempDir())
	defer store.Close()
	rule := &approvals.Rule{Records: store, AllowUnknown: true}
	defer rule.Close()
	if _, err := rule.Submitting("alice", "standard", time.Minute); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /four-eyes/bulks/{id}", approvals.Handler(rule, func(context.Context) string { return "alice" }))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/four-eyes/bulks/500", nil))
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != http.StatusNotFound || m["known"] != false || m["mayExecute"] != false || !strings.Contains(fmt.Sprint(m["message"]), "still awaits its answer") {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
}
