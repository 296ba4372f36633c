package ingest_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// transfersCSVWithout writes n transfers as transfersCSV does, without
// the columns of the fields named.
func transfersCSVWithout(n int, fields ...string) []byte {
	var keep []int
	for i, h := range transferHeaders {
		if !slices.Contains(fields, h) {
			keep = append(keep, i)
		}
	}
	var b strings.Builder
	line := func(r []string) {
		for k, i := range keep {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(r[i])
		}
		b.WriteByte('\n')
	}
	line(transferHeaders)
	for i := range n {
		r := transferRow(i)
		r[8] = `"` + r[8] + `"`
		line(r)
	}
	return []byte(b.String())
}

// BenchmarkSetValues reads 100,000 transfers as the command line does
// (read: open, read the table, build and validate every row; build: the
// last step alone), their profile and source type given either by
// columns of the file ("columns") or, to a file without those columns,
// as values set for every row ("set"): a set value must cost a row no
// more than the cell it stands for.
func BenchmarkSetValues(b *testing.B) {
	const rows = 100000
	k := fixture.Kind("transfers")
	for _, tc := range []struct {
		name   string
		data   []byte
		values map[string]string
	}{
		{"columns", transfersCSV(rows), nil},
		{"set", transfersCSVWithout(rows, "profileId", "source.type"), map[string]string{"profileId": "110321", "source.type": "managed_accounts"}},
	} {
		prepare := func(b *testing.B) *ingest.Import {
			im := importing.Import(b, "t.csv", tc.data, k)
			if tc.values != nil {
				m := im.Mapping()
				for field, value := range tc.values {
					m.SetValue(field, value)
				}
				if err := im.SetMapping(m); err != nil {
					b.Fatal(err)
				}
			}
			return im
		}
		// Every row valid: the file is only too large for one bulk.
		if r := prepare(b).Build(nil).Report; r.Elements != rows || len(r.Problems) != 1 || r.Problems[0].Code != schema.TooManyElements {
			b.Fatalf("%s: %d elements, problems %v", tc.name, r.Elements, r.Problems[:min(3, len(r.Problems))])
		}
		b.Run("read/"+tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			cpu, runs := cpuTime(), 0
			for b.Loop() {
				runs++
				prepare(b).Build(nil)
			}
			reportCPU(b, cpu, runs)
		})
		// The build alone: where a set value stands for a cell.
		b.Run("build/"+tc.name, func(b *testing.B) {
			im := prepare(b)
			cpu, runs := cpuTime(), 0
			for b.Loop() {
				runs++
				im.Build(nil)
			}
			reportCPU(b, cpu, runs)
		})
	}
}

// reportCPU reports the processor time of each of runs since since, as
// BenchmarkTimestamps100k does: the machine's other work adds to the wall
// clock, not to it.
func reportCPU(b *testing.B, since time.Duration, runs int) {
	b.ReportMetric(float64((cpuTime()-since).Milliseconds())/float64(max(runs, 1)), "cpu-ms/op")
}
