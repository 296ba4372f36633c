package bulkapi

import (
	"context"
	"fmt"

	"github.com/bulkdesk/bulkdesk/schema"
)

// A Receipt is the API's answer to a bulk submission.
type Receipt struct {
	BulkID         string `json:"bulkId"`
	OperationCount int    `json:"operationCount"`
	Path           string `json:"path"`
}

// Submit sends a bulk request body (a JSON array of elements) of kind k to
// the submission endpoint of the client's API. ref is the idempotency-ref:
// the same ref with the same body gets the original bulk back instead of a
// second one, so a retry must reuse it.
func (c *Client) Submit(ctx context.Context, k *schema.Kind, body []byte, ref string) (*Receipt, error) {
	ep, err := k.Endpoint(c.backOffice)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return nil, fmt.Errorf("%s: the request body is empty", ep)
	}
	var s Receipt
	if err := c.do(ctx, call{method: ep.Method, path: ep.Path, body: body, ref: ref, auth: true, fileName: c.fileName}, &s); err != nil {
		return nil, err
	}
	if s.BulkID == "" {
		return nil, &TransportError{Method: ep.Method, Path: ep.Path, Err: fmt.Errorf("the answer holds no bulkId")}
	}
	return &s, nil
}
