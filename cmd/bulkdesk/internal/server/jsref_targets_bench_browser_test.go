//go:build !js

package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
)

// A jsrefTarget is a figure the console aims for: a ratio console /
// reference at most limit, or (absolute) the console's own figure.
type jsrefTarget struct {
	what     string
	measure  string
	limit    float64
	absolute bool
}

// fileTargets are the limits of the ratio time-to-table by file size,
// format and which file of the tab: the first file, then the second.
var fileTargets = map[int]map[string][2]float64{
	10000:  {"xlsx": {1.0, 0.7}, "csv": {1.5, 1.2}, "json": {2.0, 1.5}},
	100000: {"xlsx": {1.0, 0}, "csv": {1.0, 0}, "json": {2.0, 0}},
}

// jsrefTargets returns the targets that apply to the cases measured.
func jsrefTargets(cases []jsrefCase) []jsrefTarget {
	ts := []jsrefTarget{
		{what: "takes input, first visit", measure: "ms-cold", limit: 1.2},
		{what: "takes input, repeat visit", measure: "ms-repeat", limit: 1.0},
		{what: "fetched before input (kB)", measure: "kB-before-interactive", limit: 1500, absolute: true},
	}
	for _, c := range cases {
		limits, ok := fileTargets[c.rows][c.format]
		if !ok {
			continue
		}
		for i, which := range []string{"first", "second"} {
			if limits[i] > 0 {
				name := fmt.Sprintf("%s-%d-%s", c.format, c.rows, which)
				ts = append(ts, jsrefTarget{what: "to table, " + name, measure: "ms-to-table-" + name, limit: limits[i]})
			}
		}
		if c.format == "json" && c.rows == 100000 {
			for _, which := range []string{"first", "second"} {
				ts = append(ts, jsrefTarget{what: "worker memory (MB), json-100000-" + which, measure: "MB-worker-json-100000-" + which, limit: 300, absolute: true})
			}
		}
	}
	return ts
}

// logTargets prints each target met or missed, and the longest
// main-thread task of the console against 100 ms in every case, page
// loads included.
func logTargets(b *testing.B, targets []jsrefTarget, measures []string, results map[string]map[string][]float64) {
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	b.Logf("%-38s %10s %10s  %s", "target", "limit", "figure", "")
	for _, t := range targets {
		console := browsertest.Median(results["bulkdesk"][t.measure])
		figure, limit := console, fmt.Sprintf("%.0f", t.limit)
		if !t.absolute {
			ref := browsertest.Median(results["reference"][t.measure])
			if ref <= 0 {
				b.Logf("%-38s %10s %10s  not measured", t.what, "", "")
				continue
			}
			figure, limit = console/ref, fmt.Sprintf("%.1fx", t.limit)
		}
		b.Logf("%-38s %10s %10.2f  %s", t.what, limit, figure, verdict(figure <= t.limit))
	}
	worst, where, over := 0.0, "", []string{}
	for _, m := range measures {
		if !strings.HasPrefix(m, "ms-longest-task-") {
			continue
		}
		v := browsertest.Median(results["bulkdesk"][m])
		if v > worst {
			worst, where = v, m
		}
		if v > 100 {
			over = append(over, fmt.Sprintf("%s %.0f", strings.TrimPrefix(m, "ms-longest-task-"), v))
		}
	}
	b.Logf("%-38s %10s %10.0f  %s (worst: %s)", "longest main-thread task (ms)", "100", worst, verdict(len(over) == 0), strings.TrimPrefix(where, "ms-longest-task-"))
	if len(over) > 0 {
		b.Logf("  over 100 ms: %s", strings.Join(over, ", "))
	}
}
