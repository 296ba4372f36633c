package wire

import (
	"time"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// JobPrepareSubmission plans the submission of a loaded document: its
// chunks, their idempotency-refs and control totals, and any earlier
// submission of the same content in the journal. Nothing is sent. Request:
// PrepareSubmission. Result: Confirmation.
const JobPrepareSubmission = "prepare-submission"

// PrepareSubmission is the request of JobPrepareSubmission.
type PrepareSubmission struct {
	Document int `json:"document"`
	// ValidOnly plans the valid elements only; the invalid ones stay
	// aside. Without it a request with invalid elements cannot be sent.
	ValidOnly bool `json:"validOnly,omitempty"`
	// NewBulk gives every chunk a fresh ref: a deliberate second
	// submission of content that was submitted before.
	NewBulk bool `json:"newBulk,omitempty"`
	// ChunkSize is the most elements per bulk; 0 means 10,000.
	ChunkSize int `json:"chunkSize,omitempty"`
	// Connection, when set, lets earlier submissions older than the API's
	// memory of refs (24 hours) be looked up in the bulk list.
	Connection *Connection `json:"connection,omitempty"`
}

// Confirmation is the result of JobPrepareSubmission: what the
// confirmation step shows.
type Confirmation struct {
	// Plan names the plan in JobSubmit; empty when nothing can be sent.
	Plan       string `json:"plan,omitempty"`
	Document   int    `json:"document"`
	Kind       string `json:"kind"`
	BackOffice bool   `json:"backOffice,omitempty"`
	FileName   string `json:"fileName"`
	// Endpoint is the submission call, such as "POST /bulks/transfers".
	Endpoint string `json:"endpoint"`
	// Elements is how many elements the document holds; Sending how many
	// the plan sends; Invalid how many have errors.
	Elements int `json:"elements"`
	Sending  int `json:"sending"`
	Invalid  int `json:"invalid"`
	// Blocked, when set, says why nothing can be sent as asked.
	Blocked string      `json:"blocked,omitempty"`
	Chunks  []ChunkInfo `json:"chunks,omitempty"`
	// Totals are the control totals of the elements sent, by currency.
	Totals []Total `json:"totals,omitempty"`
	// Priors are earlier submissions of the same chunks.
	Priors []PriorInfo `json:"priors,omitempty"`
	// Repeats, when set, are the elements to send that earlier bulks hold
	// already, or why the API's record of bulks could not be checked:
	// JobSubmit then needs Submit.Repeats.
	Repeats *RepeatsInfo `json:"repeats,omitempty"`
	// NewBulk is set when the refs are fresh (PrepareSubmission.NewBulk).
	NewBulk bool `json:"newBulk,omitempty"`
	// Reading says in words how the file's values were read, as the
	// review's header does (Summary.Reading).
	Reading []reading.Statement `json:"reading,omitempty"`
	// Schedule says when the timestamps of the elements sent fall, in
	// words in the operator's language and time zone: each distinct time
	// with its count, or the first and the last of many.
	Schedule []string `json:"schedule,omitempty"`
	// Warnings are the warnings of the elements sent and of the file as
	// a whole, by sort: the operator accepts them before anything is sent.
	Warnings []WarningKind `json:"warnings,omitempty"`
}

// A WarningKind is one sort of warning among the elements to send: its
// title in the operator's language, the code of its first warning, how
// many there are, and the first few, each at its cell.
type WarningKind struct {
	Title string    `json:"title"`
	Code  string    `json:"code"`
	Count int       `json:"count"`
	First []Problem `json:"first"`
}

// The states of a submission and of its chunks in the journal
// (SubmissionInfo.State, ChunkInfo.State, PriorInfo.State), as
// submission.State names them.
const (
	// StatePlanned: nothing was sent yet.
	StatePlanned = "planned"
	// StateSending: a request may have reached the API, or the
	// submission is under way or was interrupted.
	StateSending = "sending"
	// StateSubmitted: the API answered with the bulk.
	StateSubmitted = "submitted"
	// StateFailed: the attempts stopped on a refusal; sending again, with
	// the same ref, is safe.
	StateFailed = "failed"
)

// A PriorInfo is an earlier submission of a chunk of the plan.
type PriorInfo struct {
	// Chunk is the chunk's index in the new plan.
	Chunk      int    `json:"chunk"`
	Submission string `json:"submission"`
	// State is the earlier entry's state (StatePlanned, …) and BulkID its
	// bulk, when the API answered.
	State  string `json:"state"`
	BulkID string `json:"bulkId,omitempty"`
	// SameRef is set when the new plan reuses the earlier ref: sending
	// resumes the earlier submission rather than making a new bulk.
	SameRef bool `json:"sameRef,omitempty"`
	// Warning explains it in an operator's words, naming the bulk.
	Warning string `json:"warning"`
}

// The operator's answers to repeats (Submit.Repeats).
const (
	// RepeatsLeaveOut sends the plan without the repeated elements.
	RepeatsLeaveOut = "leave-out"
	// RepeatsAgain submits the repeated elements again.
	RepeatsAgain = "again"
)

// MaxRepeatsShown is how many repeated elements RepeatsInfo lists.
const MaxRepeatsShown = 200

// RepeatsInfo tells of the elements of a plan that earlier bulks hold
// already: this browser's journal, and the API's record of the identity's
// bulks not yet executed or executed in the last 35 days, whoever
// submitted them.
type RepeatsInfo struct {
	// Count is how many elements repeat, of ToSend elements that sending
	// would put in new bulks.
	Count  int `json:"count"`
	ToSend int `json:"toSend"`
	// Bulks are the earlier bulks they are in.
	Bulks []string `json:"bulks,omitempty"`
	// Elements are the first MaxRepeatsShown of them.
	Elements []RepeatInfo `json:"elements,omitempty"`
	// Record is set when the API's record was checked too; RecordError
	// says why it was not.
	Record      bool   `json:"record,omitempty"`
	RecordError string `json:"recordError,omitempty"`
	// LeftOut, in Submitted, says they were left out as asked; Stopped
	// that the submission stopped on them before sending anything.
	LeftOut bool `json:"leftOut,omitempty"`
	Stopped bool `json:"stopped,omitempty"`
}

// A RepeatInfo is one element that an earlier bulk holds already.
type RepeatInfo struct {
	Element int    `json:"element"`
	Sheet   string `json:"sheet,omitempty"`
	Row     int    `json:"row,omitempty"`
	// BulkID is the latest earlier bulk holding it, Status its state when
	// known, When its time; Others how many more bulks hold it.
	BulkID string    `json:"bulkId"`
	Status string    `json:"status,omitempty"`
	When   time.Time `json:"when"`
	Others int       `json:"others,omitempty"`
	// Text says it in an operator's words.
	Text string `json:"text"`
}

// A ChunkInfo is one chunk of a submission: one bulk.
type ChunkInfo struct {
	Index    int `json:"index"`
	Elements int `json:"elements"`
	// First and Last are the first and last element of the chunk in the
	// operator's request; Sheet, FirstRow and LastRow their file rows
	// when it came from a spreadsheet or CSV file.
	First    int    `json:"first"`
	Last     int    `json:"last"`
	Sheet    string `json:"sheet,omitempty"`
	FirstRow int    `json:"firstRow,omitempty"`
	LastRow  int    `json:"lastRow,omitempty"`
	Ref      string `json:"ref"`
	// Bytes is the size of the chunk's request body, when planned.
	Bytes int `json:"bytes,omitempty"`
	// State is the journal's: StatePlanned, …
	State          string `json:"state,omitempty"`
	Attempts       int    `json:"attempts,omitempty"`
	BulkID         string `json:"bulkId,omitempty"`
	OperationCount int    `json:"operationCount,omitempty"`
	LastError      string `json:"lastError,omitempty"`
	RequestRef     string `json:"requestRef,omitempty"`
}

// JobSubmit sends a prepared plan, chunk by chunk, each recorded in the
// journal before its request; retries what may be retried with the same
// ref. Request: Submit. Result: Submitted. Progress: PhaseSubmitting,
// counted in chunks, after PhaseChecking when repeats are looked for.
const JobSubmit = "submit"

// Submit is the request of JobSubmit.
type Submit struct {
	Plan       string     `json:"plan"`
	Connection Connection `json:"connection"`
	// Repeats answers the confirmation's repeats: RepeatsLeaveOut or
	// RepeatsAgain. Without an answer, elements found in earlier bulks
	// stop the submission before anything is sent (Submitted.Repeats).
	Repeats string `json:"repeats,omitempty"`
}

// JobResumeSubmission sends what an interrupted submission did not, from
// the journal alone, with its original refs. Request: ResumeSubmission.
// Result: Submitted. Progress: as JobSubmit.
const JobResumeSubmission = "resume-submission"

// ResumeSubmission is the request of JobResumeSubmission.
type ResumeSubmission struct {
	Submission string     `json:"submission"`
	Connection Connection `json:"connection"`
	// Repeats is as in Submit.
	Repeats string `json:"repeats,omitempty"`
}

// Submitted is the result of JobSubmit and JobResumeSubmission.
type Submitted struct {
	Submission SubmissionInfo `json:"submission"`
	// Failure, when set, is why the submission stopped; the journal keeps
	// where it stopped, and sending again resumes there.
	Failure *APIFailure `json:"failure,omitempty"`
	// Existing are the chunks answered with a bulk made before.
	Existing []ExistingBulk `json:"existing,omitempty"`
	// Repeats, when set, are elements earlier bulks hold: with Stopped
	// nothing was sent, since the operator did not answer for them (or
	// more were found since the confirmation); with LeftOut they were left
	// out as asked.
	Repeats *RepeatsInfo `json:"repeats,omitempty"`
}

// JobJournal lists the submissions the journal holds. Request: Journal.
// Result: JournalList.
const JobJournal = "journal"

// Journal is the request of JobJournal.
type Journal struct{}

// JournalList is the result of JobJournal and JobForgetSubmission.
type JournalList struct {
	// Storage names where the journal is kept: "IndexedDB", or
	// "localStorage" where the browser has no IndexedDB for the worker.
	Storage     string           `json:"storage"`
	Submissions []SubmissionInfo `json:"submissions"`
}

// A SubmissionInfo is one submission of the journal: the chunks of one plan.
type SubmissionInfo struct {
	ID         string `json:"id"`
	Source     string `json:"source,omitempty"`
	Kind       string `json:"kind"`
	BackOffice bool   `json:"backOffice,omitempty"`
	// State is StateSubmitted when every chunk is, StateFailed when a
	// chunk's attempts stopped on a refusal, StateSending when it is
	// under way or was interrupted.
	State string `json:"state"`
	// Interrupted is set when some chunk is not submitted: the console
	// offers to resume it. Resumable says whether the journal alone can
	// (it kept the bodies of the chunks not yet sent); otherwise loading
	// the file again resumes with the same refs.
	Interrupted bool        `json:"interrupted,omitempty"`
	Resumable   bool        `json:"resumable,omitempty"`
	Elements    int         `json:"elements"`
	Chunks      []ChunkInfo `json:"chunks"`
	Created     time.Time   `json:"created"`
	Updated     time.Time   `json:"updated"`
}

// JobForgetSubmission removes a submission from the journal. Request:
// ForgetSubmission. Result: JournalList.
const JobForgetSubmission = "forget-submission"

// ForgetSubmission is the request of JobForgetSubmission.
type ForgetSubmission struct {
	Submission string `json:"submission"`
}

// JobAsideWorkbook writes the invalid elements of a document, kept aside
// by a submission of the valid ones, as a workbook to fix and load again.
// Request: AsideWorkbook. Result: File, with the workbook as Data.
const JobAsideWorkbook = "aside-workbook"

// AsideWorkbook is the request of JobAsideWorkbook.
type AsideWorkbook struct {
	Document int `json:"document"`
}

// File is a file the worker wrote, sent as the message's Data.
type File struct {
	Name string `json:"name"`
	// Type is the file's media type.
	Type string `json:"type"`
	// Rows is how many rows of data it holds.
	Rows int `json:"rows"`
}
