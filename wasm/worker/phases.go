//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
)

// timePhases gives the reading jobs the worker's performance clock, on
// the page's scale (timeOrigin + now, ms since the epoch), and when the
// worker's program was downloaded (its resource timing) and began to
// run (now): the browser benchmark splits a file's time with them.
func timePhases(self js.Value, server *jobs.Server) {
	perf := self.Get("performance")
	if !perf.Truthy() {
		return
	}
	origin := perf.Get("timeOrigin").Float()
	now := func() float64 { return origin + perf.Call("now").Float() }
	fetched := 0.0
	entries := perf.Call("getEntriesByType", "resource")
	for i := range entries.Length() {
		if e := entries.Index(i); strings.HasSuffix(e.Get("name").String(), ".wasm") {
			fetched = origin + e.Get("responseEnd").Float()
		}
	}
	server.TimePhases(now, fetched, now())
}
