package recordstest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// runInFlight holds the records to their submissions in flight, and the
// rule to what it decides by them: two rules on one set of records are
// two servers on one database.
func runInFlight(t *testing.T, open func(t *testing.T) approvals.Records) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	t.Run("a call in flight is listed until it ends or lapses", func(t *testing.T) {
		s := open(t)
		alice := approvals.InFlight{ID: "f-1", User: "alice", API: "standard", Since: at, Until: at.Add(2 * time.Minute)}
		bob := approvals.InFlight{ID: "f-2", User: "bob", BulkID: "b-7", Since: at, Until: at.Add(time.Minute)}
		for _, f := range []approvals.InFlight{alice, bob} {
			if err := s.BeginFlight(f); err != nil {
				t.Fatal(err)
			}
		}
		want := func(when time.Time, ids ...string) {
			t.Helper()
			got, err := s.Flights(when)
			var gotIDs []string
			for _, f := range got {
				gotIDs = append(gotIDs, f.ID)
				if f.ID == alice.ID && (f.User != alice.User || f.API != alice.API || f.BulkID != "" || !f.Since.Equal(at) || !f.Until.Equal(alice.Until)) {
					t.Errorf("read back as %+v, written %+v", f, alice)
				}
				if f.ID == bob.ID && (f.User != bob.User || f.BulkID != bob.BulkID) {
					t.Errorf("read back as %+v, written %+v", f, bob)
				}
			}
			slices.Sort(gotIDs)
			if err != nil || !slices.Equal(gotIDs, ids) {
				t.Errorf("in flight at %s: %v, %v; want %v", when.Format(time.TimeOnly), gotIDs, err, ids)
			}
		}
		want(at, "f-1", "f-2")
		want(at.Add(time.Minute), "f-1") // bob's lapsed
		if err := s.EndFlight("f-1"); err != nil {
			t.Fatal(err)
		}
		if err := s.EndFlight("never-begun"); err != nil {
			t.Errorf("ending an unknown submission: %v", err)
		}
		want(at, "f-2")
		// The next one clears those that lapsed before it began.
		if err := s.BeginFlight(approvals.InFlight{ID: "f-3", User: "carol", Since: at.Add(time.Hour), Until: at.Add(time.Hour + time.Minute)}); err != nil {
			t.Fatal(err)
		}
		want(at, "f-3")
		if err := s.BeginFlight(approvals.InFlight{ID: "f-4", Since: at, Until: at}); err == nil {
			t.Error("a call without a user was kept")
		}
	})
	t.Run("many calls in flight at once", func(t *testing.T) {
		s := open(t)
		var wg sync.WaitGroup
		errs := make(chan error, 120)
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprint("f-", i)
				if err := s.BeginFlight(approvals.InFlight{ID: id, User: fmt.Sprint("u", i%3), Since: at, Until: at.Add(time.Minute)}); err != nil {
					errs <- err
				}
				if _, err := s.Flights(at); err != nil {
					errs <- err
				}
				if i%2 == 0 {
					if err := s.EndFlight(id); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if got, err := s.Flights(at); err != nil || len(got) != 20 {
			t.Errorf("%d in flight, %v; want the 20 not ended", len(got), err)
		}
	})
	t.Run("no execution overtakes the record of its submission", func(t *testing.T) {
		s := open(t)
		now := at
		clock := func() time.Time { return now }
		one := &approvals.Rule{Records: s, AllowUnknown: true, Now: clock}
		two := &approvals.Rule{Records: s, AllowUnknown: true, Now: clock}
		defer one.Close()
		defer two.Close()
		f, err := one.Submitting("alice", "standard", 2*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		// The API has made bulk 500 and not answered yet.
		for i, rule := range []*approvals.Rule{one, two} {
			if d := rule.MayExecute("500", "Alice"); d.Allowed || d.Reason != approvals.RefusedInFlight {
				t.Errorf("server %d, alice before the answer: %+v", i+1, d)
			}
			if d := rule.MayExecute("500", "bob"); !d.Allowed {
				t.Errorf("server %d, bob before the answer: %+v", i+1, d)
			}
		}
		if err := one.Answered(f, approvals.Made{BulkID: "500"}); err != nil {
			t.Fatal(err)
		}
		if d := two.MayExecute("500", "alice"); d.Allowed || d.Reason != approvals.RefusedSameOperator {
			t.Errorf("alice after the answer: %+v", d)
		}
		if d := two.MayExecute("501", "alice"); !d.Allowed {
			t.Errorf("alice, an unknown bulk once her submission is answered: %+v", d)
		}
		// A refused call makes no bulk: its flight ends with nothing recorded.
		f, err = one.Submitting("alice", "standard", 2*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := one.Answered(f, approvals.Made{}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Flights(now); err != nil || len(got) != 0 {
			t.Errorf("in flight once answered: %+v, %v", got, err)
		}
	})
	t.Run("an execution of an unknown bulk and a submission of one operator never overlap", func(t *testing.T) {
		s := open(t)
		one := &approvals.Rule{Records: s, AllowUnknown: true}
		two := &approvals.Rule{Records: s, AllowUnknown: true}
		defer one.Close()
		defer two.Close()
		d, ex := one.Executing("600", "alice", 2*time.Minute)
		if !d.Allowed || d.Known {
			t.Fatalf("alice executing an unknown bulk: %+v", d)
		}
		// Until the API has answered it, alice's submissions could make
		// bulk 600 before the API receives the execution.
		if _, err := two.Submitting("ALICE", "standard", 2*time.Minute); !errors.Is(err, approvals.ErrExecutionInFlight) {
			t.Errorf("alice submitting meanwhile: %v", err)
		}
		sub, err := two.Submitting("bob", "standard", 2*time.Minute)
		if err != nil {
			t.Errorf("bob submitting meanwhile: %v", err)
		}
		if err := one.End(ex); err != nil {
			t.Fatal(err)
		}
		if err := two.Answered(sub, approvals.Made{}); err != nil {
			t.Fatal(err)
		}
		sub, err = two.Submitting("alice", "standard", 2*time.Minute)
		if err != nil {
			t.Fatalf("alice submitting once her execution is answered: %v", err)
		}
		// And while it is in flight, her execution of an unknown bulk is
		// refused without leaving a flight behind.
		if d, ex := one.Executing("601", "alice", 2*time.Minute); d.Allowed || d.Reason != approvals.RefusedInFlight || ex != (approvals.Flight{}) {
			t.Errorf("alice executing while her submission is in flight: %+v", d)
		}
		if d, ex := one.Executing("601", "bob", 2*time.Minute); !d.Allowed || ex == (approvals.Flight{}) {
			t.Errorf("bob executing an unknown bulk meanwhile: %+v", d)
		}
		flights, err := s.Flights(time.Now())
		if err != nil || len(flights) != 2 {
			t.Errorf("in flight: %+v, %v; want alice's submission and bob's execution", flights, err)
		}
		// Executing a known bulk needs no flight.
		if err := two.Answered(sub, approvals.Made{BulkID: "602"}); err != nil {
			t.Fatal(err)
		}
		if d, ex := one.Executing("602", "bob", 2*time.Minute); !d.Allowed || !d.Known || ex != (approvals.Flight{}) {
			t.Errorf("bob executing alice's bulk: %+v, %+v", d, ex)
		}
	})
	t.Run("the flight of a stopped server lapses", func(t *testing.T) {
		s := open(t)
		now := at
		stopped := &approvals.Rule{Records: s, AllowUnknown: true, Now: func() time.Time { return at }}
		if _, err := stopped.Submitting("carol", "backoffice", 2*time.Minute); err != nil {
			t.Fatal(err)
		}
		stopped.Close()
		other := &approvals.Rule{Records: s, AllowUnknown: true, Now: func() time.Time { return now }}
		defer other.Close()
		now = at.Add(time.Minute)
		if d := other.MayExecute("700", "carol"); d.Reason != approvals.RefusedInFlight {
			t.Errorf("carol within the call's limit: %+v", d)
		}
		now = at.Add(2 * time.Minute)
		if d := other.MayExecute("700", "carol"); !d.Allowed {
			t.Errorf("carol once it lapsed: %+v", d)
		}
		// Refusing unknown bulks, a rule keeps no flights.
		refusing := &approvals.Rule{Records: s, Now: func() time.Time { return now }}
		defer refusing.Close()
		if _, err := refusing.Submitting("dave", "standard", time.Minute); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Flights(now); err != nil || len(got) != 0 {
			t.Errorf("in flight: %+v, %v", got, err)
		}
	})
	t.Run("a record that cannot be written is held until it is", func(t *testing.T) {
		s := &failingPut{Records: open(t)}
		s.failing.Store(true)
		one := &approvals.Rule{Records: s, AllowUnknown: true}
		two := &approvals.Rule{Records: s, AllowUnknown: true}
		defer one.Close()
		defer two.Close()
		f, err := one.Submitting("alice", "standard", 2*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := one.Answered(f, approvals.Made{BulkID: "900"}); err == nil {
			t.Fatal("the failed record was not reported")
		}
		if d := one.MayExecute("900", "alice"); d.Reason != approvals.RefusedSameOperator {
			t.Errorf("the server holding it, alice: %+v", d)
		}
		if d := one.MayExecute("900", "bob"); !d.Allowed {
			t.Errorf("the server holding it, bob: %+v", d)
		}
		if err := one.Executed("900", "bob"); err != nil {
			t.Fatal(err)
		}
		if d := two.MayExecute("900", "alice"); d.Reason != approvals.RefusedInFlight {
			t.Errorf("another server, alice: %+v", d)
		}
		s.failing.Store(false)
		// The submission is written first, then the approval given while
		// it was held: wait for both.
		var r approvals.Record
		eventually.NoError(t, 20*time.Second, "the held record to be written whole", func() error {
			var found bool
			var err error
			r, found, err = s.Get("900")
			if err == nil && found && r.ExecutedBy != "" {
				return nil
			}
			return fmt.Errorf("%+v, %v, %v", r, found, err)
		})
		if r.SubmittedBy != "alice" || r.ExecutedBy != "bob" {
			t.Errorf("written at last: %+v", r)
		}
		eventually.NoError(t, 20*time.Second, "the flight to end", func() error {
			if got, _ := s.Flights(time.Now()); len(got) > 0 {
				return fmt.Errorf("still %+v", got)
			}
			return nil
		})
		if d := two.MayExecute("900", "alice"); d.Reason != approvals.RefusedSameOperator {
			t.Errorf("another server, alice, once written: %+v", d)
		}
	})
}

// failingPut is records whose Put fails while failing is set.
type failingPut struct {
	approvals.Records
	failing atomic.Bool
}

func (f *failingPut) Put(r approvals.Record) (bool, error) {
	if f.failing.Load() {
		return false, errors.New("the records refuse writes")
	}
	return f.Records.Put(r)
}
