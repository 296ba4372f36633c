package schema_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/lang"
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

// BenchmarkExplain10kInvalidTransfers times the messages: 10,000
// transfers whose currency is in lower case, each explained, in English
// and in German (the catalog looked up for every message).
func BenchmarkExplain10kInvalidTransfers(b *testing.B) {
	k, _ := schema.Lookup("transfers")
	bad := make([]int, 10000)
	for i := range bad {
		bad[i] = i
	}
	doc, _, err := schema.DecodeJSON(fixture.Plain.Body(10000, bad...))
	if err != nil {
		b.Fatal(err)
	}
	elements := doc.([]any)
	for _, l := range []lang.Tag{lang.English, lang.German} {
		b.Run(l.Name(), func(b *testing.B) {
			v, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Language: l})
			if err != nil {
				b.Fatal(err)
			}
			if r := v.ValidateRequest(k, elements); r.Valid() {
				b.Fatal("benchmark data is valid")
			}
			for b.Loop() {
				v.ValidateRequest(k, elements)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/element")
		})
	}
}
