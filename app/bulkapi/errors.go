package bulkapi

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/apifailure"
)

// Error is a refusal from the API: any answer outside 2xx.
type Error struct {
	// Method and Path say which call was refused (the path is relative to
	// the API's base URL and holds no secret).
	Method, Path string
	// Status is the HTTP status code.
	Status int
	// RequestRef is the API's reference for this request, to quote to support.
	RequestRef string
	// Message is the API's explanation, when it gave one.
	Message string
	// Code is the machine-readable errorCode (403, 409) or code of the
	// answer, when it gave one.
	Code string
	// InvalidFields holds every syntax error of a 400 answer.
	InvalidFields []InvalidField
	// RateLimit is the x-ratelimit-limit header of a 429 answer, as sent.
	RateLimit string
	// RateLimitReset is the x-ratelimit-reset header: how long until the
	// limit's window resets. Zero when the header is absent.
	RateLimitReset time.Duration
}

// An InvalidField is one syntax error the API found in a request.
type InvalidField struct {
	// FieldName names the field; in a bulk request it starts with the index
	// of the element at fault, as in "[3].requestBody.destinationAmount.amount".
	FieldName string `json:"fieldName"`
	// Error is the sort of error: REQUIRED, SIZE, RANGE, IN, REGEX, …
	Error string `json:"error"`
	// Params are the rule's parameters, such as the bounds of a SIZE error.
	Params []string `json:"params,omitempty"`
	// Message is the back-office API's explanation of a validation error.
	Message string `json:"message,omitempty"`
}

// elementIndex matches the element index at the start of a field name, in
// the spellings APIs use: "[3].x", "3.x", "body[3].x", "requestBody[3]".
var elementIndex = regexp.MustCompile(`^(?:[A-Za-z_]*\[(\d+)\]|(\d+)(?:\.|$))`)

// Element returns the 0-based index of the request element the field
// belongs to, and false when the name does not start with one.
func (f InvalidField) Element() (int, bool) {
	m := elementIndex.FindStringSubmatch(f.FieldName)
	if m == nil {
		return 0, false
	}
	digits := m[1] + m[2]
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	return n, true
}

// Field returns the field name without its element index.
func (f InvalidField) Field() string {
	loc := elementIndex.FindStringIndex(f.FieldName)
	if loc == nil {
		return f.FieldName
	}
	return strings.TrimPrefix(f.FieldName[loc[1]:], ".")
}

// String renders the syntax error for people: "destinationAmount.amount: RANGE (1, 9223372036854775807)".
func (f InvalidField) String() string {
	var b strings.Builder
	b.WriteString(f.FieldName)
	if f.Error != "" {
		b.WriteString(": ")
		b.WriteString(f.Error)
	}
	if len(f.Params) > 0 {
		b.WriteString(" (" + strings.Join(f.Params, ", ") + ")")
	}
	if f.Message != "" {
		b.WriteString(": " + f.Message)
	}
	return b.String()
}

// A Class groups refusals by what the operator can do about them.
type Class string

// The classes of refusal.
const (
	ClassBadRequest  Class = "bad-request"  // 400: fix the request
	ClassCredentials Class = "credentials"  // 401: api-key or token invalid
	ClassForbidden   Class = "forbidden"    // 403: not allowed for this identity
	ClassNotFound    Class = "not-found"    // 404
	ClassConflict    Class = "conflict"     // 409: the bulk's state forbids it, or a reused ref
	ClassRateLimited Class = "rate-limited" // 429: wait and retry
	ClassServer      Class = "server"       // 5xx: retry later
	ClassOther       Class = "other"
)

// Class returns the class of the refusal.
func (e *Error) Class() Class {
	switch {
	case e.Status == http.StatusBadRequest:
		return ClassBadRequest
	case e.Status == http.StatusUnauthorized:
		return ClassCredentials
	case e.Status == http.StatusForbidden:
		return ClassForbidden
	case e.Status == http.StatusNotFound:
		return ClassNotFound
	case e.Status == http.StatusConflict:
		return ClassConflict
	case e.Status == http.StatusTooManyRequests:
		return ClassRateLimited
	case e.Status >= 500:
		return ClassServer
	}
	return ClassOther
}

// Summary is a one-line explanation for an operator, without the call.
func (e *Error) Summary() string {
	what := apifailure.Words(string(e.Class()))
	if what == "" {
		what = "the API answered " + strconv.Itoa(e.Status)
	}
	if e.Code != "" {
		what += " (" + e.Code + ")"
	}
	if e.Message != "" {
		what += ": " + e.Message
	}
	if n := len(e.InvalidFields); n > 0 {
		what += fmt.Sprintf("; %d invalid field", n)
		if n > 1 {
			what += "s"
		}
	}
	if e.Class() == ClassRateLimited && e.RateLimitReset > 0 {
		what += fmt.Sprintf("; the limit resets in %s", e.RateLimitReset)
	}
	return what
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, e.Summary())
	if e.RequestRef != "" {
		s += " [request-ref " + e.RequestRef + "]"
	}
	return s
}

// Elements groups the syntax errors by the element they name; errors that
// name no element are under -1.
func (e *Error) Elements() map[int][]InvalidField {
	out := make(map[int][]InvalidField)
	for _, f := range e.InvalidFields {
		i, ok := f.Element()
		if !ok {
			i = -1
		}
		out[i] = append(out[i], f)
	}
	return out
}

// A TransportError is a call that got no usable answer: the connection
// failed or dropped, or the answer could not be read. Whether the API acted
// on the request is unknown.
type TransportError struct {
	Method, Path string
	Err          error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("%s %s: no usable answer from the API: %v", e.Method, e.Path, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// Retryable reports whether a failed call may be sent again unchanged:
// transport failures, 5xx, 429, and the 409 TOO_MANY_REQUESTS code. A
// submission retried must carry the same idempotency-ref.
func Retryable(err error) bool {
	var te *TransportError
	if errors.As(err, &te) {
		return true
	}
	var ae *Error
	if errors.As(err, &ae) {
		switch {
		case ae.Status >= 500, ae.Status == http.StatusTooManyRequests:
			return true
		case ae.Status == http.StatusConflict && ae.Code == "TOO_MANY_REQUESTS":
			return true
		}
	}
	return false
}

// RetryAfter returns how long the API asked to wait before the next call,
// or 0 when it did not say.
func RetryAfter(err error) time.Duration {
	var ae *Error
	if errors.As(err, &ae) {
		return ae.RateLimitReset
	}
	return 0
}

// AsError returns the API refusal inside err, if there is one.
func AsError(err error) (*Error, bool) {
	var ae *Error
	ok := errors.As(err, &ae)
	return ae, ok
}
