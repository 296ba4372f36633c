package sandbox_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/submission/filestore"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

// BenchmarkSubmit10kTransfers submits 10,000 transfers to the sandbox over
// loopback HTTP: "request" is the API call alone (the sandbox decodes and
// validates every element), "end-to-end" adds planning (canonical body,
// ref) and the file journal's writes before and after the call.
func BenchmarkSubmit10kTransfers(b *testing.B) {
	body := fixture.SampleBody(schema.MaxElements)
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		b.Fatal(err)
	}
	elements := doc.([]any)
	ctx := context.Background()

	b.Run("request", func(b *testing.B) {
		h := mustServe(b, sandbox.Config{})
		b.SetBytes(int64(len(body)))
		b.ReportMetric(float64(len(body)), "request-bytes")
		for b.Loop() {
			if _, err := h.client.Submit(ctx, transfers, body, "bench-"+submission.NewSalt()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("end-to-end", func(b *testing.B) {
		h := mustServe(b, sandbox.Config{})
		dir := b.TempDir()
		var size int
		for i := 0; b.Loop(); i++ {
			plan, err := submission.NewPlan(transfers, elements, submission.PlanOptions{Salt: submission.NewSalt()})
			if err != nil {
				b.Fatal(err)
			}
			size = len(plan.Chunks[0].Body)
			s := &submission.Submitter{Sender: h.client, Journal: filestore.NewJournal(filepath.Join(dir, fmt.Sprintf("j%d.json", i)))}
			if _, err := s.Submit(ctx, plan); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(int64(size))
		b.ReportMetric(float64(size), "request-bytes")
	})
}
