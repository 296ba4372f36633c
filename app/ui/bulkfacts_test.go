package ui

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestStateWordsSayWhereABulkStands(t *testing.T) {
	counted := func(status string, done int, counts map[string]int) wire.BulkInfo {
		return wire.BulkInfo{Status: status, Operations: 2000, Done: done, Counts: counts}
	}
	for _, c := range []struct {
		b    wire.BulkInfo
		want string
	}{
		{counted("SUBMITTED", 0, map[string]int{"SUBMITTED": 2000}), "Awaiting approval: submitted, not executed yet"},
		{counted("RUNNING", 1200, map[string]int{"COMPLETED": 1200, "SUBMITTED": 800}), "Running: 1,200 of 2,000 done"},
		{wire.BulkInfo{Status: "RUNNING", Operations: 2000}, "Running"},
		{counted("PAUSED", 300, map[string]int{"COMPLETED": 300}), "Paused: 300 of 2,000 done"},
		{counted("COMPLETED", 2000, map[string]int{"COMPLETED": 2000}), "Completed: all 2,000 done"},
		{counted("PARTIALLY_COMPLETED", 2000, map[string]int{"COMPLETED": 1950, "FAILED": 50}), "Partially completed: 50 of 2,000 failed"},
		{counted("FAILED", 0, map[string]int{"SUBMITTED": 2000}), "Failed: no operation was executed"},
		{counted("CANCELLED", 2000, map[string]int{"COMPLETED": 700, "CANCELLED": 1300}), "Cancelled: 700 of 2,000 had run; the others never will"},
	} {
		if got := stateWords(c.b); got != c.want {
			t.Errorf("%s: %q, want %q", c.b.Status, got, c.want)
		}
	}
}

func TestAnEarlierBulkIsNotCountedAsMade(t *testing.T) {
	two := wire.SubmissionInfo{Chunks: []wire.ChunkInfo{{BulkID: "7"}, {BulkID: "8"}}}
	if got := submitOutcome(wire.Submitted{Submission: two}); got != "Submitted: 2 bulks made. Open a bulk to execute it." {
		t.Errorf("new bulks: %q", got)
	}
	one := wire.SubmissionInfo{Chunks: []wire.ChunkInfo{{BulkID: "7"}}}
	got := submitOutcome(wire.Submitted{Submission: one, Existing: []wire.ExistingBulk{{Bulk: wire.BulkInfo{BulkID: "7", Status: "RUNNING"}}}})
	if strings.Contains(got, "made.") || !strings.Contains(got, "no new bulk was made") || !strings.Contains(got, "made before") {
		t.Errorf("an earlier bulk: %q", got)
	}
	got = submitOutcome(wire.Submitted{Submission: two, Existing: []wire.ExistingBulk{{Chunk: 1, Bulk: wire.BulkInfo{BulkID: "8"}}}})
	if !strings.HasPrefix(got, "Submitted, but 1 new bulk was made, and the API answered with a bulk it had made before") {
		t.Errorf("one of two: %q", got)
	}
}

func TestTotalsText(t *testing.T) {
	tot := &wire.BulkTotals{MovesMoney: true, Totals: []wire.Total{{Label: "EUR", Amount: "1,234.56"}, {Label: "GBP", Amount: "10.00"}}}
	if got := totalsText(tot); got != "EUR 1,234.56 · GBP 10.00" {
		t.Errorf("totals %q", got)
	}
	if got := totalsText(nil); got != "" {
		t.Errorf("unknown totals %q", got)
	}
	if got := sourceOf(wire.BulkInfo{BulkID: "9"}); got != "submitted elsewhere" {
		t.Errorf("source of a bulk the journal does not know: %q", got)
	}
	// Totals the API would not give say why in the console's language.
	defer setLanguage(lang.English)
	setLanguage(lang.German)
	refused := &wire.BulkTotals{Failure: &wire.APIFailure{Class: wire.ClassCredentials, Status: 401, Summary: "the API did not accept the api-key or the token"}}
	if got := totalsText(refused); !strings.Contains(got, "Die API hat den api-key oder das Token nicht angenommen") {
		t.Errorf("totals not read, in German: %q", got)
	}
}

func TestProgressTextSaysHowABulkEnded(t *testing.T) {
	for _, c := range []struct {
		b    wire.BulkInfo
		want string
	}{
		{wire.BulkInfo{Status: wire.BulkRunning, Operations: 2000, Done: 1200, Counts: map[string]int{wire.OperationCompleted: 1200}}, "1,200 of 2,000 operations done"},
		{wire.BulkInfo{Status: wire.BulkCancelled, Operations: 2000, Done: 2000, Counts: map[string]int{wire.OperationCancelled: 2000}}, "2,000 operations: 2,000 cancelled"},
		{wire.BulkInfo{Status: wire.BulkPartiallyCompleted, Operations: 10, Done: 10, Counts: map[string]int{wire.OperationCompleted: 7, wire.OperationFailed: 3}}, "10 operations: 7 completed, 3 failed"},
		{wire.BulkInfo{Status: wire.BulkCancelled, Operations: 5, Counts: map[string]int{}}, "5 operations: no operation ran"},
	} {
		if got := progressText(c.b); got != c.want {
			t.Errorf("%s: %q, want %q", c.b.Status, got, c.want)
		}
	}
}
