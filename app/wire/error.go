package wire

import (
	"fmt"
	"math/rand/v2"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// Error codes: what the page makes of an Error. The operator reads its
// Message, never its code.
const (
	// CodeCanceled: the page canceled the job.
	CodeCanceled = "canceled"
	// CodeBadRequest: the request does not fit the job (an unknown kind,
	// a limit typed wrong, a file of the wrong kind).
	CodeBadRequest = "bad-request"
	// CodeUnknownJob: no job has that name.
	CodeUnknownJob = "unknown-job"
	// CodeGone: the document the job names is no longer kept.
	CodeGone = "gone"
	// CodeFailed: the job could not do what was asked, for a reason the
	// message says in the operator's words.
	CodeFailed = "failed"
	// CodeInternal: something went wrong inside the console. The message
	// says so with Ref; the log holds what went wrong under the same
	// reference.
	CodeInternal = "internal"
	// CodeUnavailable: the worker could not start or stopped.
	CodeUnavailable = "unavailable"
)

// An Error is why a job did not produce a result, as the operator is told
// it: a code for the page and a sentence for people. What went wrong
// inside (an error's own text, a panic and its stack) never travels in
// it: it goes to the log, under the reference the sentence names.
// Problems in the operator's data are not errors: they are part of a
// job's result.
type Error struct {
	Code string `json:"code"`
	// Message is a sentence in the operator's language that says what
	// they can do.
	Message string `json:"message"`
	// Ref, when something went wrong inside, is the reference the screen
	// shows and the log holds what went wrong under. An Error of
	// CodeInternal without one was not said for people (a body that could
	// not be read, a message the worker's program could not read): the
	// page logs its Message under a reference of its own.
	Ref string `json:"ref,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NewRef returns a fresh reference for a failure inside the console: six
// hexadecimal digits, short enough to read out over the phone, and enough
// to find one failure among an afternoon's in a log.
func NewRef() string { return fmt.Sprintf("%06X", rand.Uint32()&0xFFFFFF) }

// Inside is the sentence of every Error with a reference, in the page as
// in the workers: something went wrong inside, what to do, and the
// reference to give. Say it in the operator's language (lang.Tag.Say).
func Inside(ref string) *lang.Error {
	return lang.Errorf("Something went wrong inside the console (reference %s). Try again; if it happens again, give this reference to your administrators.", ref)
}
