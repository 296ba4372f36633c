package ui

import (
	"sync"

	"github.com/bulkdesk/bulkdesk/app/ui/workerclient"
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
		backgroundWork = workerclient.Start(c.WorkerScript, c.WorkerWasm)
		backgroundWork.OnReady(func() { mark("worker-ready") })
		backgroundWork.OnWarm(func() { mark("worker-warm") })
	})
	return backgroundWork
}

// mark records a named moment in the browser's performance timeline; the
// browser benchmark reads these to time the console.
func mark(name string) {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", "bulkdesk:"+name)
	}
}
