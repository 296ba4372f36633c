package wire

import "github.com/bulkdesk/bulkdesk/app/keyfields"

// JobBulks lists the identity's bulk processes, a page at a time. Request:
// ListBulks. Result: BulkList.
const JobBulks = "bulks"

// The states of a bulk process (BulkInfo.Status), as the API and
// bulkapi.Status name them.
const (
	BulkSubmitted          = "SUBMITTED"
	BulkRunning            = "RUNNING"
	BulkPaused             = "PAUSED"
	BulkCompleted          = "COMPLETED"
	BulkPartiallyCompleted = "PARTIALLY_COMPLETED"
	BulkFailed             = "FAILED"
	BulkCancelled          = "CANCELLED"
)

// BulkStates lists the states of a bulk, in lifecycle order.
func BulkStates() []string {
	return []string{BulkSubmitted, BulkRunning, BulkPaused, BulkCompleted, BulkPartiallyCompleted, BulkFailed, BulkCancelled}
}

// The states of an operation of a bulk (OperationInfo.Status, and the
// keys of BulkInfo.Counts), as bulkapi.OperationStatus names them.
const (
	OperationSubmitted = "SUBMITTED"
	OperationRunning   = "RUNNING"
	OperationCompleted = "COMPLETED"
	OperationFailed    = "FAILED"
	OperationCancelled = "CANCELLED"
)

// OperationStates lists the states of an operation.
func OperationStates() []string {
	return []string{OperationSubmitted, OperationRunning, OperationCompleted, OperationFailed, OperationCancelled}
}

// The actions on a bulk (BulkAction.Action, BulkInfo.Actions), as
// bulkapi.Action names them.
const (
	ActionExecute = "execute"
	ActionPause   = "pause"
	ActionResume  = "resume"
	ActionCancel  = "cancel"
)

// The execution modes (BulkAction.Mode, BulkInfo.Mode), as bulkapi.Mode
// names them.
const (
	// ModeOnFailureStop stops execution after the first failed operation.
	ModeOnFailureStop = "ON_FAILURE_STOP"
	// ModeOnFailureContinue runs every operation whatever the others do.
	ModeOnFailureContinue = "ON_FAILURE_CONTINUE"
)

// ListBulks is the request of JobBulks.
type ListBulks struct {
	Connection Connection `json:"connection"`
	// Status filters by state (BulkSubmitted, …); "" lists every state.
	Status string `json:"status,omitempty"`
	Offset int    `json:"offset,omitempty"`
	// Limit is at most 100; 0 means 100.
	Limit int `json:"limit,omitempty"`
}

// BulkList is the result of JobBulks.
type BulkList struct {
	// Count is how many bulks match, on every page.
	Count   int         `json:"count"`
	Offset  int         `json:"offset"`
	Bulks   []BulkInfo  `json:"bulks"`
	Failure *APIFailure `json:"failure,omitempty"`
}

// A BulkInfo is a bulk process as the API reports it, with what the
// journal knows of it when this console submitted it.
type BulkInfo struct {
	BulkID string `json:"bulkId"`
	Status string `json:"status"`
	// Operations is how many operations the bulk holds; Done how many
	// have finished, well or not.
	Operations int    `json:"operations"`
	Done       int    `json:"done"`
	Operation  string `json:"operation,omitempty"`
	Mode       string `json:"mode,omitempty"`
	// Started and Finished are Unix times in milliseconds, 0 until then.
	Started  int64 `json:"started,omitempty"`
	Finished int64 `json:"finished,omitempty"`
	// Counts are the operations by state, OperationCompleted, … (details
	// only).
	Counts map[string]int `json:"counts,omitempty"`
	// Actions are the actions the state allows, in button order.
	Actions []string `json:"actions,omitempty"`
	Final   bool     `json:"final,omitempty"`
	// Source, Submission, Chunk and Chunks say where the bulk came from,
	// when the journal knows it; Submission is "" for a bulk submitted
	// elsewhere (another browser, the CLI, another program).
	Source     string `json:"source,omitempty"`
	Submission string `json:"submission,omitempty"`
	Chunk      int    `json:"chunk,omitempty"`
	Chunks     int    `json:"chunks,omitempty"`
	// Submitted is when the API answered the submission with the bulk, a
	// Unix time in milliseconds, as the journal recorded it; 0 when the
	// journal does not know the bulk (the API keeps no such time).
	Submitted int64 `json:"submitted,omitempty"`
	// Kind is the bulk's kind (such as "transfers"), from the journal or
	// from the operation it runs; "" when neither tells.
	Kind string `json:"kind,omitempty"`
}

// JobBulkTotals sums the amounts of a bulk by currency, from the request
// payloads of its operations, read a page at a time. A bulk's operations
// never change, so the worker keeps the answer. Request: GetBulkTotals.
// Result: BulkTotals. Progress: PhaseReadingOperations.
const JobBulkTotals = "bulk-totals"

// GetBulkTotals is the request of JobBulkTotals.
type GetBulkTotals struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
}

// BulkTotals is the result of JobBulkTotals.
type BulkTotals struct {
	BulkID string `json:"bulkId"`
	Kind   string `json:"kind,omitempty"`
	// Elements is how many operations were summed.
	Elements int `json:"elements"`
	// MovesMoney is false for kinds without amounts (blocking cards,
	// inviting users): then Totals is empty.
	MovesMoney bool `json:"movesMoney,omitempty"`
	// Totals are by currency, as the confirmation before a submission
	// shows them.
	Totals  []Total     `json:"totals,omitempty"`
	Failure *APIFailure `json:"failure,omitempty"`
}

// An ExistingBulk is a chunk that the API answered with a bulk it had
// made before: the same content was sent earlier with the same
// idempotency-ref (from another browser, say). No new bulk was made.
type ExistingBulk struct {
	Chunk int      `json:"chunk"`
	Bulk  BulkInfo `json:"bulk"`
}

// JobBulk reads the details of a bulk process. Request: GetBulk. Result:
// BulkResult.
const JobBulk = "bulk"

// GetBulk is the request of JobBulk.
type GetBulk struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
}

// BulkResult is the result of JobBulk and JobBulkAction.
type BulkResult struct {
	Bulk    *BulkInfo   `json:"bulk,omitempty"`
	Failure *APIFailure `json:"failure,omitempty"`
}

// JobBulkAction executes, pauses, resumes or cancels a bulk process, then
// reads its details. Request: BulkAction. Result: BulkResult.
const JobBulkAction = "bulk-action"

// BulkAction is the request of JobBulkAction.
type BulkAction struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
	// Action is ActionExecute, ActionPause, ActionResume or ActionCancel.
	Action string `json:"action"`
	// Mode is the execution mode of ActionExecute: ModeOnFailureStop or
	// ModeOnFailureContinue; "" leaves it to the API.
	Mode string `json:"mode,omitempty"`
}

// JobOperations lists a bulk's operations, a page at a time, each placed
// in the operator's file when the journal knows the bulk. Request:
// ListOperations. Result: OperationList.
const JobOperations = "operations"

// ListOperations is the request of JobOperations.
type ListOperations struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
	// Status filters by operation state; "" lists every state.
	Status string `json:"status,omitempty"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// OperationList is the result of JobOperations.
type OperationList struct {
	Count      int             `json:"count"`
	Offset     int             `json:"offset"`
	Operations []OperationInfo `json:"operations"`
	Failure    *APIFailure     `json:"failure,omitempty"`
	// MovesMoney, HasReference and ReceiverType say which key fields the
	// bulk's kind has (see schema.Kind): amounts, references, and what
	// receives ("managed_cards", "users", keyfields.Person, or "" for a
	// payee).
	MovesMoney   bool   `json:"movesMoney,omitempty"`
	HasReference bool   `json:"hasReference,omitempty"`
	ReceiverType string `json:"receiverType,omitempty"`
}

// An OperationInfo is one operation of a bulk.
type OperationInfo struct {
	Sequence    int    `json:"sequence"`
	OperationID string `json:"operationId,omitempty"`
	Status      string `json:"status"`
	// Call is the operation's method and path.
	Call string `json:"call,omitempty"`
	// Error explains a failed operation.
	Error string `json:"error,omitempty"`
	// Element is the index of the element in the operator's request, -1
	// when the journal does not know the bulk; Sheet and Row its place in
	// a spreadsheet or CSV file.
	Element int    `json:"element"`
	Sheet   string `json:"sheet,omitempty"`
	Row     int    `json:"row,omitempty"`
	// Keys are the key fields of the element, read from the operation:
	// who receives, the amount, the reference, the source.
	Keys keyfields.Fields `json:"keys"`
}

// JobResultWorkbook writes the result workbook of a bulk, or of the whole
// submission it belongs to: each element's file row, bulk, operation
// status and error, and the failed rows ready to fix and submit again.
// Request: ResultWorkbook. Result: ResultFile, with the workbook as Data.
const JobResultWorkbook = "result-workbook"

// ResultWorkbook is the request of JobResultWorkbook.
type ResultWorkbook struct {
	Connection Connection `json:"connection"`
	BulkID     string     `json:"bulkId"`
}

// ResultFile is the result of JobResultWorkbook.
type ResultFile struct {
	File
	// Failed is how many rows failed or were cancelled.
	Failed  int         `json:"failed"`
	Failure *APIFailure `json:"failure,omitempty"`
}
