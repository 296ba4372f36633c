package worker

import "fmt"

// A Type says what a message is.
type Type string

// The message types. Requests and cancels go from the page to the worker;
// the others go back.
const (
	TypeRequest  Type = "request"
	TypeCancel   Type = "cancel"
	TypeProgress Type = "progress"
	TypeResult   Type = "result"
	TypeError    Type = "error"
	// TypeReady tells the page the worker takes jobs.
	TypeReady Type = "ready"
	// TypeWarm tells the page the worker has warmed up: the browser has
	// compiled and optimized its code, and jobs run at full speed.
	TypeWarm Type = "warm"
	// TypeFatal tells the page the worker could not start; Body is an Error.
	TypeFatal Type = "fatal"
)

// A Message is one message between the page and the worker.
type Message struct {
	// ID pairs requests with their progress, result or error.
	ID int
	// Type says what the message is.
	Type Type
	// Job names the job of a request.
	Job string
	// Body is JSON text: a request, a result, a Progress or an Error.
	Body []byte
	// Data is a binary payload, such as a file's bytes.
	Data []byte
}

// Progress tells how far a job has gone.
type Progress struct {
	// Phase names the step in an operator's words: "reading", "validating".
	Phase string `json:"phase"`
	// Done and Total count the step's units (elements, rows); Total is 0
	// when it is not known yet.
	Done  int `json:"done"`
	Total int `json:"total"`
}

// Error codes.
const (
	// CodeCanceled: the page canceled the job.
	CodeCanceled = "canceled"
	// CodeBadRequest: the request does not fit the job (unknown kind, bad JSON).
	CodeBadRequest = "bad-request"
	// CodeUnknownJob: no job has that name.
	CodeUnknownJob = "unknown-job"
	// CodeGone: the document the job names is no longer kept.
	CodeGone = "gone"
	// CodeInternal: the job failed; the message says how.
	CodeInternal = "internal"
	// CodeUnavailable: the worker could not start or stopped.
	CodeUnavailable = "unavailable"
)

// An Error is why a job did not produce a result. Problems in the operator's
// data are not errors: they are part of a job's result.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
