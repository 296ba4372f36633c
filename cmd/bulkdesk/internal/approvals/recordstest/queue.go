package recordstest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// ids lists the bulk ids of records.
func ids(recs []approvals.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.BulkID
	}
	return out
}

// runQueue holds the records to the queue of bulks awaiting a second
// operator: which it lists, in which order, and how it pages.
func runQueue(t *testing.T, open func(t *testing.T) approvals.Records) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	t.Run("executed and cancelled bulks leave the queue", func(t *testing.T) {
		s := open(t)
		for i := range 5 {
			id := fmt.Sprint("q-", i)
			if _, err := s.Put(withReceipt(id, "alice", at.Add(time.Duration(i)*time.Minute), receipt(id, i+1, 1, "alice", at))); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Executed("q-1", "bob", at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.Cancelled("q-3", "alice", at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		// A second cancellation, or one of an unknown bulk, changes nothing.
		if err := s.Cancelled("q-3", "bob", at.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.Cancelled("q-9", "bob", at); err != nil {
			t.Fatal(err)
		}
		got, err := s.Awaiting(approvals.Page{Limit: 10})
		if err != nil || !slices.Equal(ids(got), []string{"q-4", "q-2", "q-0"}) {
			t.Fatalf("awaiting: %v, %v; want q-4, q-2, q-0", ids(got), err)
		}
		if got[0].SubmittedBy != "alice" || !got[0].SubmittedAt.Equal(at.Add(4*time.Minute)) || got[0].Elements != 5 || got[0].Kind != "transfers" || len(got[0].Totals) != 1 || got[0].Totals[0].Minor != "750" {
			t.Errorf("the newest listed as %+v", got[0])
		}
		r, _, _ := s.Get("q-3")
		if r.State() != approvals.StateCancelled || r.CancelledBy != "alice" || r.CancelledAt == nil || !r.CancelledAt.Equal(at.Add(time.Hour)) {
			t.Errorf("the cancelled bulk: %+v", r)
		}
		if r, _, _ := s.Get("q-1"); r.State() != approvals.StateExecuted {
			t.Errorf("the executed bulk: %+v", r)
		}
		if _, found, _ := s.Get("q-9"); found {
			t.Error("a cancellation made a record of an unknown bulk")
		}
		// Cancelled once executed: the cancellation is the last word.
		if err := s.Cancelled("q-1", "carol", at.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if r, _, _ := s.Get("q-1"); r.State() != approvals.StateCancelled || r.ExecutedBy != "bob" {
			t.Errorf("executed, then cancelled: %+v", r)
		}
		if err := s.Executed("q-0", "bob", at.Add(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Awaiting(approvals.Page{Limit: 10}); err != nil || !slices.Equal(ids(got), []string{"q-4", "q-2"}) {
			t.Errorf("awaiting once q-0 is executed: %v, %v", ids(got), err)
		}
	})
	t.Run("a bulk the API says ran or was cancelled leaves the queue", func(t *testing.T) {
		s := open(t)
		for i, id := range []string{"a", "b", "c", "d"} {
			if _, err := s.Put(approvals.Record{BulkID: id, SubmittedBy: "alice", SubmittedAt: at.Add(time.Duration(i) * time.Minute)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Executed("d", "bob", at); err != nil {
			t.Fatal(err)
		}
		for id, st := range map[string]bulkapi.Status{"a": bulkapi.Running, "b": bulkapi.Cancelled, "c": bulkapi.Submitted, "d": bulkapi.Completed, "e": bulkapi.Running} {
			if err := s.Settled(id, st); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := s.Awaiting(approvals.Page{Limit: 10}); err != nil || !slices.Equal(ids(got), []string{"c"}) {
			t.Errorf("awaiting: %v, %v; want c alone", ids(got), err)
		}
		for id, want := range map[string]string{"a": approvals.StateExecuted, "b": approvals.StateCancelled, "c": approvals.StateAwaiting, "d": approvals.StateExecuted} {
			if r, _, err := s.Get(id); err != nil || r.State() != want {
				t.Errorf("%s: %+v, %v; want %s", id, r, err, want)
			}
		}
		// The approval given here stays the record's: the API's state is
		// kept only of a bulk awaiting one.
		if r, _, _ := s.Get("d"); r.APIStatus != "" || r.ExecutedBy != "bob" {
			t.Errorf("d: %+v", r)
		}
		if r, _, _ := s.Get("a"); r.APIStatus != bulkapi.Running || r.ExecutedBy != "" {
			t.Errorf("a: %+v", r)
		}
		if _, found, _ := s.Get("e"); found {
			t.Error("the API's state made a record of an unknown bulk")
		}
		// A later cancellation through the server is still its last word.
		if err := s.Cancelled("a", "carol", at); err != nil {
			t.Fatal(err)
		}
		if r, _, _ := s.Get("a"); r.State() != approvals.StateCancelled {
			t.Errorf("a cancelled after it ran: %+v", r)
		}
	})
	t.Run("the queue pages newest first, never splitting bulks of one time", func(t *testing.T) {
		s := open(t)
		var want []string
		// 23 bulks, three of each minute but the last two: ties to page
		// through. Bulks of another scope are listed apart.
		for i := range 23 {
			id := fmt.Sprintf("p-%02d", i)
			when := at.Add(time.Duration(i/3) * time.Minute)
			for _, key := range []string{id, "sandbox/" + id} {
				if _, err := s.Put(approvals.Record{BulkID: key, SubmittedBy: "alice", SubmittedAt: when, API: "standard"}); err != nil {
					t.Fatal(err)
				}
			}
			want = append(want, id)
		}
		slices.Reverse(want)
		page := approvals.Page{Limit: 4}
		var got []string
		for range 10 {
			recs, err := s.Awaiting(page)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ids(recs)...)
			if len(recs) < page.Limit {
				break
			}
			last := recs[len(recs)-1]
			page.Before, page.BeforeID = last.SubmittedAt, last.BulkID
		}
		if !slices.Equal(got, want) {
			t.Errorf("paged through: %v\nwant %v", got, want)
		}
		sandbox, err := s.Awaiting(approvals.Page{Scope: "sandbox", Limit: 100})
		if err != nil || len(sandbox) != 23 || sandbox[0].BulkID != "sandbox/p-22" || sandbox[22].BulkID != "sandbox/p-00" {
			t.Errorf("the sandbox's: %v, %v", ids(sandbox), err)
		}
		// Before alone: strictly earlier than that time.
		recs, err := s.Awaiting(approvals.Page{Before: at.Add(time.Minute), Limit: 100})
		if err != nil || !slices.Equal(ids(recs), []string{"p-02", "p-01", "p-00"}) {
			t.Errorf("before 9:31: %v, %v", ids(recs), err)
		}
		if recs, err := s.Awaiting(approvals.Page{Scope: "elsewhere", Limit: 100}); err != nil || len(recs) != 0 {
			t.Errorf("a scope without bulks: %v, %v", ids(recs), err)
		}
	})
}
