package jobs_test

import (
	"strconv"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The bulk page's list of operations names each payment: whom, how much,
// with what reference, whether or not this browser's journal knows the
// bulk.
func TestOperationsCarryTheirKeyFields(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	body := fixture.Sample.Body(3)
	id := h.submitFile(body).Submission.Chunks[0].BulkID
	for name, hh := range map[string]*harness{"here": h, "elsewhere": newHarness(t, withAPI(api))} {
		var l wire.OperationList
		hh.result(hh.send(wire.JobOperations, wire.ListOperations{Connection: conn, BulkID: id}, nil), &l)
		if len(l.Operations) != 3 || !l.MovesMoney || !l.HasReference || l.ReceiverType != "" {
			t.Fatalf("%s: %+v", name, l)
		}
		for i, op := range l.Operations {
			tr := fixture.Sample.At(i)
			want := keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: tr.Destination},
				Amount: &keyfields.Amount{Currency: "EUR", Minor: strconv.Itoa(tr.Amount)}, Reference: tr.Description, Source: "managed_accounts " + tr.Source}
			if op.Keys.Counterparty != want.Counterparty || *op.Keys.Amount != *want.Amount || op.Keys.Reference != want.Reference || op.Keys.Source != want.Source {
				t.Errorf("%s: operation %d: %+v, want %+v", name, i, op.Keys, want)
			}
		}
	}
}
