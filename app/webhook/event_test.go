package webhook_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestEventRecordReverifies(t *testing.T) {
	at := time.UnixMilli(1761909600000).UTC()
	body := []byte("{\"bulkId\":\"9\",\"status\":\"FAILED\",\"note\":\"<café> & \u2028\"}\n ")
	h := webhook.Sign(webhook.NewKey("k"), "ref", body, at)
	h.Set("request-ref", "req")
	h.Set("content-type", "application/json")
	v := verifierAt("k", at)
	r := v.Verify(h, body)
	ev := webhook.NewEvent("bulk_process_end/watch", h, body, r, at.Add(time.Second))
	if ev.Type != "/bulk_process_end/watch" || ev.Summary.BulkID != "9" || ev.DeprecatedSignature != webhook.StatusValid || ev.BodySHA256 != r.Signed.BodySHA256 {
		t.Errorf("event %+v", ev)
	}
	if _, ok := ev.Headers["content-type"]; ok || len(ev.Headers) != 5 {
		t.Errorf("kept headers %v", ev.Headers)
	}
	// Through JSON and back, the record still verifies byte for byte.
	data, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var back webhook.Event
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Body != string(body) || string(back.Payload()) != string(body) {
		t.Errorf("body changed: %q", back.Body)
	}
	if r := v.Verify(back.Header(), []byte(back.Body)); !r.OK() {
		t.Errorf("stored event no longer verifies: %s", r.Reason())
	}
	if back.Header().Get(http.CanonicalHeaderKey("request-ref")) != "req" {
		t.Errorf("headers %v", back.Header())
	}
}
