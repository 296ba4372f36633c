package wire

import (
	"encoding/json"
	"fmt"
)

// The envelope's fields: a Message crosses postMessage as a plain object
// with these keys, on the page's side and the workers' alike.
const (
	FieldID   = "id"
	FieldType = "type"
	FieldJob  = "job"
	FieldBody = "body"
	// FieldData holds an ArrayBuffer, which each side moves in its own
	// way (transferred, not copied), so EncodeEnvelope leaves it out.
	FieldData = "data"
	// FieldSecond, in a TypeInit message, is the URL of the second
	// worker's program.
	FieldSecond = "second"
)

// EncodeEnvelope calls set for each field of m but Data, as postMessage
// sends it: the id and type always, the job and body when set.
func EncodeEnvelope(m Message, set func(field string, value any)) {
	set(FieldID, m.ID)
	set(FieldType, string(m.Type))
	if m.Job != "" {
		set(FieldJob, m.Job)
	}
	if m.Body != nil {
		set(FieldBody, string(m.Body))
	}
}

// An EnvelopeReader reads the fields of a message received: each side
// wraps its own JavaScript value in one.
type EnvelopeReader interface {
	// String returns the field's value when it is a string.
	String(field string) (string, bool)
	// Int returns the field's value when it is a number.
	Int(field string) (int, bool)
}

// DecodeEnvelope reads a message but its Data: fields of the wrong type
// read as missing, so that a stray message is ignored rather than fatal.
func DecodeEnvelope(r EnvelopeReader) Message {
	var m Message
	m.ID, _ = r.Int(FieldID)
	t, _ := r.String(FieldType)
	m.Type = Type(t)
	m.Job, _ = r.String(FieldJob)
	if b, ok := r.String(FieldBody); ok {
		m.Body = []byte(b)
	}
	return m
}

// EncodeBody is the JSON body of a request, result, Progress or Error.
func EncodeBody(v any) ([]byte, error) { return json.Marshal(v) }

// DecodeBody reads the JSON body of a request or result into a T.
func DecodeBody[T any](body []byte) (T, error) {
	var v T
	err := json.Unmarshal(body, &v)
	return v, err
}

// ErrorBody is the body of an error or fatal message.
func ErrorBody(code, message string) []byte {
	b, _ := json.Marshal(Error{Code: code, Message: message}) // two strings: cannot fail
	return b
}

// DecodeError reads the body of an error or fatal message; a body that is
// not an Error is reported as CodeInternal, so the page always has one.
func DecodeError(body []byte) *Error {
	e, err := DecodeBody[Error](body)
	if err != nil || e.Code == "" {
		return &Error{Code: CodeInternal, Message: fmt.Sprintf("the worker sent an unreadable error: %s", body)}
	}
	return &e
}
