//go:build !js

package browsertest

import (
	"path"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// maxWorkerLog bounds the worker log a Browser keeps: its last lines
// are those a failure needs.
const maxWorkerLog = 200

// collectWorkerLogs keeps what the page's Web Workers write to their
// consoles: the console's worker writes there what went wrong inside,
// under the reference the page shows, and a failure message then says
// it. Chrome lists each worker as a target of its own.
func (b *Browser) collectWorkerLogs() {
	created := chromedp.BrowserEvents(b.ctx, target.TargetCreated)
	go func() {
		for ev, err := range created {
			if err != nil {
				return
			}
			if info := ev.TargetInfo; info != nil && info.Type == "worker" {
				b.followWorker(info)
			}
		}
	}()
}

// followWorker attaches to a worker and keeps its console's lines; the
// attachment ends with the browser.
func (b *Browser) followWorker(info *target.Info) {
	ctx, _ := chromedp.NewContext(b.ctx, chromedp.WithTargetID(info.TargetID))
	messages := chromedp.Console(ctx)
	name := path.Base(info.URL)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.workerLog = append(b.workerLog, name+": "+m.String())
			if len(b.workerLog) > maxWorkerLog {
				b.workerLog = b.workerLog[len(b.workerLog)-maxWorkerLog:]
			}
			b.mu.Unlock()
		}
	}()
}

// WorkerLog returns the last lines the page's workers wrote to their
// consoles.
func (b *Browser) WorkerLog() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.workerLog...)
}
