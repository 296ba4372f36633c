package schema_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

// BenchmarkCheckBody10kTransfers is BenchmarkCheck10kTransfers as the
// worker now checks a body: read flat (ReadBody) and every element
// checked from its bytes, none decoded.
func BenchmarkCheckBody10kTransfers(b *testing.B) {
	v := schema.Default()
	k, _ := schema.Lookup("transfers")
	body := fixture.November.Body(10000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		doc, ok := schema.ReadBody(body)
		if !ok {
			b.Fatal("not a body")
		}
		if r := v.CheckBody(k, doc); len(r.Problems) != 0 {
			b.Fatalf("benchmark data is not clean: %+v", r.Problems[:1])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/element")
}
