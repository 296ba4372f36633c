package bulkreview_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

// The record form drops what an operation cannot carry, so that a sent
// body and the elements rebuilt from its operations hash alike.
func TestRecordFormOfAKindWithAPathParameter(t *testing.T) {
	k := fixture.Kind("card_blocks")
	sent := []byte(`[{"pathParams":{"_id_":"123"},"requestBody":{}},{"pathParams":{"_id_":"456"}}]`)
	ops := []bulkapi.Operation{
		{Sequence: 0, Method: "POST", Path: "/managed_cards/123/block", RequestPayload: "{}"},
		{Sequence: 1, Method: "POST", Path: "/managed_cards/456/block"},
	}
	var rebuilt []any
	for i := range ops {
		el, err := bulkreview.ElementOf(k, &ops[i])
		if err != nil {
			t.Fatal(err)
		}
		rebuilt = append(rebuilt, el)
	}
	body, err := bulkreview.RecordBody(k, rebuilt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := bulkreview.ChunkRecordSHA256(k, sent)
	if err != nil || bulkreview.SHA256(body) != want {
		t.Errorf("rebuilt %s hashes to %s, the sent body's record form to %s (%v)", body, bulkreview.SHA256(body), want, err)
	}
	// Each rebuilt element has the fingerprint of its operation.
	for i := range ops {
		fp, err := submission.ElementFingerprint(k, rebuilt[i])
		op, ok := submission.OperationFingerprint(k, &ops[i])
		if err != nil || !ok || fp != op {
			t.Errorf("operation %d: fingerprints differ", i)
		}
	}
	if _, err := bulkreview.ElementOf(k, &bulkapi.Operation{Path: "/managed_cards/block"}); err == nil {
		t.Error("a path without the parameter was read")
	}
	if k, err := bulkreview.KindOfOperation("POST /managed_cards/{id}/block", false); err != nil || k.ID != "card_blocks" {
		t.Errorf("kind of the operation: %v %v", k, err)
	}
	if _, err := bulkreview.KindOfOperation("GET /nothing", false); err == nil {
		t.Error("an operation no kind runs")
	}
}
