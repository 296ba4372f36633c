// Package jobs runs the console's reading and validation in its first Web
// Worker: opening a file, reading it with the operator's settings,
// building and validating its elements, the review's rows, edits and
// problems, and the import in progress kept in the browser. Everything
// else (calling the API, writing workbooks) runs in a second worker,
// package apijobs, to which this one hands those jobs over: the first
// worker's WebAssembly stays small and starts fast. It is plain Go,
// tested natively; wasm/worker binds it to the browser.
package jobs

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Server runs the reading jobs of one page and hands the others to the
// second worker (see runner.Server.Forward).
type Server struct {
	*runner.Server

	// OpenDrafts opens the store of the import in progress on first use;
	// nil keeps it in memory, for tests. Set it before Run.
	OpenDrafts func(ctx context.Context) (draft.Store, error)
	// OpenContracts opens the store of the contract in use on first use;
	// nil keeps it in memory, for tests. Set it before Run.
	OpenContracts func(ctx context.Context) (ContractStore, error)

	documents *LoadedFiles
	// validator checks every document opened or built; JobContract
	// replaces it (see contract).
	validator *schema.Validator
	contract  contractState
	// speaks is the language the page speaks (a lang.Tag), as the last
	// JobContract gave it (see language).
	speaks atomic.Value
	// limits are the operator's amount limits, for every document built.
	limits ingest.AmountLimits
	// draft is the import in progress, kept in the browser.
	draft draftState
	// clock, when set, is what the validation compares dates against
	// (SetClock).
	clock func() time.Time
	// timing times the reading jobs' parts (TimePhases).
	timing phaseTiming
	// gc is the collector's setting for the reading jobs (SetBatchGC).
	gc gcBatch
}

// NewServer returns a Server with every reading job of the console
// registered; post sends a message to the page.
func NewServer(post func(wire.Message)) *Server {
	var s *Server
	s = &Server{
		// The collector's batch ends once a result is out (gcbatch.go).
		Server:    runner.New(func(m wire.Message) { post(m); s.gc.posted(m) }),
		documents: NewLoadedFiles(2),
		validator: schema.Default(),
	}
	s.documents.language = s.language
	// The reading jobs run one at a time: their long loops may switch.
	s.SwitchInLoops = true
	s.Say = func(err error) string { return s.language().Say(err) }
	s.Language = func() string { return string(s.language()) }
	s.Register(wire.JobOpen, s.batched(s.open))
	s.Register(wire.JobPrepare, s.batched(s.prepare))
	s.Register(wire.JobBuild, s.build)
	s.Register(wire.JobRows, s.rows)
	s.Register(wire.JobEdit, s.edit)
	s.Register(wire.JobAmountLimits, s.amountLimits)
	s.Register(wire.JobReplace, s.replace)
	s.Register(wire.JobUndo, s.undo)
	s.Register(wire.JobNextProblem, s.nextProblem)
	s.Register(wire.JobProblems, s.problems)
	s.Register(wire.JobExport, s.export)
	s.Register(wire.JobRestoreDraft, s.restoreDraft)
	s.Register(wire.JobDiscardDraft, s.discard)
	s.Register(wire.JobContract, s.setContract)
	s.Register(wire.JobPrepareSubmission, s.prepareSubmission)
	s.Register(wire.JobAsideWorkbook, s.asideWorkbook)
	s.Register(wire.JobResultWorkbook, s.resultWorkbook)
	s.Register(wire.JobTemplate, s.template)
	s.Register(wire.JobReviewBulk, s.reviewBulk)
	s.Forwarded = s.afterSecond
	return s
}

// Run runs the jobs received until ctx is done. While no job waits, it
// warms the validator up (see warmUpSteps).
func (s *Server) Run(ctx context.Context) {
	// The contract an operator loaded is back in use before any file is
	// read, and before the warm-up compiles it.
	s.restoreContract(ctx)
	cold := s.warmUpSteps()
	defer s.gc.stop()
	s.Server.Run(ctx, func() bool {
		if len(cold) == 0 {
			return false
		}
		cold[0]()
		if cold = cold[1:]; len(cold) == 0 {
			s.Post(wire.Message{Type: wire.TypeWarm})
			return false
		}
		return true
	})
}

// afterSecond sees the second worker's answers: a submission sent whole
// (one that stopped on no failure, and was not stopped by elements
// submitted before) removes the draft, since the file has been sent.
func (s *Server) afterSecond(m wire.Message) {
	if m.Job != wire.JobSubmit || m.Type != wire.TypeResult {
		return
	}
	var sub wire.Submitted
	if json.Unmarshal(m.Body, &sub) == nil && sub.Failure == nil && (sub.Repeats == nil || !sub.Repeats.Stopped) {
		_ = s.discardDraft(context.Background())
	}
}

// Files are the files the jobs have loaded.
func (s *Server) Files() *LoadedFiles { return s.documents }
