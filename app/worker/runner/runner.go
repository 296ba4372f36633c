// Package runner runs a Web Worker's jobs: it receives the page's
// messages, runs one job at a time (or, for jobs that wait on the network,
// beside the others), posts back progress, results and errors, and hands
// the jobs it does not run to a second worker, passing its answers back
// (see package wire for the protocol). It is plain Go, tested natively.
package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A Func is a job. It reads its request with Call.Decode and Call.Data and
// returns a result that is encoded as JSON, or a Handoff. Its error reaches
// the page as a *wire.Error: as it is when it is one, said in the jobs'
// language when it can be (lang.Sayer), and otherwise written to the log
// and reported with the code "internal" and a reference (see failure).
type Func func(c *Call) (any, error)

// ProgressInterval is the least time between two progress messages of a job.
const ProgressInterval = 100 * time.Millisecond

// A Server runs jobs for one page. Receive may be called at any time, from
// any goroutine; jobs run one at a time in Run.
type Server struct {
	// Yield is called between two progress messages of a job. In the
	// browser it lets the worker's event loop deliver waiting messages, so
	// that a cancel reaches a running job; natively it is not needed. Set
	// it before Run.
	Yield func()

	// SwitchInLoops makes a progress report that is not sent switch
	// goroutines (see Call.Progress). The first worker sets it for its
	// reading jobs' long loops; the second, whose jobs run side by side
	// on shared records, does not. Set it before Run.
	SwitchInLoops bool

	// Forward, when set, sends a message to the second worker, which runs
	// the jobs this one has not registered; its messages come back through
	// FromSecond. Set it before Run.
	Forward func(wire.Message)
	// Forwarded, when set, sees each result or error of the second worker
	// before it goes to the page.
	Forwarded func(wire.Message)
	// Language, when set, returns the tag of the language the page speaks,
	// which the second worker is told (LanguageJob). Set it before Run.
	Language func() string
	// Told, when set, receives the language the first worker tells this
	// one (LanguageJob): it is a second worker. Set it before Run.
	Told func(tag string)
	// StorageReplies, when set, receives the page's answers to this
	// worker's requests for its storage (wire.TypeStorage).
	StorageReplies func(wire.Message)

	// Say writes an error the operator reads in the language of the jobs
	// (lang.Tag.Say); nil writes it in English. Set it before Run.
	Say func(error) string
	// Log receives what the operator is not shown (an error's own text, a
	// panic with its stack) under the reference the page shows; nil
	// writes to the standard error. Set it before Run.
	Log *log.Logger

	post       func(wire.Message)
	jobs       map[string]Func
	concurrent map[string]bool

	mu       sync.Mutex
	ctx      context.Context // Run's, once it runs
	queue    []wire.Message
	wake     chan struct{}
	canceled map[int]bool
	running  map[int]context.CancelFunc
	// second holds the ids of the requests the second worker answers.
	second map[int]bool
	// told is the language the second worker was last told.
	told string
}

// New returns a Server without jobs; post sends a message to the page.
func New(post func(wire.Message)) *Server {
	return &Server{
		post:       post,
		jobs:       make(map[string]Func),
		concurrent: make(map[string]bool),
		wake:       make(chan struct{}, 1),
		canceled:   make(map[int]bool),
		running:    make(map[int]context.CancelFunc),
		second:     make(map[int]bool),
	}
}

// Post sends a message to the page.
func (s *Server) Post(m wire.Message) { s.post(m) }

// Register adds a job under a name. Jobs run one at a time, in order.
func (s *Server) Register(name string, f Func) { s.jobs[name] = f }

// RegisterConcurrent adds a job that spends its time waiting for the
// network: it starts as soon as it arrives and runs beside the others, so
// that a submission retrying for minutes or a bulk being watched does not
// hold up the validation of the next file.
func (s *Server) RegisterConcurrent(name string, f Func) {
	s.jobs[name] = f
	s.concurrent[name] = true
}

// Receive takes a message from the page. Requests wait for Run; a cancel
// stops its job, running or waiting.
func (s *Server) Receive(m wire.Message) {
	var l string
	if m.Type == wire.TypeRequest && s.Forward != nil {
		l = s.language() // before s.mu: the jobs' language has a lock of its own
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case wire.TypeRequest:
		if s.hear(m) {
			return
		}
		if _, ok := s.jobs[m.Job]; !ok && s.Forward != nil {
			s.second[m.ID] = true
			s.forward(m, l)
			return
		}
		if s.concurrent[m.Job] && s.ctx != nil {
			s.start(m)
			return
		}
		s.queue = append(s.queue, m)
		select {
		case s.wake <- struct{}{}:
		default:
		}
	case wire.TypeCancel:
		if s.second[m.ID] {
			s.Forward(m)
			return
		}
		if cancel, ok := s.running[m.ID]; ok {
			cancel()
			return
		}
		for _, q := range s.queue {
			if q.ID == m.ID {
				s.canceled[m.ID] = true
			}
		}
	case wire.TypeStorageReply:
		// The second worker keeps the submission journal, and asks the
		// page for its storage through the first.
		switch {
		case s.StorageReplies != nil:
			s.StorageReplies(m)
		case s.Forward != nil:
			s.Forward(m)
		}
	default:
		// The page sends nothing else; ignoring the unknown keeps an older
		// page working with a newer worker.
	}
}

// Run runs the jobs received, one at a time, until ctx is done. While no
// job waits it calls idle, when set, until idle reports it has nothing
// more to do; idle must return quickly, so that a job that arrives
// meanwhile waits no longer than one of its steps.
func (s *Server) Run(ctx context.Context, idle func() bool) {
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
	for {
		m, ok := s.next()
		if ok && s.concurrent[m.Job] {
			s.mu.Lock()
			s.start(m)
			s.mu.Unlock()
			continue
		}
		if !ok && idle != nil {
			if !idle() {
				idle = nil
			}
			if s.Yield != nil {
				s.Yield()
			}
			continue
		}
		if !ok {
			select {
			case <-s.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		s.run(ctx, m)
	}
}

// next takes the first waiting request, if any.
func (s *Server) next() (wire.Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return wire.Message{}, false
	}
	m := s.queue[0]
	s.queue = s.queue[1:]
	return m, true
}

// start runs a concurrent job in a goroutine of its own; s.mu is held.
func (s *Server) start(m wire.Message) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.running[m.ID] = cancel // until run takes over, a cancel lands here
	go func() {
		defer cancel()
		s.run(ctx, m)
	}()
}

// run runs one request and posts its result or error, or hands it over.
func (s *Server) run(ctx context.Context, m wire.Message) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	wasCanceled := s.canceled[m.ID]
	delete(s.canceled, m.ID)
	s.running[m.ID] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, m.ID)
		s.mu.Unlock()
	}()
	if wasCanceled {
		cancel()
	}

	c := &Call{ctx: ctx, id: m.ID, body: m.Body, Data: m.Data, server: s}
	result, err := s.call(c, m.Job)
	if h, ok := result.(Handoff); ok && err == nil {
		err = s.handOver(ctx, m.ID, h)
		if err == nil {
			return
		}
	}
	if err == nil {
		var body []byte
		if body, err = json.Marshal(result); err == nil {
			s.post(wire.Message{ID: m.ID, Type: wire.TypeResult, Job: m.Job, Body: body, Data: c.result})
			return
		}
		err = fmt.Errorf("encoding the result: %w", err)
	}
	s.post(wire.Message{ID: m.ID, Type: wire.TypeError, Job: m.Job, Body: s.ErrorBody(err)})
}

// call runs a job, turning a panic into an internal error: a bug in one
// job must not take the worker, and every later job, down with it.
func (s *Server) call(c *Call, job string) (result any, err error) {
	f, ok := s.jobs[job]
	if !ok {
		return nil, s.Hidden(wire.CodeUnknownJob, fmt.Sprintf("the worker has no job %q", job))
	}
	if err := c.ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			result, err = nil, s.Hidden(wire.CodeInternal, panicked(job, p, debug.Stack()))
		}
	}()
	return f(c)
}

// ErrorBody encodes err as the *wire.Error the page receives (see
// failure).
func (s *Server) ErrorBody(err error) []byte {
	b, _ := wire.EncodeBody(s.failure(err)) // strings: cannot fail
	return b
}
