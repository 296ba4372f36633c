package sandbox_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// The console's receiver accepts what the sandbox sends: a bulk run to
// its end appears in the receiver's list of events.
func TestTheReceiverAcceptsTheSandboxsEvent(t *testing.T) {
	key := webhook.NewKey(key)
	rcv, err := receiver.New(receiver.Config{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	srv := httptest.NewServer(rcv.Handler())
	defer srv.Close()
	h := mustServe(t, sandbox.Config{OpsPerSecond: 1e6, SendEvent: sandbox.WebhookSender(srv.URL+"/webhooks", key, nil)})
	id := h.submit(t, 3)
	if err := h.client.Execute(ctx(t), id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, id, bulkapi.Completed)
	eventually.NoError(t, 10*time.Second, "the receiver to list the events of bulk "+id, func() error {
		resp, err := http.Get(srv.URL + "/events")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), id) && strings.Contains(string(body), "bulk_process_end") {
			return nil
		}
		return fmt.Errorf("it lists %s", body)
	})
}
