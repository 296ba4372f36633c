package sandbox_test

import (
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

func TestBulkRunsToCompletionThroughPauseAndResume(t *testing.T) {
	h := mustServe(t, sandbox.Config{OpsPerSecond: 400})
	id := h.submit(t, 200)
	b, err := h.client.Get(ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != bulkapi.Submitted || b.SubmittedItemsCount != 200 || b.Operation != "POST /transfers" || b.Count(bulkapi.OpSubmitted) != 200 {
		t.Fatalf("after submission: %+v", b)
	}
	if err := h.client.Execute(ctx(t), id, bulkapi.ExecuteOptions{Mode: bulkapi.OnFailureContinue}); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, id, bulkapi.Running)
	if err := h.client.Pause(ctx(t), id); err != nil {
		t.Fatal(err)
	}
	paused := h.waitFor(t, id, bulkapi.Paused)
	done := paused.Done()
	if done >= 200 {
		t.Fatalf("the bulk finished before it could be paused (%d done)", done)
	}
	if again := h.waitFor(t, id, bulkapi.Paused); again.Done() != done {
		t.Errorf("a paused bulk went on: %d then %d operations done", done, again.Done())
	}
	if err := h.client.Resume(ctx(t), id); err != nil {
		t.Fatal(err)
	}
	b = h.waitFor(t, id, bulkapi.Completed)
	if b.Count(bulkapi.OpCompleted) != 200 || b.ExecutionStart == 0 || b.ExecutionFinish < b.ExecutionStart || b.Mode != bulkapi.OnFailureContinue {
		t.Errorf("completed bulk: %+v", b)
	}
}

func TestFailingOperationsDecideTheFinalState(t *testing.T) {
	h := mustServe(t, sandbox.Config{OpsPerSecond: 1e6})
	cases := []struct {
		n    int
		fail []int
		mode bulkapi.Mode
		want bulkapi.Status
		// completed, failed, cancelled operations at the end
		counts [3]int
	}{
		{5, nil, bulkapi.OnFailureContinue, bulkapi.Completed, [3]int{5, 0, 0}},
		{5, []int{1, 3}, bulkapi.OnFailureContinue, bulkapi.PartiallyCompleted, [3]int{3, 2, 0}},
		{3, []int{0, 1, 2}, bulkapi.OnFailureContinue, bulkapi.Failed, [3]int{0, 3, 0}},
		{5, []int{2}, bulkapi.OnFailureStop, bulkapi.PartiallyCompleted, [3]int{2, 1, 2}},
		{4, []int{0}, bulkapi.OnFailureStop, bulkapi.Failed, [3]int{0, 1, 3}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%v_%s", tc.fail, tc.mode), func(t *testing.T) {
			id := h.submit(t, tc.n, tc.fail...)
			if err := h.client.Execute(ctx(t), id, bulkapi.ExecuteOptions{Mode: tc.mode}); err != nil {
				t.Fatal(err)
			}
			b := h.waitFor(t, id, tc.want)
			got := [3]int{b.Count(bulkapi.OpCompleted), b.Count(bulkapi.OpFailed), b.Count(bulkapi.OpCancelled)}
			if got != tc.counts {
				t.Errorf("completed/failed/cancelled = %v, want %v", got, tc.counts)
			}
			failed, err := h.client.AllOperations(ctx(t), id, bulkapi.OpFailed)
			if err != nil {
				t.Fatal(err)
			}
			for i, op := range failed {
				if op.Sequence != tc.fail[i] || op.Failure() == "" || op.Method != "POST" || op.Path != "/transfers" {
					t.Errorf("failed operation %d: %+v", i, op)
				}
			}
		})
	}
}

// reach returns a bulk in state s.
func reach(t *testing.T, fast, slow *harness, s bulkapi.Status) (*harness, string) {
	t.Helper()
	c := ctx(t)
	switch s {
	case bulkapi.Submitted:
		return slow, slow.submit(t, 3)
	case bulkapi.Running, bulkapi.Paused, bulkapi.Cancelled:
		id := slow.submit(t, 1000)
		if err := slow.client.Execute(c, id, bulkapi.ExecuteOptions{}); err != nil {
			t.Fatal(err)
		}
		switch s {
		case bulkapi.Paused:
			err := slow.client.Pause(c, id)
			if err != nil {
				t.Fatal(err)
			}
		case bulkapi.Cancelled:
			if err := slow.client.Cancel(c, id); err != nil {
				t.Fatal(err)
			}
		}
		slow.waitFor(t, id, s)
		return slow, id
	}
	var fail []int
	switch s {
	case bulkapi.PartiallyCompleted:
		fail = []int{0}
	case bulkapi.Failed:
		fail = []int{0, 1}
	}
	id := fast.submit(t, 2, fail...)
	if err := fast.client.Execute(c, id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	fast.waitFor(t, id, s)
	return fast, id
}

func TestEveryTransitionIsAllowedOrRefusedWith409(t *testing.T) {
	fast := mustServe(t, sandbox.Config{OpsPerSecond: 1e6})
	slow := mustServe(t, sandbox.Config{OpsPerSecond: 1})
	for _, from := range bulkapi.Statuses() {
		for _, a := range bulkapi.Actions() {
			t.Run(string(from)+"/"+string(a), func(t *testing.T) {
				h, id := reach(t, fast, slow, from)
				err := h.client.Do(ctx(t), id, a)
				if !from.Allows(a) {
					e := apiError(t, err, 409)
					if e.Code != "INVALID_STATE" {
						t.Errorf("errorCode %q, want INVALID_STATE", e.Code)
					}
					if b, _ := h.client.Get(ctx(t), id); b.Status != from {
						t.Errorf("a refused %s moved the bulk to %s", a, b.Status)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				b, err := h.client.Get(ctx(t), id)
				if err != nil {
					t.Fatal(err)
				}
				if b.Status != a.Target() {
					t.Errorf("after %s the bulk is %s, want %s", a, b.Status, a.Target())
				}
				if a == bulkapi.Cancel && b.Count(bulkapi.OpSubmitted) != 0 {
					t.Errorf("a cancelled bulk still has %d operations waiting", b.Count(bulkapi.OpSubmitted))
				}
			})
		}
	}
}
