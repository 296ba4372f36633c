package schema_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

func BenchmarkValidate10kTransfers(b *testing.B) {
	v := schema.Default()
	k, _ := schema.Lookup("transfers")
	body := fixture.November.Body(10000)
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		b.Fatal(err)
	}
	elements := doc.([]any)
	if r := v.ValidateRequest(k, elements); !r.Valid() || len(r.Problems) != 0 {
		b.Fatalf("benchmark data is not clean: %+v", r.Problems[:1])
	}
	b.ResetTimer()
	for b.Loop() {
		v.ValidateRequest(k, elements)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/element")
}

func BenchmarkDecode10kTransfers(b *testing.B) {
	body := fixture.November.Body(10000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := schema.DecodeJSON(body); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/element")
}

func BenchmarkCheck10kTransfers(b *testing.B) {
	v := schema.Default()
	k, _ := schema.Lookup("transfers")
	body := fixture.November.Body(10000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := v.CheckRequest(k, body); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/element")
}

// BenchmarkLibraryOnly10kTransfers is the baseline: every element through
// the library, without the pre-check.
func BenchmarkLibraryOnly10kTransfers(b *testing.B) {
	v := schema.Default()
	k, _ := schema.Lookup("transfers")
	doc, _, err := schema.DecodeJSON(fixture.November.Body(10000))
	if err != nil {
		b.Fatal(err)
	}
	elements := doc.([]any)
	for b.Loop() {
		for _, e := range elements {
			if err := schema.LibraryOnly(v, k, e); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/element")
}
