package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A Call is one running job: its request, its context and its way to report
// progress.
type Call struct {
	// Data is the request's binary payload, such as a file's bytes.
	Data []byte

	ctx      context.Context
	id       int
	body     []byte
	server   *Server
	result   []byte
	lastPost time.Time
}

// Context is canceled when the page cancels the job.
func (c *Call) Context() context.Context { return c.ctx }

// Decode reads the request's JSON body into v.
func (c *Call) Decode(v any) error {
	if err := json.Unmarshal(c.body, v); err != nil {
		// The page sent what this worker does not read: a fault inside
		// the console, not the operator's.
		return c.server.Hidden(wire.CodeBadRequest, fmt.Sprintf("reading the request: %v", err))
	}
	return nil
}

// SetData attaches a binary payload to the job's result.
func (c *Call) SetData(b []byte) { c.result = b }

// Progress reports how far the job has gone. Calls closer together than
// ProgressInterval are dropped, except the last of a phase (Done == Total),
// so a job may call it as often as it likes. Each message sent also yields
// to the worker's event loop, which is how a cancel reaches the job.
func (c *Call) Progress(p wire.Progress) {
	now := time.Now()
	if now.Sub(c.lastPost) < ProgressInterval && (p.Total == 0 || p.Done < p.Total) {
		// A goroutine switch between two chunks of the job: under
		// WebAssembly it unwinds the job's frames and calls them again,
		// so that its loops go on in the code V8 has optimized meanwhile
		// (V8 has no on-stack replacement for wasm). An import of 10,000
		// rows took 5-16 % less time in Node.
		if c.server.SwitchInLoops {
			runtime.Gosched()
		}
		return
	}
	c.post(p, now)
}

// ProgressNow reports progress at once, however recent the last report:
// for a step the operator must see, such as a wait before a retry.
func (c *Call) ProgressNow(p wire.Progress) { c.post(p, time.Now()) }

func (c *Call) post(p wire.Progress, now time.Time) {
	c.lastPost = now
	body, _ := json.Marshal(p) // strings and ints: cannot fail
	c.server.post(wire.Message{ID: c.id, Type: wire.TypeProgress, Body: body})
	if c.server.Yield != nil {
		c.server.Yield()
	}
}
