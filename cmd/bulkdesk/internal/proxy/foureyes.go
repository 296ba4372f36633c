package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// maxSubmissionAnswer bounds what is read of a submission's 201 answer to
// find its bulk id: the contract's answer is a few short fields.
const maxSubmissionAnswer = 64 << 10

// recordTime is how long a submission in flight outlives its call's
// limit: the time its answer's record takes to write (the database gives
// a statement 10 s). Past both, a server that stopped mid-call no longer
// holds back its operator's executions of unknown bulks.
const recordTime = 30 * time.Second

// submissionKey marks, in a request's context, a call whose 201 answer
// names a bulk to record; its value is the *submission.
type submissionKey struct{}

// cancellationKey marks, in a request's context, a cancellation whose
// accepted answer takes the bulk out of the approval queue; its value is
// an execution (the bulk and who cancels it).
type cancellationKey struct{}

// bulkAction returns the bulk and the action a path below an API's base
// names: "/bulks/ID/execute", also below another API's base (the
// back-office API under the standard one's, "/backoffice/bulks/ID/execute"),
// with a trailing or doubled slash. Case is ignored, so that a lenient
// API's /BULKS/ID/EXECUTE cannot slip past the rule.
func bulkAction(rest string) (id string, action bulkapi.Action, ok bool) {
	parts := strings.FieldsFunc(rest, func(r rune) bool { return r == '/' })
	n := len(parts)
	if n < 3 || !strings.EqualFold(parts[n-3], "bulks") {
		return "", "", false
	}
	for _, a := range bulkapi.Actions() {
		if strings.EqualFold(parts[n-1], string(a)) {
			return parts[n-2], a, true
		}
	}
	return "", "", false
}

// readOnly says whether a method leaves the API as it was: only those
// neither submit nor execute.
func readOnly(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// checkFourEyes applies the rule to a call on its way to the API, and
// returns the call to send. It answers a refused call itself and returns
// false. Any other call that changes something and is not an action on a
// bulk may make one (POST submits most kinds, PATCH card spend rules):
// it is recorded as in flight before it goes, its context is marked so
// that its answer is recorded, and the body of a submission of a kind
// the server knows is kept as it goes, for its receipt (receipt.go). A
// cancellation's context is marked so that its acceptance is recorded,
// and a read of one bulk's so that the state it answers is.
func (p *proxy) checkFourEyes(w http.ResponseWriter, r *http.Request, rest string) (*http.Request, bool) {
	if id := bulkRead(r.Method, rest); id != "" {
		return r.WithContext(context.WithValue(r.Context(), bulkReadKey{}, id)), true
	}
	if readOnly(r.Method) {
		return r, true
	}
	user := auth.User(r.Context())
	id, action, isAction := bulkAction(rest)
	lifetime := p.callTimeout + recordTime
	if isAction && action == bulkapi.Execute {
		d, f := p.fourEyes.Executing(id, user, lifetime)
		if d.Allowed {
			return r.WithContext(context.WithValue(r.Context(), executionKey{}, execution{bulkID: id, user: user, flight: f})), true
		}
		if p.refused != nil {
			p.refused(d.Reason)
		}
		status := http.StatusForbidden
		if d.Reason == approvals.RefusedError {
			status = http.StatusServiceUnavailable
		}
		answer(w, status, d.Message)
		return nil, false
	}
	// Pause, resume and cancel answer 204: they make no bulk.
	if isAction && action == bulkapi.Cancel && user != "" {
		return r.WithContext(context.WithValue(r.Context(), cancellationKey{}, execution{bulkID: id, user: user})), true
	}
	if isAction || user == "" {
		return r, true
	}
	fileName, problem := fileNameOf(r.Header)
	if problem != "" {
		answer(w, http.StatusBadRequest, problem)
		return nil, false
	}
	f, err := p.fourEyes.Submitting(user, apiName(r.URL.Path), lifetime)
	switch {
	case errors.Is(err, approvals.ErrExecutionInFlight):
		w.Header().Set("Retry-After", "1")
		answer(w, http.StatusServiceUnavailable, err.Error())
		return nil, false
	case err != nil:
		if p.log != nil {
			p.log.Warn("four eyes: a submission was not sent, since it could not be recorded as on its way", "path", r.URL.Path, "error", err)
		}
		answer(w, http.StatusServiceUnavailable, "four eyes: this submission could not be recorded before it was sent, so it was not sent; try again")
		return nil, false
	}
	sub := &submission{flight: f, fileName: fileName}
	sub.kind, sub.backOffice = submissionKind(r.Method, r.URL.Path, rest)
	r = r.WithContext(context.WithValue(r.Context(), submissionKey{}, sub))
	if sub.kind != nil && r.Body != nil && r.Body != http.NoBody {
		sub.body = newBodyCopy(r.Body, r.ContentLength)
		r.Body = sub.body
	}
	return r, true
}

// executionKey marks, in a request's context, an allowed execution whose
// accepted answer records who approved the bulk.
type executionKey struct{}

type execution struct {
	bulkID, user string
	// flight follows the execution of a bulk the record did not know
	// until the API answers it.
	flight approvals.Flight
}

// recordExecution records who executed a bulk the API agreed to run, and
// that the API answered the execution: whatever it did, it received it.
func (p *proxy) recordExecution(resp *http.Response) {
	ex, ok := resp.Request.Context().Value(executionKey{}).(execution)
	if !ok {
		return
	}
	if err := p.fourEyes.End(ex.flight); err != nil {
		p.warn("four eyes: the execution's end was not recorded; it lapses", resp, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || ex.user == "" {
		return
	}
	if err := p.fourEyes.Executed(ex.bulkID, ex.user); err != nil {
		p.warn("four eyes: who executed the bulk was not recorded", resp, err)
	}
}

// recordSubmission records what the API answered a call that may make a
// bulk, before the answer goes on: the bulk a 2xx answer names, with its
// maker; no bulk for a 2xx that names none, or a 4xx. Only a small 2xx
// answer is buffered, and it is passed on unchanged. An answer that
// cannot be read, a 201 that names no bulk, a 5xx (the API may have made
// the bulk before failing) or no answer at all leaves the call in flight
// until it lapses.
func (p *proxy) recordSubmission(resp *http.Response) {
	s, ok := resp.Request.Context().Value(submissionKey{}).(*submission)
	switch {
	case !ok, resp.StatusCode >= 500, resp.StatusCode < 200, resp.StatusCode >= 300 && resp.StatusCode < 400:
		return
	case resp.StatusCode >= 400:
		p.answered(resp, s, "")
		return
	}
	id, problem := p.bulkIDOf(resp)
	switch {
	case problem != "":
		p.warn("four eyes: "+problem+"; the submission stays in flight until it lapses", resp, nil)
	case id == "" && resp.StatusCode == http.StatusCreated:
		p.warn("four eyes: the submission's answer names no bulkId; it stays in flight until it lapses", resp, nil)
	default:
		p.answered(resp, s, id)
	}
}

// bulkIDOf reads the bulk id a 2xx answer names, "" for none, and puts
// what it read back in front of the body; problem says why it could not.
func (p *proxy) bulkIDOf(resp *http.Response) (id, problem string) {
	var named struct {
		BulkID string `json:"bulkId"`
	}
	empty, problem := readAnswer(resp, &named)
	if empty || problem != "" {
		return "", problem
	}
	return named.BulkID, ""
}

// readAnswer decodes a short JSON answer into v, and puts what it read
// back in front of the body, which goes on unchanged; empty says the
// answer is empty, problem why it could not be read.
func readAnswer(resp *http.Response, v any) (empty bool, problem string) {
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxSubmissionAnswer+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	switch {
	case err != nil:
		return false, "reading the answer: " + err.Error()
	case len(head) > maxSubmissionAnswer:
		return false, "the answer is too long to read"
	case len(bytes.TrimSpace(head)) == 0:
		return true, ""
	case json.Unmarshal(head, v) != nil:
		return false, "the answer is not a JSON object"
	}
	return false, ""
}

// bulkRead returns the bulk a GET of one bulk names ("/bulks/ID", also
// below another API's base, case ignored), or "".
func bulkRead(method, rest string) string {
	parts := strings.FieldsFunc(rest, func(r rune) bool { return r == '/' })
	n := len(parts)
	if method != http.MethodGet || n < 2 || !strings.EqualFold(parts[n-2], "bulks") {
		return ""
	}
	return parts[n-1]
}

// bulkReadKey marks, in a request's context, a GET of one bulk, whose
// answer says the bulk's state; its value is the bulk id.
type bulkReadKey struct{}

// recordState takes a bulk the API says is no longer SUBMITTED out of the
// approval queue: it was executed or cancelled, maybe around the server.
func (p *proxy) recordState(resp *http.Response) {
	id, ok := resp.Request.Context().Value(bulkReadKey{}).(string)
	if !ok || resp.StatusCode != http.StatusOK {
		return
	}
	var b struct {
		BulkID string         `json:"bulkId"`
		Status bulkapi.Status `json:"status"`
	}
	if _, problem := readAnswer(resp, &b); problem != "" || b.BulkID != id || !b.Status.Valid() || b.Status == bulkapi.Submitted {
		return
	}
	if err := p.fourEyes.Settled(id, b.Status); err != nil {
		p.warn("four eyes: the API's state of the bulk was not recorded", resp, err)
	}
}

// answered records the bulk a call made, with the receipt of what it
// sent, or that it made none.
func (p *proxy) answered(resp *http.Response, s *submission, bulkID string) {
	made := approvals.Made{BulkID: bulkID, FileName: s.fileName}
	if s.kind != nil && bulkID != "" {
		made.Kind = s.kind.ID
		made.Receipt = p.receiptOf(resp, s, bulkID)
	}
	s.body.release()
	if err := p.fourEyes.Answered(s.flight, made); err != nil {
		p.warn("four eyes: the submission's answer was not recorded yet", resp, err)
	}
}

// recordCancellation records who cancelled a bulk the API agreed to
// cancel: it no longer awaits a second operator.
func (p *proxy) recordCancellation(resp *http.Response) {
	c, ok := resp.Request.Context().Value(cancellationKey{}).(execution)
	if !ok || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return
	}
	if err := p.fourEyes.Cancelled(c.bulkID, c.user); err != nil {
		p.warn("four eyes: who cancelled the bulk was not recorded", resp, err)
	}
}

func (p *proxy) warn(msg string, resp *http.Response, err error) {
	if p.log == nil {
		return
	}
	args := []any{"path", resp.Request.URL.Path}
	if err != nil {
		args = append(args, "error", err)
	}
	p.log.Warn(msg, args...)
}
