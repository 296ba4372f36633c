package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
)

// What reading dates costs: 100,000 transfers read from CSV and built,
// their scheduled times as dates and times in a zone ("15.12.2027
// 14:30"), as milliseconds, or not there at all. The difference between
// the first two is the price of dates; cpu-ms/op is the processor time
// of a run, steadier than ns/op on a busy machine.
func BenchmarkTimestamps100k(b *testing.B) {
	const n = 100000
	for _, tc := range []struct {
		name string
		when func(i int) string
		zone string
		drop bool
	}{
		{"none", nil, "", true},
		{"milliseconds", func(i int) string { return "1828873800000" }, "", false},
		{"dates", func(i int) string { return fmt.Sprintf("%02d.12.2027 14:%02d", 1+i%28, i%60) }, "Europe/Berlin", false},
	} {
		data := transfersWith(n, tc.when, tc.drop)
		b.Run(tc.name, func(b *testing.B) {
			k, v := fixture.Kind("transfers"), fixture.Validator()
			b.SetBytes(int64(len(data)))
			// The processor time per run, which the machine's other
			// work does not change as it changes the wall clock's.
			start, runs := cpuTime(), 0
			defer func() { b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(max(runs, 1)), "cpu-ms/op") }()
			for b.Loop() {
				runs++
				f, err := ingest.Open("t.csv", data, ingest.Options{})
				if err != nil {
					b.Fatal(err)
				}
				tab, err := f.Table("", nil)
				if err != nil {
					b.Fatal(err)
				}
				im := ingest.NewImport(tab, k, v)
				if tc.zone != "" {
					s := im.Settings()
					s.TimeZone = tc.zone
					if err := im.SetSettings(s); err != nil {
						b.Fatal(err)
					}
				}
				res := im.Build(nil)
				if len(res.Elements) != n || res.Report.Valid() {
					// Valid: 100,000 elements are too many for one bulk.
					b.Fatalf("%d elements, %v", len(res.Elements), res.Report.Errors()[:1])
				}
				if errs := res.Report.Errors(); len(errs) != 1 {
					b.Fatalf("errors %v", errs[:min(3, len(errs))])
				}
			}
		})
	}
}

// transfersWith writes n transfers as CSV, their scheduledTimestamp as
// when writes it, or without the column.
func transfersWith(n int, when func(int) string, drop bool) []byte {
	var b strings.Builder
	last := len(transferHeaders)
	if drop {
		last--
	}
	b.WriteString(strings.Join(transferHeaders[:last], ",") + "\n")
	for i := range n {
		r := transferRow(i)
		r[8] = `"` + r[8] + `"`
		if when != nil {
			r[9] = when(i)
		}
		b.WriteString(strings.Join(r[:last], ",") + "\n")
	}
	return []byte(b.String())
}
