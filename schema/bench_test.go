package schema_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/schema"
)

// transfersBody returns a request body of n valid transfers that use every
// optional field.
func transfersBody(n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"pathParams":{},"requestBody":{"profileId":"110321","tag":"payroll-%d","source":{"type":"managed_accounts","id":"10%07d"},"destination":{"type":"managed_cards","id":"20%07d"},"destinationAmount":{"currency":"EUR","amount":%d},"description":"Salary November, ref %d","scheduledTimestamp":"%d"}}`,
			i, i%97, i, 100+i*7, i, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func BenchmarkValidate10kTransfers(b *testing.B) {
	v := schema.Default()
	k, _ := schema.Lookup("transfers")
	body := transfersBody(10000)
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
	body := transfersBody(10000)
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
	body := transfersBody(10000)
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
	doc, _, err := schema.DecodeJSON(transfersBody(10000))
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
