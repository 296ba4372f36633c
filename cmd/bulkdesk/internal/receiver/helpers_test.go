package receiver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

const testKey = "test-webhook-key-d41d8cd98f00"

// client is the HTTP client of every test: no request may hang.
var client = &http.Client{Timeout: 10 * time.Second}

// testServer is a receiver mounted on an HTTP server on 127.0.0.1.
type testServer struct {
	*receiver.Receiver
	URL  string
	logs *fixture.LogBuffer
	srv  *httptest.Server
}

// startServer starts a receiver for cfg (with the test key) and stops it
// when the test ends.
func startServer(t testing.TB, cfg receiver.Config) *testServer {
	t.Helper()
	cfg.Key = webhook.NewKey(testKey)
	logs := &fixture.LogBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rc, err := receiver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	rc.Mount(mux)
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.RegisterOnShutdown(rc.CloseStreams)
	srv.Start()
	ts := &testServer{Receiver: rc, URL: srv.URL, logs: logs, srv: srv}
	t.Cleanup(func() { ts.stop(t) })
	return ts
}

// stop shuts the server down as "bulkdesk serve" does; it may be called
// more than once.
func (ts *testServer) stop(t testing.TB) {
	t.Helper()
	// Connections the client dialled but never used count as busy for
	// five seconds in Shutdown: close them from this side first.
	client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.srv.Config.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	ts.srv.Close()
	if err := ts.Close(); err != nil {
		t.Errorf("closing the receiver: %v", err)
	}
	if strings.Contains(ts.logs.String(), testKey) {
		t.Errorf("the key is in the log:\n%s", ts.logs)
	}
}

// signedRequest builds a signed POST of body to the event path.
func signedRequest(t testing.TB, url, path, callRef, body string, at time.Time) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/webhooks"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = webhook.Sign(webhook.NewKey(testKey), callRef, []byte(body), at)
	req.Header.Set("Content-Type", "application/json")
	return req
}

// answer is a receiver's reply.
type answer struct {
	status  int
	refusal struct {
		Status   int               `json:"status"`
		Error    string            `json:"error"`
		Verdicts []webhook.Verdict `json:"verdicts"`
	}
	raw string
}

func do(t testing.TB, req *http.Request) answer {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, raw: string(b)}
	if resp.StatusCode != http.StatusNoContent && len(b) > 0 {
		if err := json.Unmarshal(b, &a.refusal); err != nil {
			t.Fatalf("%d answer is not JSON: %q", resp.StatusCode, b)
		}
	}
	if strings.Contains(a.raw, testKey) {
		t.Errorf("the key is in the answer: %s", a.raw)
	}
	return a
}

// post sends a signed event and returns the answer.
func post(t testing.TB, url, path, body string) answer {
	t.Helper()
	return do(t, signedRequest(t, url, path, "ref", body, time.Now()))
}

// listEvents gets /events with the query and decodes the array.
func listEvents(t testing.TB, url, query string) []webhook.Event {
	t.Helper()
	resp, err := client.Get(url + "/events" + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /events%s: %d %s", query, resp.StatusCode, b)
	}
	var evs []webhook.Event
	if err := json.NewDecoder(resp.Body).Decode(&evs); err != nil {
		t.Fatal(err)
	}
	if evs == nil {
		t.Fatal("/events answered null, not an array")
	}
	return evs
}

// sseMessage is one message of an event stream.
type sseMessage struct {
	id, event, data string
	comment         bool
}

// openStream subscribes to /events/stream and returns the messages as they
// come; the channel closes when the stream ends.
func openStream(t *testing.T, ctx context.Context, url, query string, header http.Header) <-chan sseMessage {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/events/stream"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := (&http.Client{}).Do(req) // no client timeout: the context bounds the stream
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan sseMessage, 8192)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<16), 4<<20)
		var m sseMessage
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if m != (sseMessage{}) {
					out <- m
				}
				m = sseMessage{}
			case strings.HasPrefix(line, ":"):
				m.comment = true
			case strings.HasPrefix(line, "id: "):
				m.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				m.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				m.data = line[6:]
			}
		}
	}()
	return out
}

// nextData waits for the next message of a stream that carries data,
// skipping comments and the retry hint.
func nextData(t *testing.T, ch <-chan sseMessage) sseMessage {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m, ok := <-ch:
			if !ok {
				t.Fatal("the stream ended")
			}
			if m.data != "" {
				return m
			}
		case <-timeout:
			t.Fatal("no message on the stream within 5 s")
		}
	}
}

// nextEvent waits for the next data message of a stream other than the
// hello, and decodes it when it is an event.
func nextEvent(t *testing.T, ch <-chan sseMessage) (sseMessage, webhook.Event) {
	t.Helper()
	m := nextData(t, ch)
	for m.event == "hello" {
		m = nextData(t, ch)
	}
	var ev webhook.Event
	if m.event == "" {
		if err := json.Unmarshal([]byte(m.data), &ev); err != nil {
			t.Fatalf("stream data is not an event: %v", err)
		}
		if strconv.FormatUint(ev.Seq, 10) != m.id {
			t.Fatalf("message id %s for event %d", m.id, ev.Seq)
		}
	}
	return m, ev
}

func testConfigKey() webhook.Key { return webhook.NewKey(testKey) }

// hello is the first message of a stream.
type hello struct {
	Receiver string `json:"receiver"`
	Newest   uint64 `json:"newest"`
}

// readHello reads a stream's first message, which must be its hello.
func readHello(t *testing.T, ch <-chan sseMessage) hello {
	t.Helper()
	m := nextData(t, ch)
	if m.event != "hello" {
		t.Fatalf("the stream's first message is %+v, not a hello", m)
	}
	var h hello
	if err := json.Unmarshal([]byte(m.data), &h); err != nil {
		t.Fatalf("hello %q: %v", m.data, err)
	}
	return h
}

// receiverHeader returns the receiver id GET /events names.
func receiverHeader(t testing.TB, url string) string {
	t.Helper()
	resp, err := client.Get(url + "/events?limit=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Header.Get("Bulkdesk-Receiver")
}
