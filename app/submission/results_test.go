package submission_test

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

func ops(statuses ...bulkapi.OperationStatus) []bulkapi.Operation {
	out := make([]bulkapi.Operation, len(statuses))
	for i, s := range statuses {
		out[i] = bulkapi.Operation{Sequence: i, Status: s, OperationID: string(rune('a' + i))}
		switch s {
		case bulkapi.OpFailed:
			out[i].ResponsePayload = `{"errorCode":"INSUFFICIENT_FUNDS"}`
		case bulkapi.OpCompleted:
			out[i].ResponsePayload = `{"id":"t` + string(rune('a'+i)) + `"}`
		}
	}
	return out
}

func TestOperationsMapBackToTheFilesElements(t *testing.T) {
	// The chunk holds elements 0, 1, 3, 4 of the file (2 was invalid).
	e := submission.Entry{Chunk: 1, BulkID: "9", Elements: submission.Spans{{From: 0, To: 2}, {From: 3, To: 5}}}
	got, stray := submission.MapOperations(e, ops(bulkapi.OpCompleted, bulkapi.OpFailed, bulkapi.OpCompleted, bulkapi.OpFailed))
	if len(stray) != 0 || len(got) != 4 {
		t.Fatalf("%d results, %d stray", len(got), len(stray))
	}
	var elems []int
	for _, r := range got {
		elems = append(elems, r.Element)
	}
	if !slices.Equal(elems, []int{0, 1, 3, 4}) || got[3].Error != "INSUFFICIENT_FUNDS" || got[3].BulkID != "9" || got[3].Chunk != 1 {
		t.Errorf("results %+v", got)
	}
	// A completed operation's response is no error.
	if got[0].Error != "" || got[0].Response != `{"id":"ta"}` || got[3].Response != "" {
		t.Errorf("completed %+v, failed %+v", got[0], got[3])
	}
	// An API that counts from 1 shows it by a sequence equal to the count.
	oneBased := ops(bulkapi.OpCompleted, bulkapi.OpCompleted, bulkapi.OpCompleted, bulkapi.OpFailed)
	for i := range oneBased {
		oneBased[i].Sequence++
	}
	got, _ = submission.MapOperations(e, oneBased)
	if got[0].Element != 0 || got[3].Element != 4 {
		t.Errorf("1-based: %+v", got)
	}
	extra := append(ops(bulkapi.OpCompleted), bulkapi.Operation{Sequence: 7})
	if _, stray := submission.MapOperations(e, extra); len(stray) != 1 {
		t.Errorf("an operation beyond the chunk was mapped")
	}
}

func TestOperationsMapBackToTheFilesRows(t *testing.T) {
	// Rows 2 to 11 of sheet "Payroll" hold elements 0 to 9; element 4
	// (row 6) is left out, and a row is blank between elements 6 and 7.
	row := func(i int) (string, int) {
		if i >= 7 {
			return "Payroll", i + 3
		}
		return "Payroll", i + 2
	}
	only := []int{0, 1, 2, 3, 5, 6, 7, 8, 9}
	p := mustPlan(t, request(10), submission.PlanOptions{Only: only, ChunkSize: 5, Origin: row})
	if c := p.Chunks[1]; c.Sheet != "Payroll" || !slices.Equal(c.Rows.Indexes(), []int{8, 10, 11, 12}) {
		t.Fatalf("chunk 2 is at %q rows %v", c.Sheet, c.Rows.Indexes())
	}
	e := submission.Entry{Chunk: 1, BulkID: "5", Elements: p.Chunks[1].Elements, Sheet: p.Chunks[1].Sheet, Rows: p.Chunks[1].Rows}
	got, _ := submission.MapOperations(e, ops(bulkapi.OpCompleted, bulkapi.OpFailed, bulkapi.OpCompleted, bulkapi.OpCompleted))
	if r := got[1]; r.Element != 7 || r.Sheet != "Payroll" || r.Row != 10 {
		t.Errorf("the failed operation maps to %+v, want element 7 at row 10", r)
	}
	// A JSON body has no rows: its elements are their own places.
	plain := mustPlan(t, request(3), submission.PlanOptions{Origin: func(i int) (string, int) { return "", i }})
	if c := plain.Chunks[0]; c.Sheet != "" || c.Rows != nil {
		t.Errorf("a JSON body's chunk has rows %q %v", c.Sheet, c.Rows)
	}
	if s, r := (submission.Entry{Elements: plain.Chunks[0].Elements}).Row(1); s != "" || r != 0 {
		t.Errorf("Row of a JSON chunk = %q %d", s, r)
	}
}
