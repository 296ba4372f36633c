package jobs_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The receipt of a submission names its bulk with the hash and totals a
// second operator's review of that bulk finds: they match.
func TestTheReceiptMatchesTheReviewOfItsBulk(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	sub := h.submitFile(fixture.Transfers(30))
	var f wire.File
	_, m := h.wait(h.send(wire.JobReceipt, wire.ReceiptRequest{Submission: sub.Submission.ID, Reading: []string{"as written"}}, nil))
	if m.Type != wire.TypeResult {
		t.Fatalf("receipt: %s %s", m.Type, m.Body)
	}
	if err := json.Unmarshal(m.Body, &f); err != nil || f.Name != "pay.receipt.json" || f.Rows != 30 {
		t.Fatalf("the receipt's file: %+v (%v)", f, err)
	}
	r, err := bulkreview.ReadReceipt(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	id := sub.Submission.Chunks[0].BulkID
	if len(r.Chunks) != 1 || r.Chunks[0].BulkID != id || r.Elements != 30 || r.File != "pay.json" || len(r.Reading) != 1 {
		t.Fatalf("receipt %+v", r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rv, err := bulkreview.Fetch(ctx, fakeapi.Client(api), id, bulkreview.Options{Validator: fixture.Validator()})
	if err != nil {
		t.Fatal(err)
	}
	if d := bulkreview.Compare(r, rv); len(d) != 0 {
		t.Errorf("the review of bulk %s differs from its receipt: %+v", id, d)
	}
}
