//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/jobs"
	"github.com/bulkdesk/bulkdesk/wasm/port"
)

// second is the console's second worker (wasm/apiworker), started by this
// one as a nested Web Worker from the same worker.js at the first job it
// runs. (Started in the background once this one was idle, it left the
// console unable to reload offline in Chromium: the service worker then
// failed the page's navigation.) Its
// messages reach the page through this worker (jobs.Server.FromSecond).
type second struct {
	server *jobs.Server
	// script is worker.js, wasm the second worker's program; without
	// wasm the console has no second worker.
	script, wasm string

	mu sync.Mutex
	w  js.Value

	// inbox holds the second worker's messages in their order, for
	// deliver: what the first worker does with them may wait on the
	// browser (the draft's IndexedDB), which a JS callback must not.
	inboxMu sync.Mutex
	inbox   []wire.Message
	arrived chan struct{}
}

// receive queues a message of the second worker for deliver.
func (s *second) receive(m wire.Message) {
	s.inboxMu.Lock()
	s.inbox = append(s.inbox, m)
	s.inboxMu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}
}

// deliver passes the second worker's messages on, in order, for ever.
func (s *second) deliver() {
	for range s.arrived {
		s.inboxMu.Lock()
		ms := s.inbox
		s.inbox = nil
		s.inboxMu.Unlock()
		for _, m := range ms {
			s.server.FromSecond(m)
		}
	}
}

// start starts the second worker unless it runs.
func (s *second) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked()
}

func (s *second) startLocked() {
	if s.w.Truthy() {
		return
	}
	if s.wasm == "" {
		// Not here: the runner holds its lock while it forwards.
		go s.server.SecondFailed(s.server.Unavailable(errors.New("this console has no engine for the API and workbooks")))
		return
	}
	ctor := js.Global().Get("Worker")
	if !ctor.Truthy() {
		go s.server.SecondFailed(s.server.Unavailable(errors.New("this browser cannot start the engine for the API and workbooks (no Worker inside a Worker)")))
		return
	}
	w, err := newWorker(ctor, s.script)
	if err != nil {
		go s.server.SecondFailed(s.server.Unavailable(fmt.Errorf("the engine for the API and workbooks could not start: %w", err)))
		return
	}
	w.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		m, err := port.FromJS(args[0].Get(wire.FieldData))
		if err != nil {
			return nil // the second worker sends nothing else
		}
		if m.Type == wire.TypeFatal {
			s.stopped(w)
		}
		s.receive(m)
		return nil
	}))
	w.Set("onerror", js.FuncOf(func(_ js.Value, args []js.Value) any {
		// Handled here: the jobs waiting for it end with the error, and
		// the next one starts it again.
		args[0].Call("preventDefault")
		err := errors.New("the engine for the API and workbooks could not load")
		if m := args[0].Get("message"); m.Truthy() {
			err = fmt.Errorf("%w: %s", err, m.String())
		}
		s.stopped(w)
		s.server.SecondFailed(s.server.Unavailable(err))
		return nil
	}))
	init := js.Global().Get("Object").New()
	init.Set(wire.FieldType, string(wire.TypeInit))
	init.Set(wire.FieldBody, s.wasm)
	w.Call("postMessage", init)
	s.w = w
}

// stopped forgets a second worker that failed: the next job starts another.
func (s *second) stopped(w js.Value) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w.Equal(w) {
		s.w.Call("terminate")
		s.w = js.Undefined()
	}
}

// send sends a message to the second worker, starting it first if needed.
func (s *second) send(m wire.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked()
	if s.w.Truthy() {
		port.Post(s.w, m)
	}
}

// newWorker starts a Worker, turning the browser's exception (a content
// security policy, say) into an error.
func newWorker(ctor js.Value, script string) (w js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return ctor.New(script), nil
}
