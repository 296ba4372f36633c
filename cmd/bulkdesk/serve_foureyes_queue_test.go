package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// submitFile submits body through s's path (below the console's root) as
// user, naming file as the console does, and returns the bulk's id.
func submitFile(t *testing.T, s *securedServe, user, path, file string, body []byte) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", s.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-User", user)
	req.Header.Set("api-key", sandbox.DefaultAPIKey)
	req.Header.Set("Authorization", "Bearer "+sandbox.DefaultToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(bulkapi.HeaderFileName, url.PathEscape(file))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	var created bulkapi.Receipt
	if res.StatusCode != http.StatusCreated || json.Unmarshal(answer, &created) != nil || created.BulkID == "" {
		t.Fatalf("%s submitting %s: %d %s", user, file, res.StatusCode, answer)
	}
	return created.BulkID
}

// awaiting asks s for the queue as user.
func awaiting(t *testing.T, s *securedServe, user string) approvals.Queue {
	t.Helper()
	res, body := call(t, "GET", s.url+"four-eyes/bulks?state=awaiting", header("X-Forwarded-User", user))
	var q approvals.Queue
	if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &q) != nil || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the queue, as %s: %d %q", user, res.StatusCode, body)
	}
	return q
}

// checkApprovalQueue: alice submits three bulks through s, one of them
// through the sandbox's own path; bob's queue lists the three with their
// totals and files; once bob executed one and alice cancelled another,
// one is left. The status of a bulk holds the server's receipt, which a
// review of the bulk matches.
func checkApprovalQueue(t *testing.T, s *securedServe) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	files := []string{"Löhne März.xlsx", "suppliers 2026-11.csv", "refunds #3.json"}
	paths := []string{"api/bulks/transfers", "sandbox/multi/bulks/transfers", "api/bulks/transfers"}
	// Each run's tags are its own, so that no bulk repeats another.
	run := func(i int) fixture.Run { return fixture.Salary(fmt.Sprintf("run-%d.json", i)) }
	var ids []string
	for i, file := range files {
		ids = append(ids, submitFile(t, s, "alice", paths[i], file, run(i).Body(10*(i+1))))
	}

	q := awaiting(t, s, "bob")
	if !q.Rule || q.You != "bob" || len(q.Bulks) != 3 || q.Next != nil {
		t.Fatalf("bob's queue: %+v", q)
	}
	for i, b := range q.Bulks {
		n := len(files) - 1 - i // newest first
		want := fmt.Sprint(run(n).Total(10 * (n + 1)))
		if b.BulkID != ids[n] || b.SubmittedBy != "alice" || b.FileName != files[n] || b.Kind != "transfers" || b.Elements != 10*(n+1) || !b.MayExecute ||
			len(b.Totals) != 1 || b.Totals[0].Currency != "EUR" || b.Totals[0].Minor != want || b.SubmittedAt.IsZero() {
			t.Errorf("bulk %d of the queue: %+v; want bulk %s of %s, %s EUR", i, b, ids[n], files[n], want)
		}
	}
	if q := awaiting(t, s, "alice"); len(q.Bulks) != 3 || q.Bulks[0].MayExecute {
		t.Errorf("alice's queue lists her own bulks, not hers to execute: %+v", q)
	}

	bob, alice := operator(t, s, "bob"), operator(t, s, "alice")
	if err := bob.Execute(ctx, ids[0], bulkapi.ExecuteOptions{}); err != nil {
		t.Fatalf("bob executing: %v", err)
	}
	if err := alice.Cancel(ctx, ids[2]); err != nil {
		t.Fatalf("alice cancelling: %v", err)
	}
	q = awaiting(t, s, "bob")
	if len(q.Bulks) != 1 || q.Bulks[0].BulkID != ids[1] {
		t.Errorf("the queue once one bulk is executed and one cancelled: %+v; want %s alone", q.Bulks, ids[1])
	}

	states := []string{approvals.StateExecuted, approvals.StateAwaiting, approvals.StateCancelled}
	for i, id := range ids {
		res, body := call(t, "GET", s.url+"four-eyes/bulks/"+id, header("X-Forwarded-User", "bob"))
		var st approvals.Status
		if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &st) != nil || st.Receipt == nil {
			t.Fatalf("the status of bulk %s: %d %.300s", id, res.StatusCode, body)
		}
		rc := st.Receipt
		if st.State != states[i] || st.FileName != files[i] || st.Kind != "transfers" || rc.File != files[i] || rc.SubmittedBy != "alice" ||
			!rc.SubmittedAt.Equal(*st.SubmittedAt) || rc.Elements != 10*(i+1) || len(rc.Chunks) != 1 || rc.Chunks[0].BulkID != id {
			t.Errorf("the status of bulk %s: %+v", id, st)
		}
		// The checker's review of the bulk, read back from the API, finds
		// what the server's receipt says was sent.
		rv, err := bulkreview.Fetch(ctx, bob, id, bulkreview.Options{Validator: fixture.Validator()})
		if err != nil {
			t.Fatal(err)
		}
		if d := bulkreview.Compare(rc, rv); len(d) != 0 {
			t.Errorf("bulk %s differs from the server's receipt: %v", id, d)
		}
	}
	if got := []string{q.Bulks[0].BulkID}; !slices.Equal(got, ids[1:2]) {
		t.Errorf("left awaiting: %v", got)
	}
}

func TestServeFourEyesQueue(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-state-dir", t.TempDir())
	checkApprovalQueue(t, s)
}

func TestServeFourEyesQueueOffSaysSo(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32")
	if res, body := call(t, "GET", s.url+"four-eyes/bulks?state=awaiting", header("X-Forwarded-User", "bob")); res.StatusCode != 200 || body != `{"rule":false}`+"\n" {
		t.Errorf("the rule off: %d %q", res.StatusCode, body)
	}
	if res, _ := call(t, "GET", s.url+"four-eyes/bulks?state=awaiting"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a user: %d, want 401", res.StatusCode)
	}
}
