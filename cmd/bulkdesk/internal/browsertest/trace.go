//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// A TraceEvent is one event of a Chrome trace (the Trace Event Format):
// its name and category, its phase ("X", "I", "M"…), the process and
// thread it happened on, named by the trace's metadata, and its args.
type TraceEvent struct {
	Name   string         `json:"name"`
	Cat    string         `json:"cat"`
	Ph     string         `json:"ph"`
	Pid    int            `json:"pid"`
	Tid    int            `json:"tid"`
	Args   map[string]any `json:"args"`
	Thread string         `json:"-"`
}

// Trace records a Chrome trace of the categories named (only those)
// while during runs (it drives b's tab), and returns its events, each
// with the name of its thread (CrRendererMain, DedicatedWorker thread…).
// The trace covers the renderer's threads, the tab's workers included.
func (b *Browser) Trace(timeout time.Duration, categories []string, during func()) []TraceEvent {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	var (
		mu       sync.Mutex
		raw      [][]byte
		complete = make(chan struct{})
	)
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range ev.Value {
				raw = append(raw, []byte(v))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	}); err != nil {
		b.tb.Fatalf("listening for the trace: %v", err)
	}
	start := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig: &tracing.TraceConfig{
				RecordMode:         tracing.TraceConfigRecordModeRecordUntilFull,
				IncludedCategories: categories,
				ExcludedCategories: []string{"*"},
			},
		})
		return err
	})
	end := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.End, cdp.Empty{})
		return err
	})
	if err := chromedp.Do(ctx, start); err != nil {
		b.tb.Fatalf("starting a trace: %v%s", err, b.problemList())
	}
	during()
	if err := chromedp.Do(ctx, end); err != nil {
		b.tb.Fatalf("ending a trace: %v%s", err, b.problemList())
	}
	select {
	case <-complete:
	case <-ctx.Done():
		b.tb.Fatalf("the trace did not complete within %v", timeout)
	}
	mu.Lock()
	defer mu.Unlock()
	events := make([]TraceEvent, 0, len(raw))
	threads := map[[2]int]string{}
	for _, r := range raw {
		var e TraceEvent
		if json.Unmarshal(r, &e) != nil {
			continue
		}
		if e.Ph == "M" && e.Name == "thread_name" {
			if n, ok := e.Args["name"].(string); ok {
				threads[[2]int{e.Pid, e.Tid}] = n
			}
		}
		events = append(events, e)
	}
	for i := range events {
		events[i].Thread = threads[[2]int{events[i].Pid, events[i].Tid}]
	}
	return events
}
