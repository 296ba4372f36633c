package sandbox

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// EventType is the webhook path of the event the sandbox sends.
const EventType = "/bulk_process_end/watch"

// Event is the bulk_process_end webhook's payload.
type Event struct {
	BulkID                string                `json:"bulkId"`
	Status                bulkapi.Status        `json:"status"`
	SubmittedItemsCount   int                   `json:"submittedItemsCount"`
	OperationStatusCounts []bulkapi.StatusCount `json:"operationStatusCounts"`
}

// An EventSender delivers an event to the webhook receiver.
type EventSender func(ctx context.Context, ev Event) error

// WebhookSender returns an EventSender that posts each event, signed with
// key as the webhook reference says, to baseURL + "/bulk_process_end/watch"
// (a receiver's base, such as http://127.0.0.1:8080/webhooks). Its
// request-ref is the same on every retry of one event, so that a receiver
// can tell a resend. client may be nil.
func WebhookSender(baseURL string, key webhook.Key, client *http.Client) EventSender {
	s := &webhook.Sender{Key: key, Client: client}
	return func(ctx context.Context, ev Event) error {
		body, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		return s.Send(ctx, baseURL, webhook.Delivery{Type: EventType, Body: body, RequestRef: "sbx-bulk-end-" + ev.BulkID})
	}
}
