package ingest_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
)

// What reading dates costs: 100,000 transfers read from CSV and built,
// their scheduled times (1,680 different ones) as dates and times in a
// zone ("15.12.2027 14:30"), as the same moments in milliseconds, or not
// there at all. The difference between
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
		{"milliseconds", func(i int) string { return strconv.FormatInt(moment(i).UnixMilli(), 10) }, "", false},
		{"dates", func(i int) string { return moment(i).Format("02.01.2006 15:04") }, "Europe/Berlin", false},
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

// moment is the scheduled time of transfer i: 1,680 times in December
// 2027, in Berlin, each the same whether written as a date or as
// milliseconds.
func moment(i int) time.Time {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return time.Date(2027, 12, 1+i%28, 14, i%60, 0, 0, berlin)
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
