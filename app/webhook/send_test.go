//go:build !js

// Under WebAssembly in Node there is no HTTP server to send to; the
// signing itself is tested there by the other files.

package webhook_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestSenderPostsAVerifiableEvent(t *testing.T) {
	type received struct {
		path string
		h    http.Header
		body []byte
	}
	got := make(chan received, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- received{r.URL.Path, r.Header.Clone(), b}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	at := time.UnixMilli(1761909600000)
	body := []byte(`{"bulkId":"1","status":"COMPLETED"} ` + "\n")
	s := &webhook.Sender{Key: webhook.NewKey("k"), Timeout: 5 * time.Second}
	err := s.Send(context.Background(), srv.URL+"/webhooks/", webhook.Delivery{
		Type: "bulk_process_end/watch", Body: body, CallRef: "ref-ü", RequestRef: "req-1", PublishedAt: at,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.path != "/webhooks/bulk_process_end/watch" || r.h.Get("Content-Type") != "application/json" || r.h.Get("request-ref") != "req-1" {
		t.Errorf("request %s %v", r.path, r.h)
	}
	res := (&webhook.Verifier{Key: webhook.NewKey("k"), Now: func() time.Time { return at }}).Verify(r.h, r.body)
	if !res.OK() || string(r.body) != string(body) || res.CallRef.Value != "ref-ü" {
		t.Errorf("received event does not verify: %s (%+v)", res.Reason(), res.Verdicts())
	}
}

func TestSenderReportsRefusalsAndTimeouts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "slow") {
			// Reading the body lets the server notice the client leaving.
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			return
		}
		http.Error(w, "signature-v2: does not match", http.StatusUnauthorized)
	}))
	defer srv.Close()
	s := &webhook.Sender{Key: webhook.NewKey("k"), Timeout: 200 * time.Millisecond}

	err := s.Send(context.Background(), srv.URL, webhook.Delivery{Type: "/transfers/watch", Body: []byte(`{}`)})
	var de *webhook.DeliveryError
	if !errors.As(err, &de) || de.Status != http.StatusUnauthorized || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("refusal: %v", err)
	}

	// The server answers only once the client leaves: the sender's own
	// timeout must end the call, before the test's backstop does.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = s.Send(ctx, srv.URL, webhook.Delivery{Type: "/slow/watch", Body: []byte(`{}`)})
	if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		t.Errorf("timeout: %v (the test's own deadline: %v)", err, ctx.Err())
	}

	if err := (&webhook.Sender{}).Send(context.Background(), srv.URL, webhook.Delivery{}); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("keyless sender: %v", err)
	}
}
