package ingest_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// BenchmarkPlausibility100k measures what the plausibility checks (amount
// medians and limits, id lengths) cost on 100,000 transfers read from
// CSV: a whole ingest (open, read, map, build) with the checks, the build
// alone, the checks alone (what they add to a build: recording each row's
// values and comparing them all), and the edit of one amount, which
// builds one row again and compares the whole file's amounts once more.
// The checks' share of an ingest is checks / ingest: measured directly,
// not as the difference of two builds, which on a loaded machine differ
// by more than the checks cost.
func BenchmarkPlausibility100k(b *testing.B) {
	const n = 100000
	data := transfersCSV(n)
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	limits := ingest.AmountLimits{"EUR": 700000}
	open := func(b *testing.B) *ingest.Import {
		f, err := ingest.Open("t.csv", data, ingest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tab, err := f.Table("", nil)
		if err != nil {
			b.Fatal(err)
		}
		im := ingest.NewImport(tab, k, v)
		im.SetAmountLimits(limits)
		return im
	}
	b.Run("ingest", func(b *testing.B) {
		for b.Loop() {
			open(b).Build(nil)
		}
	})
	b.Run("build", func(b *testing.B) {
		im := open(b)
		// 100 + 7i passes EUR 7,000.00 from the 99,987th amount: 14
		// warnings, the 100,000 elements too many for one bulk being
		// the file's only error.
		if w := len(im.Build(nil).Report.Warnings()); w != 14 {
			b.Fatalf("%d warnings", w)
		}
		for b.Loop() {
			im.Build(nil)
		}
	})
	b.Run("checks", func(b *testing.B) {
		im := open(b)
		im.Build(nil)
		recheck := ingest.Recheck(im)
		if w := recheck(); w != 14 {
			b.Fatalf("%d warnings", w)
		}
		for b.Loop() {
			recheck()
		}
	})
	b.Run("edit", func(b *testing.B) {
		im := open(b)
		im.Build(nil)
		amounts := [2]string{"100", "5000000"}
		k := 0
		for b.Loop() {
			if _, err := im.EditCell(500, 7, amounts[k%2]); err != nil {
				b.Fatal(err)
			}
			k++
		}
	})
}
