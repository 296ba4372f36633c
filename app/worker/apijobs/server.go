// Package apijobs runs the console's second Web Worker: the jobs that call
// the API (submissions, with their journal and repeat check, and the bulks
// they made) and write workbooks. Its WebAssembly holds the HTTP client
// and excelize, so it is not started with the page: the first worker
// (package jobs), which holds the documents, starts it as a nested Web
// Worker at the first job that needs it (wasm/worker/second.go says why
// not sooner) and hands it such jobs with what they need of the document
// (package handoff). It is plain Go, tested natively; wasm/apiworker
// binds it to the browser.
package apijobs

import (
	"context"
	"net/http"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// A Server runs the API's and the workbooks' jobs for one page.
type Server struct {
	*runner.Server

	// Transport sends the API's requests; nil means the default, which in
	// the browser is fetch. Tests serve them in-process. Set it before Run.
	Transport http.RoundTripper
	// OpenJournal opens the submission journal on first use; nil keeps
	// the journal in memory, for tests. Set it before Run.
	OpenJournal func(ctx context.Context) (submission.Journal, string, error)
	// RecordCache keeps the API's record of bulks for the repeat check
	// between jobs; nil keeps it in memory for the worker's life. Set it
	// before Run.
	RecordCache submission.RecordCache

	submit     *submitState
	words      words
	totals     totalsCache
	storage    *pageStorage
	validators validators
	reviewed   reviewedBulks
}

// NewServer returns a Server with every job of the second worker
// registered; post sends a message to the first worker, which passes it
// on to the page.
func NewServer(post func(wire.Message)) *Server {
	s := &Server{
		Server:  runner.New(post),
		submit:  newSubmitState(),
		storage: newPageStorage(post),
	}
	s.StorageReplies = s.storage.reply
	s.Say = func(err error) string { return s.words.tag().Say(err) }
	s.Told = s.words.use
	s.Register(handoff.PlanSubmissionJob, s.planSubmission)
	s.Register(handoff.ElementsWorkbookJob, s.elementsWorkbook)
	s.Register(handoff.ErrorWorkbookJob, s.errorWorkbook)
	s.Register(handoff.TemplateJob, s.template)
	s.RegisterConcurrent(wire.JobSubmit, s.submitPlan)
	s.RegisterConcurrent(wire.JobResumeSubmission, s.resumeSubmission)
	s.RegisterConcurrent(wire.JobJournal, s.listJournal)
	s.RegisterConcurrent(wire.JobForgetSubmission, s.forgetSubmission)
	s.RegisterConcurrent(wire.JobAccessToken, s.accessToken)
	s.RegisterConcurrent(wire.JobReceipt, s.receipt)
	s.RegisterConcurrent(wire.JobBulks, s.listBulks)
	s.RegisterConcurrent(wire.JobBulk, s.getBulk)
	s.RegisterConcurrent(wire.JobBulkAction, s.bulkAction)
	s.RegisterConcurrent(wire.JobOperations, s.listOperations)
	s.RegisterConcurrent(handoff.ResultWorkbookJob, s.resultWorkbook)
	s.RegisterConcurrent(wire.JobBulkTotals, s.bulkTotals)
	s.RegisterConcurrent(handoff.ReviewBulkJob, s.reviewBulk)
	s.RegisterConcurrent(wire.JobBulkRepeats, s.bulkRepeats)
	s.RegisterConcurrent(wire.JobServerReceipt, s.serverReceipt)
	return s
}

// Run runs the jobs received until ctx is done.
func (s *Server) Run(ctx context.Context) { s.Server.Run(ctx, nil) }
