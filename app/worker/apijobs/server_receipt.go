package apijobs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
)

// maxServerRecord bounds the server's answer: the receipt of 10,000
// elements drawn on as many sources is some 3 MB.
const maxServerRecord = 64 << 20

// fourEyesRecord is the server's record of a submission with the
// receipt it computed of it, from GET four-eyes/bulks/{id}.
type fourEyesRecord struct {
	wire.FourEyesRecord
	Receipt json.RawMessage `json:"receipt"`
}

// serverReceipt runs wire.JobServerReceipt.
func (s *Server) serverReceipt(c *runner.Call) (any, error) {
	var req wire.ServerReceipt
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	out := wire.ServerReceiptCompared{BulkID: req.BulkID}
	ctx := c.Context()
	rec, err := s.fourEyesRecord(ctx, req.URL)
	switch {
	case canceled(ctx, err):
		return nil, err
	case err != nil:
		out.Kept, out.Problem = wire.ReceiptUnread, s.said(err)
		return out, nil
	case !rec.Rule:
		out.Kept = wire.ReceiptRuleOff
		return out, nil
	case rec.Known == nil || !*rec.Known:
		out.Kept = wire.ReceiptUnknown
		return out, nil
	}
	out.SubmittedBy, out.SubmittedAt, out.File = rec.SubmittedBy, rec.SubmittedAt, rec.FileName
	if len(rec.Receipt) == 0 || string(rec.Receipt) == "null" {
		out.Kept = wire.ReceiptNone
		return out, nil
	}
	receipt, err := bulkreview.ReadReceipt(rec.Receipt)
	if err != nil {
		out.Kept, out.Problem = wire.ReceiptUnread, s.said(err)
		return out, nil
	}
	if receipt.File != "" {
		out.File = receipt.File
	}
	_, rv, fail, err := s.reviewedBulk(ctx, req.Connection, req.BulkID)
	if fail != nil || err != nil {
		out.Failure = fail
		return out, err
	}
	out.Kept, out.Differences = wire.ReceiptCompared, differencesOf(bulkreview.Compare(receipt, rv))
	return out, nil
}

// fourEyesRecord reads the console's server's record of a bulk. Its
// answer is 200, or 404 for a bulk it does not know.
func (s *Server) fourEyesRecord(ctx context.Context, url string) (fourEyesRecord, error) {
	var rec fourEyesRecord
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return rec, fmt.Errorf("asking the server for its receipt: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := (&http.Client{Transport: s.Transport}).Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return rec, ctx.Err()
		}
		return rec, fmt.Errorf("the server did not answer for its receipt: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotFound {
		return rec, fmt.Errorf("the server answered %d %s for its receipt", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxServerRecord+1))
	switch {
	case err != nil:
		return rec, fmt.Errorf("reading the server's receipt: %w", err)
	case len(data) > maxServerRecord:
		return rec, fmt.Errorf("the server's receipt is larger than %d MB", maxServerRecord>>20)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("reading the server's record of the bulk: %w", err)
	}
	return rec, nil
}
