package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
)

// benchCSV is a transfers CSV of n rows in major units with decimal
// commas, so that every detector has evidence in every row.
func benchCSV(n int) []byte {
	var b strings.Builder
	b.WriteString("profileId;source.id;source.type;destination.id;destination.type;currency;amount;description\n")
	for i := range n {
		fmt.Fprintf(&b, "110321;%d;managed_accounts;%d;managed_cards;%s;%d.%03d,%02d;Salary %d\n", 1000+i, 5000+i, []string{"EUR", "USD", "GBP"}[i%3], 1+i%90, i%1000, i%100, i)
	}
	return []byte(b.String())
}

// BenchmarkDetect100kRows is the detectors alone, over every amount of
// 100,000 rows; BenchmarkIngest100kRows is the whole ingest of the same
// file (open, read, map and detect, build and validate). BENCHMARKS.md
// holds their ratio.
func BenchmarkDetect100kRows(b *testing.B) {
	im := benchImport(b, benchCSV(100_000))
	b.ResetTimer()
	for b.Loop() {
		if d := im.p.detect(); d.units.Value != Major {
			b.Fatalf("units %+v", d.units)
		}
	}
}

func BenchmarkIngest100kRows(b *testing.B) {
	data := benchCSV(100_000)
	for b.Loop() {
		if res := benchImport(b, data).Build(nil); len(res.Elements) != 100_000 {
			b.Fatalf("%d elements", len(res.Elements))
		}
	}
}

// benchImport opens, reads and maps a transfers CSV, as an ingest does.
func benchImport(b *testing.B, data []byte) *Import {
	f, err := Open("pay.csv", data, Options{})
	if err != nil {
		b.Fatal(err)
	}
	t, err := f.Table("", nil)
	if err != nil {
		b.Fatal(err)
	}
	k, err := schema.Lookup("transfers")
	if err != nil {
		b.Fatal(err)
	}
	return NewImport(t, k, schema.Default())
}
