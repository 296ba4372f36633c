package ui

import (
	"runtime"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui/workerclient"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var (
	backgroundOnce sync.Once
	backgroundWork *workerclient.Client
)

// background returns the page's Web Worker, starting it on first use. It
// returns nil on the server, and when the server gave no worker URLs.
func background() *workerclient.Client {
	if !app.IsClient {
		return nil
	}
	backgroundOnce.Do(func() {
		c := loadConfig()
		if c.WorkerScript == "" || c.WorkerWasm == "" {
			app.Log("the console has no worker configured")
			return
		}
		backgroundWork = workerclient.Start(c.WorkerScript, c.WorkerWasm, c.APIWorkerWasm)
		backgroundWork.OnReady(func() { mark("worker-ready") })
		backgroundWork.OnWarm(func() { mark("worker-warm") })
		// The operator's strict setting applies from the first file on;
		// the worker brings back the contract it keeps by itself.
		// Sent with the client itself: runJob calls background, whose
		// Once this is, and the answer is not needed.
		backgroundWork.Run(wire.JobContract, wire.SetContract{Strict: strictSetting(), Lang: string(consoleLang)}, nil,
			workerclient.Handlers{Done: func([]byte, app.Value, error) {}})
	})
	return backgroundWork
}

// afterYield runs f on the page's goroutine once the browser has had its
// turn: a page's start, split so, holds the browser's main thread in
// shorter tasks, and the page takes input in between. Sleep(0) would not
// yield.
func afterYield(ctx app.Context, f func(app.Context)) {
	ctx.Async(func() {
		time.Sleep(time.Millisecond)
		ctx.Dispatch(f)
	})
}

// mark records a named moment in the browser's performance timeline; the
// browser benchmark reads these to time the console.
func mark(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", "bulkdesk:"+name)
	}
}

// marked reports whether the moment name was recorded.
func marked(name string) bool {
	return app.IsClient && app.Window().Get("performance").Call("getEntriesByName", "bulkdesk:"+name).Length() > 0
}

// markMemory records a named moment with the memory the page's program
// and the worker's hold, in bytes, as the mark's detail {page, worker}.
func markMemory(name string, worker uint64) {
	if !app.IsClient {
		return
	}
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	detail := app.Window().Get("Object").New()
	detail.Set("page", float64(mem.Sys))
	detail.Set("worker", float64(worker))
	opts := app.Window().Get("Object").New()
	opts.Set("detail", detail)
	app.Window().Get("performance").Call("mark", "bulkdesk:"+name, opts)
}
