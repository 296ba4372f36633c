package sandbox_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// hmacB64 is the signature computed independently of the sandbox's code.
func hmacB64(key, msg string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(msg))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func TestBulkProcessEndIsSignedAndSent(t *testing.T) {
	const webhookKey = "whk-secret"
	type delivery struct {
		path   string
		header http.Header
		body   []byte
	}
	var mu sync.Mutex
	var got []delivery
	calls := 0
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 { // the first attempt fails: the event is sent again
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		got = append(got, delivery{r.URL.Path, r.Header.Clone(), body})
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	h := mustServe(t, sandbox.Config{OpsPerSecond: 1e6, SendEvent: sandbox.WebhookSender(receiver.URL+"/webhooks", webhook.NewKey(webhookKey), nil)})
	id := h.submit(t, 4, 2)
	if err := h.client.Execute(ctx(t), id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, id, bulkapi.PartiallyCompleted)
	eventually.True(t, 10*time.Second, "a webhook to be delivered", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0
	})
	d := got[0]
	var ev sandbox.Event
	if err := json.Unmarshal(d.body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.BulkID != id || ev.Status != bulkapi.PartiallyCompleted || ev.SubmittedItemsCount != 4 || len(ev.OperationStatusCounts) != 2 {
		t.Errorf("event %+v", ev)
	}
	ts := d.header.Get("published-timestamp")
	if d.path != "/webhooks/bulk_process_end/watch" {
		t.Errorf("posted to %s", d.path)
	}
	if ts == "" || d.header.Get("request-ref") != "sbx-bulk-end-"+id || d.header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", d.header)
	}
	if d.header.Get("signature") != hmacB64(webhookKey, ts) {
		t.Error("signature is not the HMAC of the published timestamp")
	}
	if d.header.Get("signature-v2") != hmacB64(webhookKey, string(d.body)+ts) {
		t.Error("signature-v2 is not the HMAC of payload and timestamp")
	}
	if bytes.Contains([]byte(strings.Join(d.header.Values("signature"), "")), []byte(webhookKey)) {
		t.Error("the key itself was sent")
	}
}

func TestLogsHoldNoSecretsNorBodies(t *testing.T) {
	var buf bytes.Buffer
	h := mustServe(t, sandbox.Config{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	h.submit(t, 2)
	_, _ = mustClient(t, h, "wrong-key-xyz", token).List(ctx(t), bulkapi.ListQuery{})
	bo, _ := h.client.BackOffice()
	tok, err := bo.AccessToken(ctx(t), bulkapi.Identity{Type: bulkapi.Consumer, ID: "5"})
	if err != nil {
		t.Fatal(err)
	}
	log := buf.String()
	for _, secret := range []string{key, token, "wrong-key-xyz", tok.Token, "sample-1", "110321"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
	if !strings.Contains(log, "path=/multi/bulks/transfers") || !strings.Contains(log, "status=201") || !strings.Contains(log, "status=401") {
		t.Errorf("the log lacks the request lines:\n%s", log)
	}
}
