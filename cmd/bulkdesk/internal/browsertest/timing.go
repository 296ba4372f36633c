//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Instrument is an action that makes every page the tab opens from now on
// record its long tasks (main-thread tasks over 50 ms, as the Long Tasks
// API reports them) in window.__longTasks, as {start, duration}, and mark
// "wasm:instantiated" in the performance timeline each time a WebAssembly
// module streamed from the network is compiled and instantiated.
func Instrument() chromedp.Action[chromedp.Void] { return AddScript(instrumentScript) }

// AddScript is an action that makes every page the tab opens from now on
// run source before any script of its own.
func AddScript(source string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source})
		return err
	})
}

const instrumentScript = `
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.__longTasks.push({start: e.startTime, duration: e.duration});
  }
}).observe({type: "longtask", buffered: true});
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (source, imports) => {
  const result = await instantiateStreaming(source, imports);
  performance.mark("wasm:instantiated");
  return result;
};
`

// LongestTaskSince is a JavaScript expression: the duration in ms of the
// longest task recorded that ended after the performance mark named, or 0.
func LongestTaskSince(mark string) string {
	return `(() => {
  const m = performance.getEntriesByName(` + JSString(mark) + `);
  const since = m.length ? m[m.length - 1].startTime : 0;
  let longest = 0;
  for (const t of window.__longTasks || []) {
    if (t.start + t.duration >= since && t.duration > longest) longest = t.duration;
  }
  return longest;
})()`
}

// LongestTaskUntil is a JavaScript expression: the duration in ms of the
// longest task recorded that began before the first performance mark
// named, plus ms, or -1 while there is no such mark.
func LongestTaskUntil(mark string, ms float64) string {
	return `(() => {
  const m = performance.getEntriesByName(` + JSString(mark) + `);
  if (!m.length) return -1;
  const until = m[0].startTime + ` + strconv.FormatFloat(ms, 'f', -1, 64) + `;
  let longest = 0;
  for (const t of window.__longTasks || []) {
    if (t.start < until && t.duration > longest) longest = t.duration;
  }
  return longest;
})()`
}

// MarkGap is a JavaScript expression: the time in ms between the last
// performance marks named from and to, or -1 when either is missing.
func MarkGap(from, to string) string {
	return `(() => {
  const a = performance.getEntriesByName(` + JSString(from) + `), b = performance.getEntriesByName(` + JSString(to) + `);
  if (!a.length || !b.length) return -1;
  return b[b.length - 1].startTime - a[a.length - 1].startTime;
})()`
}

// MarkTime is a JavaScript expression: the time in ms from the start of
// navigation to the first performance mark named, or -1.
func MarkTime(name string) string {
	return `(() => {
  const m = performance.getEntriesByName(` + JSString(name) + `);
  return m.length ? m[0].startTime : -1;
})()`
}

// JSString returns s as a JavaScript string literal.
func JSString(s string) string {
	b, _ := json.Marshal(s) // a string: cannot fail
	return string(b)
}

// Median returns the median of xs (the mean of the middle two when their
// number is even), or 0 when there are none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
