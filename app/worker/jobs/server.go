// Package jobs runs the console's CPU work in its Web Worker: it receives
// messages from the page, runs one job at a time and posts back progress,
// results and errors (see package worker for the protocol). It is plain
// Go, tested natively; wasm/worker binds it to the browser.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Func is a job. It reads its request with Call.Decode and Call.Data and
// returns a result that is encoded as JSON; an error that is not a
// *worker.Error is reported with the code "internal".
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

	// Transport sends the API's requests; nil means the default, which in
	// the browser is fetch. Tests serve them in-process. Set it before Run.
	Transport http.RoundTripper
	// OpenJournal opens the submission journal on first use; nil keeps
	// the journal in memory, for tests. Set it before Run.
	OpenJournal func(ctx context.Context) (submission.Journal, string, error)
	// OpenDrafts opens the store of the import in progress on first use;
	// nil keeps it in memory, for tests. Set it before Run.
	OpenDrafts func(ctx context.Context) (draft.Store, error)
	// RecordCache keeps the API's record of bulks for the repeat check
	// between jobs; nil keeps it in memory for the worker's life. Set it
	// before Run.
	RecordCache submission.RecordCache
	// OpenContracts opens the store of the contract in use on first use;
	// nil keeps it in memory, for tests. Set it before Run.
	OpenContracts func(ctx context.Context) (ContractStore, error)

	post       func(worker.Message)
	jobs       map[string]Func
	concurrent map[string]bool
	documents  *LoadedFiles
	// validator checks every document opened or built; JobContract
	// replaces it (see contract).
	validator *schema.Validator
	contract  contractState
	submit    *submitState
	totals    totalsCache
	storage   *pageStorage
	// limits are the operator's amount limits, for every document built.
	limits ingest.AmountLimits
	// draft is the import in progress, kept in the browser.
	draft draftState

	mu       sync.Mutex
	ctx      context.Context // Run's, once it runs
	queue    []worker.Message
	wake     chan struct{}
	canceled map[int]bool
	running  map[int]context.CancelFunc
}

// NewServer returns a Server with every job of the console registered;
// post sends a message to the page.
func NewServer(post func(worker.Message)) *Server {
	s := &Server{
		post:       post,
		jobs:       make(map[string]Func),
		concurrent: make(map[string]bool),
		documents:  NewLoadedFiles(2),
		validator:  schema.Default(),
		wake:       make(chan struct{}, 1),
		canceled:   make(map[int]bool),
		running:    make(map[int]context.CancelFunc),
	}
	s.Register(worker.JobOpen, s.open)
	s.Register(worker.JobPrepare, s.prepare)
	s.Register(worker.JobBuild, s.build)
	s.Register(worker.JobRows, s.rows)
	s.Register(worker.JobEdit, s.edit)
	s.Register(worker.JobAmountLimits, s.amountLimits)
	s.Register(worker.JobReplace, s.replace)
	s.Register(worker.JobNextProblem, s.nextProblem)
	s.Register(worker.JobProblems, s.problems)
	s.Register(worker.JobExport, s.export)
	s.storage = newPageStorage(post)
	s.submit = newSubmitState()
	s.Register(worker.JobRestoreDraft, s.restoreDraft)
	s.Register(worker.JobDiscardDraft, s.discard)
	s.registerSubmission()
	s.discardAfterSubmit(worker.JobSubmit)
	s.registerBulks()
	s.Register(worker.JobContract, s.setContract)
	return s
}

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
func (s *Server) Receive(m worker.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case worker.TypeRequest:
		if s.concurrent[m.Job] && s.ctx != nil {
			s.start(m)
			return
		}
		s.queue = append(s.queue, m)
		select {
		case s.wake <- struct{}{}:
		default:
		}
	case worker.TypeCancel:
		if cancel, ok := s.running[m.ID]; ok {
			cancel()
			return
		}
		for _, q := range s.queue {
			if q.ID == m.ID {
				s.canceled[m.ID] = true
			}
		}
	case worker.TypeStorageReply:
		s.storage.reply(m)
	default:
		// The page sends nothing else; ignoring the unknown keeps an older
		// page working with a newer worker.
	}
}

// Run runs the jobs received, one at a time, until ctx is done. While no
// job waits, it warms the validator up (see warmUpSteps).
func (s *Server) Run(ctx context.Context) {
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
	// The contract an operator loaded is back in use before any file is
	// read, and before the warm-up compiles it.
	s.restoreContract(ctx)
	cold := s.warmUpSteps()
	for {
		m, ok := s.next()
		if ok && s.concurrent[m.Job] {
			s.mu.Lock()
			s.start(m)
			s.mu.Unlock()
			continue
		}
		if !ok && len(cold) > 0 {
			cold[0]()
			if s.Yield != nil {
				s.Yield()
			}
			if cold = cold[1:]; len(cold) == 0 {
				s.post(worker.Message{Type: worker.TypeWarm})
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
func (s *Server) next() (worker.Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return worker.Message{}, false
	}
	m := s.queue[0]
	s.queue = s.queue[1:]
	return m, true
}

// start runs a concurrent job in a goroutine of its own; s.mu is held.
func (s *Server) start(m worker.Message) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.running[m.ID] = cancel // until run takes over, a cancel lands here
	go func() {
		defer cancel()
		s.run(ctx, m)
	}()
}

// run runs one request and posts its result or error.
func (s *Server) run(ctx context.Context, m worker.Message) {
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
	if err == nil {
		var body []byte
		if body, err = json.Marshal(result); err == nil {
			s.post(worker.Message{ID: m.ID, Type: worker.TypeResult, Job: m.Job, Body: body, Data: c.result})
			return
		}
		err = fmt.Errorf("encoding the result: %w", err)
	}
	s.post(worker.Message{ID: m.ID, Type: worker.TypeError, Job: m.Job, Body: errorBody(err)})
}

// call runs a job, turning a panic into an internal error: a bug in one
// job must not take the worker, and every later job, down with it.
func (s *Server) call(c *Call, job string) (result any, err error) {
	f, ok := s.jobs[job]
	if !ok {
		return nil, worker.Errorf(worker.CodeUnknownJob, "the worker has no job %q", job)
	}
	if err := c.ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			result, err = nil, fmt.Errorf("job %s failed: %v", job, p)
		}
	}()
	return f(c)
}

// errorBody encodes err as a worker.Error.
func errorBody(err error) []byte {
	var we *worker.Error
	switch {
	case errors.As(err, &we):
	case errors.Is(err, context.Canceled):
		we = worker.Errorf(worker.CodeCanceled, "the job was canceled")
	default:
		we = &worker.Error{Code: worker.CodeInternal, Message: err.Error()}
	}
	body, _ := json.Marshal(we) // two strings: cannot fail
	return body
}
