// Package workerclient runs jobs in the console's Web Worker from the page
// (see package wire for the protocol). It speaks to the browser through
// go-app's Value, so the console's packages also build natively, where the
// server renders their first HTML.
package workerclient

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Handlers receive the messages of one job. They are called from the
// browser's event callbacks: a go-app component wraps what they change in
// ctx.Dispatch.
type Handlers struct {
	// Progress, when set, receives the job's progress.
	Progress func(wire.Progress)
	// Done receives the job's JSON result, its binary payload (an
	// ArrayBuffer, or nil) and, when the job failed, its error: the
	// *wire.Error the worker sent, or the page's own when the job never
	// reached the worker.
	Done func(result []byte, data app.Value, err error)
}

// errUnreadableFile is the failure of a job whose file the browser could
// not read, on the page or in the worker.
var errUnreadableFile = lang.Errorf("the browser could not read the file")

// codeUnreadableFile is the code of the error worker.js answers for a
// File it could not read (one the page's early script posted as it is).
const codeUnreadableFile = "unreadable-file"

// A Client is the page's end of one Web Worker.
type Client struct {
	mu      sync.Mutex
	w       app.Value
	nextID  int
	calls   map[int]Handlers
	ready   bool
	warm    bool
	failure error
	onReady []func()
	onWarm  []func()
	// watchers receive the results of the jobs they name, whoever ran them.
	watchers map[string][]func(result []byte)
	// earlyJobs is the last id of the jobs the page's early script sent
	// (web/early.js); unclaimed holds their messages until the page
	// adopts them (Adopt).
	earlyJobs int
	unclaimed map[int][]app.Value
}

// Start starts the worker: scriptURL is worker.js, wasmURL worker.wasm and
// secondURL apiworker.wasm, which the worker starts as its second.
// When the page's app.js has started it already (self.bulkdeskEarlyWorker,
// made by the server so that a file chosen before the page's program
// runs goes to it at once), Start adopts that one, starts its program if
// no early job did, and hears first what it posted meanwhile.
func Start(scriptURL, wasmURL, secondURL string) *Client {
	c := &Client{calls: make(map[int]Handlers), unclaimed: make(map[int][]app.Value)}
	w, early, sent, started := adoptEarlyWorker(scriptURL)
	if w.IsUndefined() || w.IsNull() {
		w = app.Window().Get("Worker").New(scriptURL)
	}
	c.w = w
	// The page's own jobs are numbered after the early script's.
	c.nextID, c.earlyJobs = sent, sent
	w.Set("onmessage", app.FuncOf(func(_ app.Value, args []app.Value) any {
		c.receive(args[0].Get("data"))
		return nil
	}))
	w.Set("onerror", app.FuncOf(func(_ app.Value, args []app.Value) any {
		c.failToLoad(args[0].Get("message"))
		return nil
	}))
	if !started {
		// The early script starts the worker's program with its first
		// job; without one, the page does.
		init := envelope(wire.Message{Type: wire.TypeInit, Body: []byte(wasmURL)})
		init.Set(wire.FieldSecond, secondURL)
		w.Call("postMessage", init)
	}
	if early.IsUndefined() || early.IsNull() {
		return c
	}
	for i := range early.Length() {
		if e := early.Index(i); e.Get("data").IsUndefined() {
			c.failToLoad(e.Get("error"))
		} else {
			c.receive(e.Get("data"))
		}
	}
	return c
}

// adoptEarlyWorker takes the worker app.js started for scriptURL, the
// messages it posted, how many jobs the early script sent it and whether
// its program was started, if there is one; it is adopted once.
func adoptEarlyWorker(scriptURL string) (w, early app.Value, sent int, started bool) {
	win := app.Window()
	e := win.Get("bulkdeskEarlyWorker")
	if !e.Truthy() || e.Get("script").String() != scriptURL {
		return app.Undefined(), app.Undefined(), 0, false
	}
	win.Set("bulkdeskEarlyWorker", app.Undefined())
	e.Set("onheard", app.Null())
	// For the tests and benchmarks: the worker started with the page.
	win.Get("performance").Call("mark", "bulkdesk:worker-adopted")
	if n := e.Get("nextID"); n.Type() == app.TypeNumber {
		sent = n.Int()
	}
	// A worker of an older app.js started its program at once.
	started = e.Get("initSent").Type() != app.TypeBoolean || e.Get("initSent").Bool()
	return e.Get("worker"), e.Get("early"), sent, started
}

// Adopt takes job id, which the page's early script sent before the
// page's program ran, as if Run had sent it: h receives what the worker
// said of it so far, then the rest. A worker that failed fails it.
func (c *Client) Adopt(id int, h Handlers) {
	c.mu.Lock()
	if id <= 0 || id > c.earlyJobs {
		c.mu.Unlock()
		h.Done(nil, nil, fmt.Errorf("job %d was not sent by the early script", id))
		return
	}
	if failure := c.failure; failure != nil {
		c.mu.Unlock()
		h.Done(nil, nil, failure)
		return
	}
	c.calls[id] = h
	heard := c.unclaimed[id]
	delete(c.unclaimed, id)
	inFlight := len(c.calls)
	c.mu.Unlock()
	showInFlight(inFlight)
	for _, v := range heard {
		c.receive(v)
	}
}

// keepUnclaimed keeps a message of an early job not adopted yet, and
// reports whether it did.
func (c *Client) keepUnclaimed(id int, v app.Value) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id <= 0 || id > c.earlyJobs {
		return false
	}
	if _, adopted := c.calls[id]; adopted {
		return false
	}
	c.unclaimed[id] = append(c.unclaimed[id], v)
	return true
}

// failToLoad reports a worker that could not load, with the browser's
// message when it gives one: for the browser's console, where the page
// puts what is not for people (not a *wire.Error, which is).
func (c *Client) failToLoad(message app.Value) {
	err := errors.New("the validation engine could not load")
	if message.Truthy() {
		err = fmt.Errorf("%w: %s", err, message.String())
	}
	c.fail(err)
}

// Ready reports whether the worker has started and whether it failed to.
func (c *Client) Ready() (ready bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failure != nil {
		return false, c.failure
	}
	return c.ready, nil
}

// OnReady calls f once the worker takes jobs, at once if it already does.
func (c *Client) OnReady(f func()) { c.when(&c.ready, &c.onReady, f) }

// OnWarm calls f once the worker has warmed up, at once if it has.
func (c *Client) OnWarm(f func()) { c.when(&c.warm, &c.onWarm, f) }

// when calls f now if *state is set, or else once it is.
func (c *Client) when(state *bool, waiting *[]func(), f func()) {
	c.mu.Lock()
	if !*state {
		*waiting = append(*waiting, f)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	f()
}

// reach sets *state and calls the functions waiting for it.
func (c *Client) reach(state *bool, waiting *[]func()) {
	c.mu.Lock()
	*state = true
	fs := *waiting
	*waiting = nil
	c.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Run sends a job with its request and, when data is not nil, a binary
// payload (an ArrayBuffer, handed over to the worker without a copy and
// unusable on the page afterwards). It returns the job's id for Cancel.
// A job sent before the worker is ready waits for it.
func (c *Client) Run(job string, req any, data app.Value, h Handlers) int {
	body, err := wire.EncodeBody(req)
	c.mu.Lock()
	if ws := c.watchers[job]; len(ws) > 0 {
		done := h.Done
		h.Done = func(result []byte, data app.Value, err error) {
			done(result, data, err)
			if err == nil {
				for _, w := range ws {
					w(result)
				}
			}
		}
	}
	c.nextID++
	id := c.nextID
	failure := c.failure
	if err == nil && failure == nil {
		c.calls[id] = h
	}
	inFlight := len(c.calls)
	c.mu.Unlock()
	showInFlight(inFlight)
	switch {
	case err != nil:
		h.Done(nil, nil, fmt.Errorf("encoding the request of %s: %w", job, err))
		return id
	case failure != nil:
		h.Done(nil, nil, failure)
		return id
	}

	m := envelope(wire.Message{ID: id, Type: wire.TypeRequest, Job: job, Body: body})
	transfer := app.Window().Get("Array").New()
	if data != nil && data.Truthy() {
		m.Set(wire.FieldData, data)
		transfer.Call("push", data)
	}
	c.w.Call("postMessage", m, transfer)
	return id
}

// envelope is m as postMessage sends it, without its Data.
func envelope(m wire.Message) app.Value {
	v := app.Window().Get("Object").New()
	wire.EncodeEnvelope(m, func(field string, value any) { v.Set(field, value) })
	return v
}

// fields reads a received message's envelope.
type fields struct{ v app.Value }

func (f fields) String(field string) (string, bool) {
	if x := f.v.Get(field); x.Type() == app.TypeString {
		return x.String(), true
	}
	return "", false
}

func (f fields) Int(field string) (int, bool) {
	if x := f.v.Get(field); x.Type() == app.TypeNumber {
		return x.Int(), true
	}
	return 0, false
}

// RunFile reads a File (or Blob) and sends it as the payload of a job.
func (c *Client) RunFile(job string, req any, file app.Value, h Handlers) (cancel func()) {
	canceled := false
	id := 0
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		if !canceled {
			id = c.Run(job, req, args[0], h)
		}
		return nil
	})
	fail = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		if !canceled {
			// The browser's own words go to its console; the operator
			// reads what happened in theirs.
			app.Log("reading the file:", jsError(args[0]))
			h.Done(nil, nil, errUnreadableFile)
		}
		return nil
	})
	file.Call("arrayBuffer").Call("then", ok, fail)
	return func() {
		canceled = true
		if id != 0 {
			c.Cancel(id)
		}
	}
}

// Watch calls f with the result of every job named job that succeeds,
// after its own handlers: a page learns of what another page did.
func (c *Client) Watch(job string, f func(result []byte)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watchers == nil {
		c.watchers = make(map[string][]func([]byte))
	}
	c.watchers[job] = append(c.watchers[job], f)
}

// Cancel asks the worker to stop job id; its Done then receives an error
// with the code "canceled", unless the job had already finished.
func (c *Client) Cancel(id int) {
	c.w.Call("postMessage", envelope(wire.Message{ID: id, Type: wire.TypeCancel}))
}

// receive dispatches a message from the worker to its job's handlers.
func (c *Client) receive(v app.Value) {
	m := wire.DecodeEnvelope(fields{v})
	switch m.Type {
	case wire.TypeProgress, wire.TypeResult, wire.TypeError:
		if c.keepUnclaimed(m.ID, v) {
			return
		}
	}
	switch m.Type {
	case wire.TypeReady:
		c.reach(&c.ready, &c.onReady)
	case wire.TypeWarm:
		c.reach(&c.warm, &c.onWarm)
	case wire.TypeFatal:
		c.fail(wire.DecodeError(m.Body))
	case wire.TypeStorage:
		c.serveStorage(m.ID, m.Body)
	case wire.TypeProgress:
		h, ok := c.handlers(m.ID, false)
		if ok && h.Progress != nil {
			if p, err := wire.DecodeBody[wire.Progress](m.Body); err == nil {
				h.Progress(p)
			}
		}
	case wire.TypeResult:
		if h, ok := c.handlers(m.ID, true); ok {
			var data app.Value
			if d := v.Get(wire.FieldData); d.Truthy() {
				data = d
			}
			h.Done(m.Body, data, nil)
		}
	case wire.TypeError:
		if h, ok := c.handlers(m.ID, true); ok {
			err := wire.DecodeError(m.Body)
			if err.Code == codeUnreadableFile {
				// The browser's own words go to its console.
				app.Log("reading the file:", err.Message)
				h.Done(nil, nil, errUnreadableFile)
				return
			}
			h.Done(nil, nil, err)
		}
	}
}

// handlers returns the handlers of job id, forgetting them when done.
func (c *Client) handlers(id int, done bool) (Handlers, bool) {
	c.mu.Lock()
	h, ok := c.calls[id]
	if ok && done {
		delete(c.calls, id)
	}
	inFlight := len(c.calls)
	c.mu.Unlock()
	if ok && done {
		showInFlight(inFlight)
	}
	return h, ok
}

// showInFlight writes how many jobs await their answer in the document's
// data-jobs-in-flight: at 0 no answer is on its way, so nothing the
// worker was asked can still change the page (the browser tests wait for
// it instead of waiting a while).
func showInFlight(n int) {
	if app.IsClient {
		app.Window().Get("document").Get("documentElement").Get("dataset").Set("jobsInFlight", n)
	}
}

// fail ends every job waiting for the worker, which will not answer.
func (c *Client) fail(err error) {
	c.mu.Lock()
	c.failure = err
	calls := c.calls
	c.calls = make(map[int]Handlers)
	c.onReady, c.onWarm = nil, nil
	c.mu.Unlock()
	for _, h := range calls {
		h.Done(nil, nil, err)
	}
}

// jsError describes a rejected promise's reason.
func jsError(v app.Value) string {
	if m := v.Get("message"); m.Truthy() {
		return m.String()
	}
	return v.String()
}

// serveStorage serves the worker's request for the page's localStorage,
// which a Web Worker lacks, and only for the submission journal's keys.
func (c *Client) serveStorage(id int, body []byte) {
	var reply wire.StorageReply
	switch req, err := wire.DecodeBody[wire.StorageRequest](body); {
	case err != nil:
		reply.Error = "unreadable request: " + err.Error()
	case !strings.HasPrefix(req.Key, wire.StorageKeyPrefix):
		reply.Error = "the page serves no key " + req.Key
	default:
		reply = localStorage(req)
	}
	answer, _ := wire.EncodeBody(reply) // strings and a bool: cannot fail
	c.w.Call("postMessage", envelope(wire.Message{ID: id, Type: wire.TypeStorageReply, Body: answer}))
}

// localStorage reads or writes an item, turning the browser's exceptions
// (a full or forbidden storage) into the reply's error.
func localStorage(req wire.StorageRequest) (reply wire.StorageReply) {
	defer func() {
		if r := recover(); r != nil {
			reply = wire.StorageReply{Error: fmt.Sprint(r)}
		}
	}()
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return wire.StorageReply{Error: "this browser has no localStorage"}
	}
	switch req.Op {
	case wire.StorageGet:
		v := ls.Call("getItem", req.Key)
		if v.Type() == app.TypeString {
			return wire.StorageReply{Value: v.String(), Found: true}
		}
		return wire.StorageReply{}
	case wire.StorageSet:
		ls.Call("setItem", req.Key, req.Value)
		return wire.StorageReply{}
	}
	return wire.StorageReply{Error: "unknown operation " + string(req.Op)}
}
