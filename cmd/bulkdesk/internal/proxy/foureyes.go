package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// maxSubmissionAnswer bounds what is read of a submission's 201 answer to
// find its bulk id: the contract's answer is a few short fields.
const maxSubmissionAnswer = 64 << 10

// submissionKey marks, in a request's context, a call whose 201 answer
// names a bulk to record.
type submissionKey struct{}

type submission struct{ user, api string }

// bulkPath splits a path below an API's base ("/bulks/ID/execute") into
// its segments when it lies under /bulks/. Case is ignored, so that a
// lenient API's /BULKS/ID/EXECUTE cannot slip past the rule.
func bulkPath(rest string) ([]string, bool) {
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	return parts, len(parts) >= 2 && strings.EqualFold(parts[0], "bulks")
}

// checkFourEyes applies the rule to a call on its way to the API. It
// answers a refused execution itself and returns false; a submission's
// context is marked so that its answer is recorded.
func (p *proxy) checkFourEyes(w http.ResponseWriter, r *http.Request, rest string) (context.Context, bool) {
	parts, ok := bulkPath(rest)
	if r.Method != http.MethodPost || !ok {
		return r.Context(), true
	}
	user := auth.User(r.Context())
	if len(parts) == 3 && strings.EqualFold(parts[2], "execute") {
		d := p.fourEyes.MayExecute(parts[1], user)
		if d.Allowed {
			return context.WithValue(r.Context(), executionKey{}, execution{bulkID: parts[1], user: user}), true
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
	// Pause, resume and cancel answer 204, so only submissions, answered
	// 201 with a bulk id, are recorded.
	if user == "" {
		return r.Context(), true
	}
	return context.WithValue(r.Context(), submissionKey{}, submission{user: user, api: apiName(r.URL.Path)}), true
}

// executionKey marks, in a request's context, an allowed execution whose
// accepted answer records who approved the bulk.
type executionKey struct{}

type execution struct{ bulkID, user string }

// recordExecution records who executed a bulk the API agreed to run.
func (p *proxy) recordExecution(resp *http.Response) {
	ex, ok := resp.Request.Context().Value(executionKey{}).(execution)
	if !ok || resp.StatusCode < 200 || resp.StatusCode > 299 || ex.user == "" {
		return
	}
	if err := p.fourEyes.Executed(ex.bulkID, ex.user); err != nil {
		p.warn("four eyes: who executed the bulk was not recorded", resp, err)
	}
}

// recordSubmission records who submitted the bulk a 201 answer names.
// Only that small answer is buffered, and it is passed on unchanged. A
// bulk whose record fails is logged and stays unknown, which the rule
// refuses to execute unless told to allow unknown bulks.
func (p *proxy) recordSubmission(resp *http.Response) {
	sub, ok := resp.Request.Context().Value(submissionKey{}).(submission)
	if !ok || resp.StatusCode != http.StatusCreated {
		return
	}
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxSubmissionAnswer+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	var created struct {
		BulkID string `json:"bulkId"`
	}
	switch {
	case err != nil:
		p.warn("four eyes: reading the submission's answer", resp, err)
	case len(head) > maxSubmissionAnswer:
		p.warn("four eyes: the submission's answer is too long to read its bulk id", resp, nil)
	case json.Unmarshal(head, &created) != nil || created.BulkID == "":
		p.warn("four eyes: the submission's answer names no bulkId", resp, nil)
	default:
		if err := p.fourEyes.Submitted(created.BulkID, sub.user, sub.api); err != nil {
			p.warn("four eyes: the submitter was not recorded; the bulk counts as unknown", resp, err)
		}
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
