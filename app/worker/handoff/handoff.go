// Package handoff holds the messages between the console's two Web
// Workers: the first, which holds the documents, hands the second (which
// calls the API and writes workbooks) what it needs of a document.
package handoff

import (
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The jobs the first worker hands to the second (see runner.Handoff). The
// page never sends them: it sends wire.JobPrepareSubmission,
// wire.JobAsideWorkbook, wire.JobExport, wire.JobResultWorkbook and
// wire.JobReviewBulk, which the first worker answers alone when it can.
const (
	// PlanSubmissionJob plans a submission, checks it against the journal
	// and the API's record of bulks and keeps it for JobSubmit. Body:
	// PlanSubmission; Data: the document's elements as a JSON array.
	// Result: wire.Confirmation.
	PlanSubmissionJob = "plan-submission"
	// ElementsWorkbookJob writes elements to fix as a workbook.
	// Body: ElementsWorkbook; Data: the elements as a JSON array. Result:
	// wire.File, with the workbook in Data.
	ElementsWorkbookJob = "write-elements-workbook"
	// ErrorWorkbookJob writes the error workbook of a document.
	// Body: ErrorWorkbook. Result: wire.Exported, with the workbook in Data.
	ErrorWorkbookJob = "write-error-workbook"
	// ResultWorkbookJob writes the result workbook of a bulk. Body:
	// ResultWorkbook. Result: wire.ResultFile, with the workbook in Data.
	ResultWorkbookJob = "write-result-workbook"
	// ReviewBulkJob reviews a submitted bulk for a second operator with
	// the contract in use. Body: ReviewBulk. Result: wire.BulkReview.
	ReviewBulkJob = "review-bulk-with-contract"
)

// PlanSubmission is the body of PlanSubmissionJob.
type PlanSubmission struct {
	// Request is the page's request.
	Request wire.PrepareSubmission `json:"request"`
	// Confirmation is what the first worker knows: the document, its kind,
	// file name, counts and reading; it was not blocked.
	Confirmation wire.Confirmation `json:"confirmation"`
	// Only lists the elements to send when not all are (the valid ones).
	Only []int `json:"only,omitempty"`
	// Origins locate each element in the operator's file, when it was a
	// spreadsheet or CSV file.
	Origins []Origin `json:"origins,omitempty"`
	// Lang is the page's language (app/lang), in which the second worker
	// says what it finds: earlier submissions, repeats; "" is English.
	Lang string `json:"lang,omitempty"`
}

// An Origin is where an element was in the operator's file.
type Origin struct {
	Sheet string `json:"sheet,omitempty"`
	Row   int    `json:"row"`
}

// ElementsWorkbook is the body of ElementsWorkbookJob.
type ElementsWorkbook struct {
	Kind   string         `json:"kind"`
	Fields []schema.Field `json:"fields"`
	// Notes go beside each element: where it was and what is wrong.
	Notes []string `json:"notes"`
	// Name is the workbook's file name.
	Name string `json:"name"`
}

// ErrorWorkbook is the body of ErrorWorkbookJob: the table an error
// workbook shows, its header row and its report.
type ErrorWorkbook struct {
	Table  *ingest.Table `json:"table"`
	Header int           `json:"header"`
	// Kind, Elements and Problems are the report's.
	Kind     string           `json:"kind"`
	Elements int              `json:"elements"`
	Problems []schema.Problem `json:"problems"`
	// Exported names the file; its Size is set by the second worker.
	Exported wire.Exported `json:"exported"`
	// Lang is the language of the workbook's own words.
	Lang string `json:"lang,omitempty"`
}

// ResultWorkbook is the body of ResultWorkbookJob: the page's request, and
// the fields of every kind in the contract in use, which name the
// workbook's columns (the second worker knows only the built-in one).
type ResultWorkbook struct {
	Request wire.ResultWorkbook       `json:"request"`
	Fields  map[string][]schema.Field `json:"fields"`
}

type ReviewBulk struct {
	// Request is the page's request.
	Request wire.ReviewBulk `json:"request"`
	// Contract is the contract the elements are validated with.
	Contract Contract `json:"contract"`
}
