package receiver_test

import (
	"context"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// The sandbox's end-of-bulk events reach the receiver and read as the
// events page will show them.
func TestReceiverAcceptsSandboxEvents(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	send := sandbox.WebhookSender(ts.URL+"/webhooks", testConfigKey(), nil)
	ev := sandbox.Event{BulkID: "118231498219765760", Status: bulkapi.Completed, SubmittedItemsCount: 2}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := send(ctx, ev); err != nil {
		t.Fatal(err)
	}
	evs := listEvents(t, ts.URL, "?type=bulk_process_end/watch")
	if len(evs) != 1 || evs[0].Summary.BulkID != ev.BulkID || evs[0].Summary.Status != "COMPLETED" || evs[0].Headers["request-ref"] == "" {
		t.Errorf("events %+v", evs)
	}
}
