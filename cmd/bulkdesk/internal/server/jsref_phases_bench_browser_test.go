//go:build !js

package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// The phases a file's time splits into, from the file chosen to its table
// shown, in order. The console's: the file's bytes read and sent to the
// worker, with the wait for a job under way (to-worker); the worker's
// program still downloading or compiling when the file was chosen
// (download, compile: a first file only); the worker's reading, validation
// and review (read, validate, review: wire.Phases) and the rest of its job,
// keeping the draft (draft); its result's way to the page, decoded
// (transfer: to bulkdesk:result-received); the page's rendering
// (render). The reference's: reading
// the file with SheetJS or JSON.parse (parse), ajv (validate) and the DOM
// (render).
var (
	consolePhases   = []string{"to-worker", "download", "compile", "read", "validate", "review", "draft", "transfer", "render"}
	referencePhases = []string{"parse", "validate", "render"}
)

// watchWorkerPhases is an action that makes every page the tab opens from
// now on keep the phases the console's worker reports with a reading
// job's result (wire.Phases), as window.__workerPhases, each with the
// time it arrived. It listens beside the page, on every Worker it starts,
// and reads only the last field of the messages that have it.
func watchWorkerPhases() chromedp.Action[chromedp.Void] {
	return browsertest.AddScript(watchWorkerScript)
}

const watchWorkerScript = `
window.__workerPhases = [];
if (window.Worker) {
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const body = event.data && event.data.body;
        if (typeof body !== "string") return;
        const at = body.lastIndexOf('"phases":{');
        if (at < 0) return;
        try {
          const p = JSON.parse(body.slice(at + 9, body.indexOf("}", at) + 1));
          window.__workerPhases.push(Object.assign({at: performance.now()}, p));
        } catch (err) {}
      });
    }
  };
}
`

// consolePhaseTimes is a JavaScript expression: the console's phases of
// the last file chosen, in ms, by name (see consolePhases), or null while
// its table is not shown or the worker sent no phases. The worker's
// moments are on the page's clock (timeOrigin + startTime).
const consolePhaseTimes = `(() => {
  const chosen = performance.getEntriesByName("bulkdesk:file-chosen").pop();
  const shown = chosen && performance.getEntriesByName("bulkdesk:table-shown").find(m => m.startTime >= chosen.startTime);
  if (!shown) return null;
  const o = performance.timeOrigin, c = o + chosen.startTime;
  // The jobs the file started: begun after it was chosen (a millisecond
  // for the clocks' rounding), answered before its table was shown.
  const jobs = (window.__workerPhases || []).filter(p => p.begun >= c - 1 && p.at <= shown.startTime);
  if (!jobs.length) return null;
  // The page's program marks the result it decoded; without the mark (a
  // result the page took before its program ran), its arrival counts.
  const received = performance.getEntriesByName("bulkdesk:result-received").filter(m => m.startTime >= jobs[jobs.length - 1].at && m.startTime <= shown.startTime).pop() || {startTime: jobs[jobs.length - 1].at};
  const first = jobs[0], last = jobs[jobs.length - 1];
  const after = (x) => Math.max(0, x);
  const download = first.fetched ? after(Math.min(first.fetched, first.begun) - c) : 0;
  const compile = first.started ? after(Math.min(first.started, first.begun) - Math.max(first.fetched || c, c)) : 0;
  const p = {download, compile, read: 0, validate: 0, review: 0, draft: 0};
  for (const j of jobs) {
    p.read += j.read; p.validate += j.validate; p.review += j.review;
    p.draft += j.ended - j.begun - j.read - j.validate - j.review;
  }
  p.transfer = o + received.startTime - last.ended;
  p.render = shown.startTime - received.startTime;
  p["to-worker"] = shown.startTime - chosen.startTime - Object.values(p).reduce((a, b) => a + b, 0);
  return p;
})()`

// referencePhaseTimes is consolePhaseTimes for the reference page, from
// its own marks.
const referencePhaseTimes = `(() => {
  const chosen = performance.getEntriesByName("ref:file-chosen").pop();
  const after = (name) => chosen && performance.getEntriesByName(name).find(m => m.startTime >= chosen.startTime);
  const parsed = after("ref:parsed"), validated = after("ref:validated"), shown = after("ref:shown");
  if (!shown) return null;
  return {parse: parsed.startTime - chosen.startTime, validate: validated.startTime - parsed.startTime, render: shown.startTime - validated.startTime};
})()`

// recordPhases adds the phases of the file just shown to into, as
// "ms-phase-<phase>-<case>".
func recordPhases(tb testing.TB, br *browsertest.Browser, expr string, names []string, name string, into map[string][]float64) {
	tb.Helper()
	got := browsertest.Eval[map[string]float64](br, 5*time.Second, expr)
	if got == nil {
		tb.Errorf("no phases for %s: the worker sent none (a console built before wire.Phases?)", name)
		return
	}
	for _, ph := range names {
		into["ms-phase-"+ph+"-"+name] = append(into["ms-phase-"+ph+"-"+name], got[ph])
	}
}

// logPhases prints, for each page, the median of each phase of every
// file case, and their sum, which is the time to the table.
func logPhases(b *testing.B, cases []string, results map[string]map[string][]float64) {
	for _, side := range []struct {
		page   string
		phases []string
	}{{"bulkdesk", consolePhases}, {"reference", referencePhases}} {
		head := fmt.Sprintf("%-22s", side.page+" phases, ms")
		for _, ph := range side.phases {
			head += fmt.Sprintf(" %9s", ph)
		}
		b.Log(head + fmt.Sprintf(" %9s", "sum"))
		for _, c := range cases {
			line, sum := fmt.Sprintf("%-22s", c), 0.0
			for _, ph := range side.phases {
				v := browsertest.Median(results[side.page]["ms-phase-"+ph+"-"+c])
				sum += v
				line += fmt.Sprintf(" %9.1f", v)
			}
			b.Log(line + fmt.Sprintf(" %9.1f", sum))
		}
	}
	b.Log("(medians per phase: the sum of medians is near, not equal to, the median time to the table; " +
		strings.Join([]string{"to-worker = bytes read and sent, and the wait for the worker",
			"draft = the rest of the worker's job, the draft kept",
			"transfer = the result posted and decoded on the page"}, "; ") + ")")
}
