// Package recordstest is the behaviour every approvals.Records keeps,
// run against each: the file of a single server and the shared database.
package recordstest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// Run runs the suite; open returns empty records for one subtest.
func Run(t *testing.T, open func(t *testing.T) approvals.Records) {
	runInFlight(t, open)
	runReceipts(t, open)
	runQueue(t, open)
	t.Run("a record is read back as written", func(t *testing.T) {
		s := open(t)
		at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
		want := approvals.Record{BulkID: "b-1", SubmittedBy: "alice", SubmittedAt: at, API: "standard"}
		if stored, err := s.Put(want); err != nil || !stored {
			t.Fatalf("Put: %v, %v", stored, err)
		}
		got, found, err := s.Get("b-1")
		if err != nil || !found || got.BulkID != want.BulkID || got.SubmittedBy != want.SubmittedBy || !got.SubmittedAt.Equal(at) || got.API != want.API || got.ExecutedAt != nil {
			t.Errorf("Get: %+v, %v, %v; want %+v", got, found, err, want)
		}
		if _, found, err := s.Get("b-2"); err != nil || found {
			t.Errorf("an unknown bulk: found %v, %v", found, err)
		}
	})
	t.Run("the first submitter stays", func(t *testing.T) {
		s := open(t)
		if _, err := s.Put(approvals.Record{BulkID: "b", SubmittedBy: "alice"}); err != nil {
			t.Fatal(err)
		}
		if stored, err := s.Put(approvals.Record{BulkID: "b", SubmittedBy: "bob"}); err != nil || stored {
			t.Errorf("a second submitter was stored: %v, %v", stored, err)
		}
		if r, _, _ := s.Get("b"); r.SubmittedBy != "alice" {
			t.Errorf("submitted by %q, want alice", r.SubmittedBy)
		}
		if _, err := s.Put(approvals.Record{BulkID: "c"}); err == nil {
			t.Error("a record without a user was stored")
		}
	})
	t.Run("the first execution is the approval", func(t *testing.T) {
		s := open(t)
		at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
		if _, err := s.Put(approvals.Record{BulkID: "7", SubmittedBy: "alice", SubmittedAt: at, API: "standard"}); err != nil {
			t.Fatal(err)
		}
		for _, user := range []string{"bob", "carol"} {
			if err := s.Executed("7", user, at.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Executed("8", "bob", at); err != nil {
			t.Fatal(err)
		}
		r, _, err := s.Get("7")
		if err != nil || r.ExecutedBy != "bob" || r.ExecutedAt == nil || !r.ExecutedAt.Equal(at.Add(time.Hour)) || r.SubmittedBy != "alice" {
			t.Errorf("record %+v, %v", r, err)
		}
		if _, found, _ := s.Get("8"); found {
			t.Error("an execution made a record of an unknown bulk")
		}
	})
	t.Run("concurrent submissions of one bulk keep one maker", func(t *testing.T) {
		s := open(t)
		var wg sync.WaitGroup
		stored := make(chan string, 20)
		errs := make(chan error, 220)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				user := fmt.Sprint("u", i)
				ok, err := s.Put(approvals.Record{BulkID: "same", SubmittedBy: user})
				if err != nil {
					errs <- err
				}
				if ok {
					stored <- user
				}
			}()
		}
		for i := range 100 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				if _, err := s.Put(approvals.Record{BulkID: fmt.Sprint("b-", i), SubmittedBy: fmt.Sprint("u", i%3)}); err != nil {
					errs <- err
				}
			}()
			go func() {
				defer wg.Done()
				if _, _, err := s.Get(fmt.Sprint("b-", i)); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		close(stored)
		for err := range errs {
			t.Error(err)
		}
		var makers []string
		for u := range stored {
			makers = append(makers, u)
		}
		if r, _, _ := s.Get("same"); len(makers) != 1 || r.SubmittedBy != makers[0] {
			t.Errorf("stored by %v, recorded %q", makers, r.SubmittedBy)
		}
		for i := range 100 {
			if r, found, err := s.Get(fmt.Sprint("b-", i)); err != nil || !found || r.SubmittedBy != fmt.Sprint("u", i%3) {
				t.Errorf("b-%d: %+v, %v, %v", i, r, found, err)
			}
		}
	})
}
