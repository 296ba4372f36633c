//go:build !js

package approvals_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/schema"
	"go.etcd.io/bbolt"
)

// ask answers a GET of the console's four-eyes endpoints as user.
func ask(t *testing.T, rule *approvals.Rule, user, target string) (int, map[string]any) {
	t.Helper()
	mux := http.NewServeMux()
	who := func(context.Context) string { return user }
	mux.Handle("GET /four-eyes/bulks", approvals.QueueHandler(rule, who))
	mux.Handle("GET /four-eyes/bulks/{id}", approvals.Handler(rule, who))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s: %q: %v", target, rec.Body.String(), err)
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("%s: Cache-Control %q", target, cc)
	}
	return rec.Code, m
}

// made is what the proxy gives the rule of a submission of n transfers
// from file.
func made(t *testing.T, id string, n int, file string) approvals.Made {
	t.Helper()
	k, _ := schema.Lookup("transfers")
	rc, err := bulkreview.ReceiptOfBody(k, false, fixture.SampleBody(n), id, bulkreview.Declared{File: file})
	if err != nil {
		t.Fatal(err)
	}
	return approvals.Made{BulkID: id, Kind: k.ID, FileName: file, Receipt: rc}
}

// bulkIDs lists the bulk ids of a queue's answer.
func bulkIDs(m map[string]any) []string {
	var out []string
	list, _ := m["bulks"].([]any)
	for _, b := range list {
		out = append(out, b.(map[string]any)["bulkId"].(string))
	}
	return out
}

func TestTheQueueListsTheBulksAwaitingASecondOperator(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	now := at
	rule := &approvals.Rule{Records: mustOpen(t, t.TempDir()), Now: func() time.Time { return now }}
	defer rule.Records.(*approvals.Store).Close()
	defer rule.Close()
	for i, sub := range []struct{ user, id string }{{"alice", "b-1"}, {"alice", "b-2"}, {"bob", "b-3"}, {"alice", "b-4"}, {"alice", "b-5"}} {
		now = at.Add(time.Duration(i) * time.Minute)
		f, err := rule.Submitting(sub.user, "standard", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := rule.Answered(f, made(t, sub.id, 2+i, "pay "+sub.id+".xlsx")); err != nil {
			t.Fatal(err)
		}
	}
	if err := rule.Executed("b-2", "bob"); err != nil {
		t.Fatal(err)
	}
	if err := rule.Cancelled("b-4", "alice"); err != nil {
		t.Fatal(err)
	}

	code, m := ask(t, rule, "bob", "/four-eyes/bulks?state=awaiting")
	if code != 200 || m["rule"] != true || m["you"] != "bob" || !slices.Equal(bulkIDs(m), []string{"b-5", "b-3", "b-1"}) || m["next"] != nil {
		t.Fatalf("bob's queue: %d %v", code, m)
	}
	first := m["bulks"].([]any)[0].(map[string]any)
	want := map[string]any{"bulkId": "b-5", "submittedBy": "alice", "submittedAt": "2026-11-23T09:34:00Z", "api": "standard",
		"fileName": "pay b-5.xlsx", "kind": "transfers", "elements": 6.0, "mayExecute": true,
		"totals": []any{map[string]any{"currency": "EUR", "count": 6.0, "minor": fmt.Sprint(fixture.Sample.Total(6)), "amount": "6.15"}}}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("the newest bulk:\n%v\nwant\n%v", first, want)
	}
	if own := m["bulks"].([]any)[1].(map[string]any); own["mayExecute"] != false {
		t.Errorf("bob's own bulk: %v", own)
	}

	// Pages follow the cursor of the one before.
	_, m = ask(t, rule, "alice", "/four-eyes/bulks?state=awaiting&limit=2")
	next, _ := m["next"].(map[string]any)
	if !slices.Equal(bulkIDs(m), []string{"b-5", "b-3"}) || next == nil || next["beforeId"] != "b-3" {
		t.Fatalf("the first page: %v", m)
	}
	q := url.Values{"state": {"awaiting"}, "limit": {"2"}, "before": {next["before"].(string)}, "beforeId": {"b-3"}}
	if _, m = ask(t, rule, "alice", "/four-eyes/bulks?"+q.Encode()); !slices.Equal(bulkIDs(m), []string{"b-1"}) || m["next"] != nil {
		t.Errorf("the second page: %v", m)
	}

	for _, bad := range []string{"", "?state=executed", "?state=awaiting&limit=0", "?state=awaiting&limit=501", "?state=awaiting&before=yesterday", "?state=awaiting&beforeId=b-3"} {
		if code, m := ask(t, rule, "bob", "/four-eyes/bulks"+bad); code != 400 || !strings.Contains(m["message"].(string), "four eyes:") {
			t.Errorf("%q: %d %v", bad, code, m)
		}
	}
	if code, m := ask(t, nil, "bob", "/four-eyes/bulks?state=awaiting"); code != 200 || len(m) != 1 || m["rule"] != false {
		t.Errorf("the rule off: %d %v", code, m)
	}
}

func TestTheStatusHoldsTheServersReceipt(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 123456789, time.UTC)
	rule := &approvals.Rule{Records: mustOpen(t, t.TempDir()), Now: func() time.Time { return at }}
	defer rule.Records.(*approvals.Store).Close()
	defer rule.Close()
	f, _ := rule.Submitting("alice", "standard", time.Minute)
	m := made(t, "b-1", 3, "Löhne März.xlsx")
	if err := rule.Answered(f, m); err != nil {
		t.Fatal(err)
	}
	if err := rule.Submitted("b-2", "alice", "standard"); err != nil {
		t.Fatal(err)
	}
	code, st := ask(t, rule, "bob", "/four-eyes/bulks/b-1")
	if code != 200 || st["state"] != "awaiting" || st["kind"] != "transfers" || st["fileName"] != "Löhne März.xlsx" || st["mayExecute"] != true {
		t.Fatalf("bob asking: %d %v", code, st)
	}
	data, _ := json.Marshal(st["receipt"])
	rc, err := bulkreview.ReadReceipt(data)
	if err != nil {
		t.Fatalf("the receipt answered: %v\n%s", err, data)
	}
	// The receipt names the maker and the time of the record, to the
	// microsecond as both stores keep it.
	kept := at.Truncate(time.Microsecond)
	if rc.SubmittedBy != "alice" || !rc.SubmittedAt.Equal(kept) || st["submittedAt"] != kept.Format(time.RFC3339Nano) || rc.File != "Löhne März.xlsx" ||
		rc.Chunks[0].SHA256 != m.Receipt.Chunks[0].SHA256 || rc.Chunks[0].BulkID != "b-1" || rc.Elements != 3 {
		t.Errorf("the receipt: %+v", rc)
	}
	if err := rule.Cancelled("b-1", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, st := ask(t, rule, "alice", "/four-eyes/bulks/b-1"); st["state"] != "cancelled" || st["cancelledBy"] != "bob" {
		t.Errorf("once cancelled: %v", st)
	}
	// A bulk recorded without a receipt says so by its absence.
	if _, st := ask(t, rule, "bob", "/four-eyes/bulks/b-2"); st["receipt"] != nil || st["state"] != "awaiting" || st["kind"] != nil {
		t.Errorf("a bulk without a receipt: %v", st)
	}
}

func TestTheSandboxsQueueIsKeptApart(t *testing.T) {
	store := mustOpen(t, t.TempDir())
	defer store.Close()
	api := &approvals.Rule{Records: store}
	sandbox := &approvals.Rule{Records: store, Scope: "sandbox"}
	for _, rule := range []*approvals.Rule{api, sandbox} {
		if err := rule.Submitted("500", "alice", "standard"); err != nil {
			t.Fatal(err)
		}
	}
	if err := sandbox.Submitted("501", "alice", "standard"); err != nil {
		t.Fatal(err)
	}
	if err := sandbox.Cancelled("500", "bob"); err != nil {
		t.Fatal(err)
	}
	if recs, err := api.Awaiting(approvals.Page{Limit: 10}); err != nil || len(recs) != 1 || recs[0].BulkID != "500" {
		t.Errorf("the API's queue: %+v, %v", recs, err)
	}
	if recs, err := sandbox.Awaiting(approvals.Page{Limit: 10}); err != nil || len(recs) != 1 || recs[0].BulkID != "501" {
		t.Errorf("the sandbox's queue: %+v, %v", recs, err)
	}
}

// TestAFileWrittenBeforeTheQueueIsQueuedWhenOpened: the file of a server
// that kept no queue lists its bulks awaiting a second operator once a
// server with one opens it.
func TestAFileWrittenBeforeTheQueueIsQueuedWhenOpened(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	for i, id := range []string{"1", "2", "3"} {
		if _, err := s.Put(approvals.Record{BulkID: id, SubmittedBy: "alice", SubmittedAt: at.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Executed("2", "bob", at); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// The queue's index removed, as in a file of an earlier server.
	db, err := bbolt.Open(filepath.Join(dir, approvals.FileName), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error { return tx.DeleteBucket([]byte("awaiting")) }); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s = mustOpen(t, dir)
	defer s.Close()
	recs, err := s.Awaiting(approvals.Page{Limit: 10})
	if err != nil || len(recs) != 2 || recs[0].BulkID != "3" || recs[1].BulkID != "1" {
		t.Errorf("queued when opened: %+v, %v", recs, err)
	}
}
