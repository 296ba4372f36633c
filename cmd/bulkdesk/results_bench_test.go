//go:build !js

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
)

// BenchmarkBulksResults10k writes the result workbook of a bulk of 10,000
// transfers, 100 of them failed, with "bulkdesk bulks results" against the
// sandbox: the bulk read and its 100 pages of operations, every element's
// key fields, and the workbook written and saved. It reports the median of
// benchTrials runs (target: at most 3 s).
func BenchmarkBulksResults10k(b *testing.B) {
	api := startSandboxCommand(b, "-ops-per-second", "1000000", "-fail-share", "0")
	useSandboxCredentials(b)
	var fail []int
	for i := 0; i < 10000; i += 100 {
		fail = append(fail, i)
	}
	file := filepath.Join(b.TempDir(), "pay.json")
	if err := os.WriteFile(file, fixture.SampleBody(10000, fail...), 0o600); err != nil {
		b.Fatal(err)
	}
	id := runToTheEnd(b, api, file)
	out := filepath.Join(b.TempDir(), "results.xlsx")
	var ms []float64
	for range b.N {
		for range benchTrials {
			start := time.Now()
			if code, _, errOut := runCLI(b, "bulks", "results", "-api-url", api, "-o", out, id); code != exitOK {
				b.Fatalf("results: %s", errOut)
			}
			ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		}
	}
	slices.Sort(ms)
	b.ReportMetric(ms[len(ms)/2], "ms-median")
	b.ReportMetric(ms[0], "ms-min")
	b.ReportMetric(ms[len(ms)-1], "ms-max")
	b.ReportMetric(0, "ns/op")
}
