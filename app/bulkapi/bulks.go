package bulkapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// MaxPageSize is the most records one page of a list holds: the API caps
// limit at 100.
const MaxPageSize = 100

// A BulkProcess is a submitted bulk as the API reports it.
type BulkProcess struct {
	BulkID string `json:"bulkId"`
	Status Status `json:"status"`
	// SubmittedItemsCount is how many operations the bulk holds.
	SubmittedItemsCount int `json:"submittedItemsCount"`
	// ExecutionStart and ExecutionFinish are Unix times in milliseconds,
	// 0 until execution starts or ends.
	ExecutionStart  int64 `json:"executionStart,omitempty"`
	ExecutionFinish int64 `json:"executionFinish,omitempty"`
	// Operation is the single operation every element runs as, such as
	// "POST /transfers".
	Operation string `json:"operation,omitempty"`
	Mode      Mode   `json:"mode,omitempty"`
	// OperationStatusCounts counts operations by state (details only).
	OperationStatusCounts []StatusCount `json:"operationStatusCounts,omitempty"`
}

// A StatusCount is how many operations of a bulk are in one state.
type StatusCount struct {
	Status OperationStatus `json:"status"`
	Count  int             `json:"count"`
}

// Count returns how many operations are in state s.
func (b *BulkProcess) Count(s OperationStatus) int {
	n := 0
	for _, c := range b.OperationStatusCounts {
		if c.Status == s {
			n += c.Count
		}
	}
	return n
}

// Done returns how many operations have finished, well or not: the
// progress of a running bulk.
func (b *BulkProcess) Done() int {
	return b.Count(OpCompleted) + b.Count(OpFailed) + b.Count(OpCancelled)
}

// A BulkPage is one page of a list of bulk processes.
type BulkPage struct {
	// Count is the number of bulks matching the filter, on every page.
	Count         int           `json:"count"`
	ResponseCount int           `json:"responseCount"`
	Bulks         []BulkProcess `json:"bulkProcesses"`
}

// An Operation is one element of a bulk, as executed (or to be).
type Operation struct {
	OperationID string `json:"operationId"`
	// Sequence is the operation's position in the bulk: the index of the
	// element it came from in the submitted request.
	Sequence        int             `json:"sequence"`
	Method          string          `json:"method,omitempty"`
	Path            string          `json:"path,omitempty"`
	Status          OperationStatus `json:"status"`
	RequestPayload  string          `json:"requestPayload,omitempty"`
	ResponsePayload string          `json:"responsePayload,omitempty"`
}

// Failure explains a failed operation from its response payload: the
// payload's errorCode and message when it is JSON, else the payload itself.
func (o *Operation) Failure() string {
	p := strings.TrimSpace(o.ResponsePayload)
	if p == "" {
		return ""
	}
	var b errorBody
	if json.Unmarshal([]byte(p), &b) == nil {
		code := b.ErrorCode
		if code == "" {
			code = b.Code
		}
		switch {
		case code != "" && b.Message != "":
			return code + ": " + b.Message
		case code != "":
			return code
		case b.Message != "":
			return b.Message
		}
	}
	if len(p) > 300 {
		p = p[:300] + "…"
	}
	return p
}

// An OperationPage is one page of a bulk's operations.
type OperationPage struct {
	Count         int         `json:"count"`
	ResponseCount int         `json:"responseCount"`
	Operations    []Operation `json:"operations"`
}

// ListQuery filters and pages the list of bulk processes.
type ListQuery struct {
	Status Status // "" for every state
	Offset int
	Limit  int // 0 for the API's default; at most MaxPageSize
}

// OperationQuery filters and pages a bulk's operations.
type OperationQuery struct {
	Status OperationStatus // "" for every state
	// Sequence, when not nil, asks for the operation at that position only.
	Sequence *int
	Offset   int
	Limit    int // 0 for the API's default; at most MaxPageSize
}

func pageQuery(offset, limit int) url.Values {
	q := url.Values{}
	if offset > 0 {
		q.Set("offset", strconv.Itoa(offset))
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(min(limit, MaxPageSize)))
	}
	return q
}

func bulkPath(id string, rest string) (string, error) {
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return "", fmt.Errorf("bulk id %q: a bulk id is digits only", id)
	}
	return "/bulks/" + id + rest, nil
}

// Get returns the details of a bulk process, with its operation counts.
func (c *Client) Get(ctx context.Context, bulkID string) (*BulkProcess, error) {
	path, err := bulkPath(bulkID, "")
	if err != nil {
		return nil, err
	}
	var b BulkProcess
	if err := c.do(ctx, call{method: "GET", path: path, auth: true}, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// List returns one page of the identity's bulk processes.
func (c *Client) List(ctx context.Context, q ListQuery) (*BulkPage, error) {
	v := pageQuery(q.Offset, q.Limit)
	if q.Status != "" {
		v.Set("status", string(q.Status))
	}
	var p BulkPage
	if err := c.do(ctx, call{method: "GET", path: "/bulks", query: v, auth: true}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// ListAll pages through every bulk process in the given state ("" for all).
func (c *Client) ListAll(ctx context.Context, status Status) ([]BulkProcess, error) {
	var out []BulkProcess
	err := eachPage(func(offset int) (int, int, error) {
		p, err := c.List(ctx, ListQuery{Status: status, Offset: offset, Limit: MaxPageSize})
		if err != nil {
			return 0, 0, err
		}
		out = append(out, p.Bulks...)
		return len(p.Bulks), p.Count, nil
	})
	return out, err
}

// Operations returns one page of a bulk's operations.
func (c *Client) Operations(ctx context.Context, bulkID string, q OperationQuery) (*OperationPage, error) {
	path, err := bulkPath(bulkID, "/operations")
	if err != nil {
		return nil, err
	}
	v := pageQuery(q.Offset, q.Limit)
	if q.Status != "" {
		v.Set("status", string(q.Status))
	}
	if q.Sequence != nil {
		v.Set("sequence", strconv.Itoa(*q.Sequence))
	}
	var p OperationPage
	if err := c.do(ctx, call{method: "GET", path: path, query: v, auth: true}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// AllOperations pages through every operation of a bulk in the given state
// ("" for all), in the API's order.
func (c *Client) AllOperations(ctx context.Context, bulkID string, status OperationStatus) ([]Operation, error) {
	var out []Operation
	err := eachPage(func(offset int) (int, int, error) {
		p, err := c.Operations(ctx, bulkID, OperationQuery{Status: status, Offset: offset, Limit: MaxPageSize})
		if err != nil {
			return 0, 0, err
		}
		out = append(out, p.Operations...)
		return len(p.Operations), p.Count, nil
	})
	return out, err
}

// maxPages bounds paging: a bulk holds at most 10,000 operations, and a
// list that never ends is the API's defect, not a reason to loop forever.
const maxPages = 10_000

// eachPage calls page with growing offsets until it has seen count records
// or a page comes back empty.
func eachPage(page func(offset int) (got, count int, err error)) error {
	offset := 0
	for range maxPages {
		got, count, err := page(offset)
		if err != nil {
			return err
		}
		offset += got
		if got == 0 || offset >= count {
			return nil
		}
	}
	return fmt.Errorf("paging stopped after %d pages: the API kept answering", maxPages)
}

// ExecuteOptions says how to execute a bulk.
type ExecuteOptions struct {
	// Mode is what to do when an operation fails; "" leaves it to the API.
	Mode Mode `json:"mode,omitempty"`
	// WebhookInterval asks for a progress event every that many operations
	// (the API sends at least one per quarter); 0 leaves it to the API.
	WebhookInterval int `json:"webhookInterval,omitempty"`
}

// Execute starts a SUBMITTED bulk process. It returns at once; the bulk
// runs in the background (see Get).
func (c *Client) Execute(ctx context.Context, bulkID string, opts ExecuteOptions) error {
	if opts.Mode != "" && !opts.Mode.Valid() {
		return fmt.Errorf("execution mode %q: want %s or %s", opts.Mode, OnFailureStop, OnFailureContinue)
	}
	body, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	return c.act(ctx, bulkID, Execute, body)
}

// Pause pauses a RUNNING bulk process.
func (c *Client) Pause(ctx context.Context, bulkID string) error {
	return c.act(ctx, bulkID, Pause, nil)
}

// Resume resumes a PAUSED bulk process.
func (c *Client) Resume(ctx context.Context, bulkID string) error {
	return c.act(ctx, bulkID, Resume, nil)
}

// Cancel cancels a bulk process for good.
func (c *Client) Cancel(ctx context.Context, bulkID string) error {
	return c.act(ctx, bulkID, Cancel, nil)
}

// Do performs an action on a bulk process; Execute runs with the API's
// default options.
func (c *Client) Do(ctx context.Context, bulkID string, a Action) error {
	switch a {
	case Execute:
		return c.Execute(ctx, bulkID, ExecuteOptions{})
	case Pause, Resume, Cancel:
		return c.act(ctx, bulkID, a, nil)
	}
	return fmt.Errorf("unknown action %q", a)
}

func (c *Client) act(ctx context.Context, bulkID string, a Action, body []byte) error {
	path, err := bulkPath(bulkID, "/"+string(a))
	if err != nil {
		return err
	}
	return c.do(ctx, call{method: "POST", path: path, body: body, auth: true}, nil)
}
