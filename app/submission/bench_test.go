package submission_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

// BenchmarkPlan10kTransfers is the browser-side cost of preparing a
// submission: the canonical body and the ref of 10,000 transfers.
func BenchmarkPlan10kTransfers(b *testing.B) {
	elements := request(10_000)
	for b.Loop() {
		if _, err := submission.NewPlan(transfers, elements, submission.PlanOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
