//go:build !js

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/fixture/eventually"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestTwoServersShareTheFourEyesRecord runs two servers behind one
// address, as a load balancer would, on one PostgreSQL database and one
// API: a bulk alice submits through the first cannot be executed by alice
// through the second, and bob's execution through the second is recorded
// for the first.
func TestTwoServersShareTheFourEyesRecord(t *testing.T) {
	dsn := pgtest.Start(t)
	sb, err := sandbox.New(sandbox.Config{APIKey: sandbox.DefaultAPIKey, Token: sandbox.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.Close)
	api := httptest.NewServer(sb)
	t.Cleanup(api.Close)
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", api.URL + "/multi", "-four-eyes", "-store", dsn}
	one, two := startSecured(t, args...), startSecured(t, args...)
	waitHealthz(t, one, http.StatusOK)
	waitHealthz(t, two, http.StatusOK)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kind, _ := schema.Lookup("card_blocks")
	receipt, err := operator(t, one, "alice").Submit(ctx, kind, []byte(`[{"pathParams":{"_id_":"1"}}]`), "two-servers-1")
	if err != nil {
		t.Fatal(err)
	}
	id := receipt.BulkID
	if code, m := fourEyesStatus(t, two, "alice", id); code != 200 || m["submittedBy"] != "alice" || m["mayExecute"] != false {
		t.Errorf("the second server on alice's bulk: %d %v", code, m)
	}
	err = operator(t, two, "alice").Execute(ctx, id, bulkapi.ExecuteOptions{})
	if err == nil || !strings.Contains(err.Error(), "was submitted by alice; another operator must execute it") {
		t.Fatalf("alice executing her bulk through the second server: %v", err)
	}
	if err := operator(t, two, "bob").Execute(ctx, id, bulkapi.ExecuteOptions{}); err != nil {
		t.Fatalf("bob executing through the second server: %v", err)
	}
	if code, m := fourEyesStatus(t, one, "carol", id); code != 200 || m["executedBy"] != "bob" {
		t.Errorf("the first server after bob's execution: %d %v", code, m)
	}
	for _, s := range []*securedServe{one, two} {
		if res, body := call(t, "GET", s.url+"healthz"); res.StatusCode != http.StatusOK || body != "ok\n" {
			t.Errorf("healthz: %d %q", res.StatusCode, body)
		}
	}
}

// TestAServerWaitsForItsDatabase: a server started before its database
// listens, says it is unhealthy, refuses webhooks with 503 (senders try
// again) and events with 503, names the database in its log without the
// password; once the database answers it brings the tables up to date
// and works.
func TestAServerWaitsForItsDatabase(t *testing.T) {
	db := pgtest.New(t, false)
	dsn := strings.Replace(db.DSN(), "postgres://postgres@", "postgres://postgres:s3cret@", 1)
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-webhook-addr", "127.0.0.1:0", "-webhook-key", browserKey, "-store", dsn)
	if res, body := call(t, "GET", s.url+"healthz"); res.StatusCode != http.StatusServiceUnavailable || body != "unhealthy\n" {
		t.Errorf("healthz before the database: %d %q", res.StatusCode, body)
	}
	if res, _ := call(t, "GET", s.url+"events", header("X-Forwarded-User", "ops")); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("GET events before the database: %d", res.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sender := &webhook.Sender{Key: webhook.NewKey(browserKey)}
	event := webhook.Delivery{Type: "/transfers/watch", Body: []byte(`{"eventType":"COMPLETED"}`), CallRef: "early"}
	var de *webhook.DeliveryError
	if err := sender.Send(ctx, s.webhooks, event); !errors.As(err, &de) || de.Status != http.StatusServiceUnavailable {
		t.Errorf("an event before the database: %v", err)
	}
	where := strings.TrimPrefix(strings.TrimSuffix(db.DSN(), "?sslmode=disable"), "postgres://postgres@")
	s.logs.waitFor(t, where)
	if strings.Contains(s.logs.String(), "s3cret") {
		t.Error("the log holds the database's password")
	}

	db.Start()
	waitHealthz(t, s, http.StatusOK)
	if err := sender.Send(ctx, s.webhooks, event); err != nil {
		t.Fatalf("the event sent again: %v", err)
	}
	waitForCallRefs(t, s, []string{"early"})
}

// storedCallRefs lists the call-refs of the events s's GET /events holds,
// and false while its receiver waits for the database (503).
func storedCallRefs(t *testing.T, s *securedServe) ([]string, bool) {
	t.Helper()
	res, body := call(t, "GET", s.url+"events?limit=1000", header("X-Forwarded-User", "ops"))
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusServiceUnavailable:
		return nil, false
	default:
		t.Fatalf("GET events: %d %s", res.StatusCode, body)
	}
	var evs []webhook.Event
	if err := json.Unmarshal([]byte(body), &evs); err != nil {
		t.Fatal(err)
	}
	refs := make([]string, len(evs))
	for i, ev := range evs {
		refs[i] = ev.Headers[webhook.HeaderCallRef]
	}
	return refs, true
}

// waitForCallRefs waits until s holds every call-ref in want.
func waitForCallRefs(t *testing.T, s *securedServe, want []string) {
	t.Helper()
	eventually.NoError(t, 15*time.Second, "the events to reach the server", func() error {
		have := map[string]bool{}
		refs, _ := storedCallRefs(t, s)
		for _, r := range refs {
			have[r] = true
		}
		missing := 0
		for _, w := range want {
			if !have[w] {
				missing++
			}
		}
		if missing > 0 {
			return fmt.Errorf("%d of %d are missing", missing, len(want))
		}
		return nil
	})
}

// TestTwoServersShareTheEvents: two servers on one database. An event
// posted to one is streamed by the other; the same event posted to both
// at once is stored once, both answering 2xx; and a server stopped while
// events arrive loses none it acknowledged.
func TestTwoServersShareTheEvents(t *testing.T) {
	dsn := pgtest.Start(t)
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-webhook-addr", "127.0.0.1:0", "-webhook-key", browserKey, "-store", dsn}
	one, two := startSecured(t, args...), startSecured(t, args...)
	waitHealthz(t, one, http.StatusOK)
	waitHealthz(t, two, http.StatusOK)
	sender := &webhook.Sender{Key: webhook.NewKey(browserKey)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The second server's stream, opened before the event is posted.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, two.url+"events/stream", nil)
	req.Header.Set("X-Forwarded-User", "ops")
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	lines := bufio.NewScanner(stream.Body)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	body := `{"eventType":"COMPLETED","transfer":{"id":{"id":"9001"},"state":"COMPLETED","destinationAmount":{"currency":"EUR","amount":1250}}}`
	if err := sender.Send(ctx, one.webhooks, webhook.Delivery{Type: "/transfers/watch", Body: []byte(body), CallRef: "first"}); err != nil {
		t.Fatal(err)
	}
	streamed := false
	for !streamed && lines.Scan() {
		streamed = strings.HasPrefix(lines.Text(), "data:") && strings.Contains(lines.Text(), `"first"`)
	}
	if !streamed {
		t.Fatalf("the second server's stream ended without the event: %v", lines.Err())
	}

	// One event, posted to both at once.
	same := webhook.Delivery{Type: "/transfers/watch", Body: []byte(body), CallRef: "twice", PublishedAt: time.Now()}
	errs := make(chan error, 2)
	for _, s := range []*securedServe{one, two} {
		go func() { errs <- sender.Send(ctx, s.webhooks, same) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("posting the same event to both: %v", err)
		}
	}
	for _, s := range []*securedServe{one, two} {
		// Each server publishes what the database announces, in a moment.
		waitForCallRefs(t, s, []string{"twice"})
		n := 0
		refs, _ := storedCallRefs(t, s)
		for _, r := range refs {
			if r == "twice" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("the event posted to both is listed %d times", n)
		}
	}

	// Eight senders post to the first server, which stops half-way.
	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	for s := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				ref := fmt.Sprintf("sender-%d-%d", s, i)
				if sender.Send(ctx, one.webhooks, webhook.Delivery{Type: "/transfers/watch", Body: []byte(body), CallRef: ref}) != nil {
					return // the server is gone: what it did not acknowledge is the sender's to send again
				}
				mu.Lock()
				acked = append(acked, ref)
				n := len(acked)
				mu.Unlock()
				if n == 100 {
					go one.stop()
				}
			}
		}()
	}
	wg.Wait()
	if len(acked) < 100 {
		t.Fatalf("only %d events were acknowledged before the stop", len(acked))
	}
	t.Logf("%d of 320 events acknowledged before the first server stopped", len(acked))
	waitForCallRefs(t, two, acked)
}

// BenchmarkTwoServersAcceptEvents: eight senders post events, each to one
// of two servers on one database that flushes every commit to disk; an
// event counts once its 204 came, after its commit.
func BenchmarkTwoServersAcceptEvents(b *testing.B) {
	dsn := pgtest.StartDurable(b)
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-webhook-addr", "127.0.0.1:0", "-webhook-key", browserKey, "-store", dsn, "-quiet"}
	servers := []*securedServe{startSecured(b, args...), startSecured(b, args...)}
	for _, s := range servers {
		eventually.True(b, 30*time.Second, "the server's database to be ready", func() bool {
			res, err := http.Get(s.url + "healthz")
			if err != nil {
				return false
			}
			res.Body.Close()
			return res.StatusCode == http.StatusOK
		})
	}
	sender := &webhook.Sender{Key: webhook.NewKey(browserKey)}
	body := []byte(`{"eventType":"COMPLETED","transfer":{"id":{"id":"9001"},"state":"COMPLETED"}}`)
	ctx := context.Background()
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for s := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				ref := fmt.Sprintf("bench-%d-%d", s, i)
				if err := sender.Send(ctx, servers[i%2].webhooks, webhook.Delivery{Type: "/transfers/watch", Body: body, CallRef: ref}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
