package receiver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

const bulkEnd = `{"bulkId":"118231498219765760","status":"COMPLETED","submittedItemsCount":2,"operationStatusCounts":[{"status":"COMPLETED","count":2}]}`

func TestAcceptsAGoodEvent(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	body := bulkEnd + " \n"
	at := time.Now()
	req := signedRequest(t, ts.URL, "/bulk_process_end/watch", "ref-ü", body, at)
	req.Header.Set("request-ref", "req-1")
	if a := do(t, req); a.status != http.StatusNoContent || a.raw != "" {
		t.Fatalf("answer %d %s", a.status, a.raw)
	}
	evs := listEvents(t, ts.URL, "")
	if len(evs) != 1 {
		t.Fatalf("%d events", len(evs))
	}
	ev := evs[0]
	if ev.Seq != 1 || ev.Type != "/bulk_process_end/watch" || ev.Body != body || ev.Headers["call-ref"] != "ref-ü" ||
		ev.Headers["request-ref"] != "req-1" || ev.PublishedAt.UnixMilli() != at.UnixMilli() || ev.DeprecatedSignature != webhook.StatusValid {
		t.Errorf("event %+v", ev)
	}
	if ev.Summary.BulkID != "118231498219765760" || ev.Summary.Status != "COMPLETED" || ev.Summary.Title != "Bulk process ended" {
		t.Errorf("summary %+v", ev.Summary)
	}
	// The stored record verifies again with the key.
	v := &webhook.Verifier{Key: webhook.NewKey(testKey), SkipClock: true}
	if r := v.Verify(ev.Header(), []byte(ev.Body)); !r.OK() {
		t.Errorf("stored event does not verify: %s", r.Reason())
	}
}

func TestAcceptsEveryEventPath(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	for _, ty := range webhook.Types() {
		// The signature does not cover the path: a different call-ref per
		// event keeps them from being taken for replays of each other.
		if a := do(t, signedRequest(t, ts.URL, ty.Path, "ref"+ty.Path, `{}`, time.Now())); a.status != http.StatusNoContent {
			t.Errorf("%s: %d %s", ty.Path, a.status, a.raw)
		}
	}
	if n := len(listEvents(t, ts.URL, "")); n != len(webhook.Types()) {
		t.Errorf("%d events kept", n)
	}
}

func TestRefusals(t *testing.T) {
	ts := startServer(t, receiver.Config{MaxBodyBytes: 1024})
	const path = "/transfers/watch"
	body := `{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"1"}}}`
	good := func() *http.Request { return signedRequest(t, ts.URL, path, "ref", body, time.Now()) }
	withBody := func(b string) *http.Request { return signedRequest(t, ts.URL, path, "ref", b, time.Now()) }
	tests := []struct {
		name   string
		req    func() *http.Request
		status int
		reason string
	}{
		{"wrong key", func() *http.Request {
			req := good()
			req.Header = webhook.Sign(webhook.NewKey("another-key"), "ref", []byte(body), time.Now())
			return req
		}, http.StatusUnauthorized, "signature-v2: does not match"},
		{"body tampered by one byte", func() *http.Request {
			req := good()
			tampered := strings.Replace(body, `"1"`, `"2"`, 1)
			req.Body, req.ContentLength = http.NoBody, int64(len(tampered))
			req2, _ := http.NewRequest(http.MethodPost, req.URL.String(), strings.NewReader(tampered))
			req2.Header = req.Header
			return req2
		}, http.StatusUnauthorized, "signature-v2: does not match"},
		{"stale timestamp", func() *http.Request {
			return signedRequest(t, ts.URL, path, "ref", body, time.Now().Add(-6*time.Minute))
		}, http.StatusUnauthorized, "published-timestamp: published at"},
		{"timestamp from the future", func() *http.Request {
			return signedRequest(t, ts.URL, path, "ref", body, time.Now().Add(6*time.Minute))
		}, http.StatusUnauthorized, "ahead of this receiver's clock"},
		{"no signature-v2", func() *http.Request {
			req := good()
			req.Header.Del("signature-v2")
			return req
		}, http.StatusUnauthorized, "signature-v2: not sent"},
		{"unknown path", func() *http.Request {
			return signedRequest(t, ts.URL, "/transfers/unwatch", "ref", body, time.Now())
		}, http.StatusNotFound, "not an event path"},
		{"path with a trailing slash", func() *http.Request {
			return signedRequest(t, ts.URL, path+"/", "ref", body, time.Now())
		}, http.StatusNotFound, "not an event path"},
		{"bare /webhooks/", func() *http.Request {
			return signedRequest(t, ts.URL, "/", "ref", body, time.Now())
		}, http.StatusNotFound, "not an event path"},
		{"oversized body", func() *http.Request {
			return withBody(`{"pad":"` + strings.Repeat("x", 1024) + `"}`)
		}, http.StatusRequestEntityTooLarge, "larger than the 1KiB"},
		{"oversized body without a length", func() *http.Request {
			req := withBody(`{"pad":"` + strings.Repeat("x", 2048) + `"}`)
			req.ContentLength = -1 // chunked: the limit applies while reading
			return req
		}, http.StatusRequestEntityTooLarge, "larger than the 1KiB"},
		{"timestamp not a number", func() *http.Request {
			req := good()
			req.Header.Set("published-timestamp", "yesterday")
			return req
		}, http.StatusBadRequest, "published-timestamp: \"yesterday\" is not a whole number"},
		{"no timestamp", func() *http.Request {
			req := good()
			req.Header.Del("published-timestamp")
			return req
		}, http.StatusBadRequest, "published-timestamp: not sent"},
		{"call-ref too long", func() *http.Request {
			return signedRequest(t, ts.URL, path, strings.Repeat("r", 256), body, time.Now())
		}, http.StatusBadRequest, "call-ref: 256 characters"},
		{"signature-v2 not base64", func() *http.Request {
			req := good()
			req.Header.Set("signature-v2", "!!!")
			return req
		}, http.StatusBadRequest, "signature-v2: not valid base64"},
		{"signature-v2 twice", func() *http.Request {
			req := good()
			req.Header.Add("signature-v2", req.Header.Get("signature-v2"))
			return req
		}, http.StatusBadRequest, "sent 2 times"},
		{"body not JSON", func() *http.Request { return withBody(`{"eventType": COMPLETED}`) },
			http.StatusBadRequest, "the body is not JSON"},
		{"body not UTF-8", func() *http.Request { return withBody("{\"a\":\"\xff\"}") },
			http.StatusBadRequest, "not valid UTF-8"},
		{"body a JSON array", func() *http.Request { return withBody(`[{"eventType":"COMPLETED"}]`) },
			http.StatusBadRequest, "not an object"},
		{"empty body", func() *http.Request { return withBody(``) },
			http.StatusBadRequest, "the body is not JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req()
			rightSig := webhook.SignatureV2(webhook.NewKey(testKey), req.Header.Get("call-ref"), []byte(body), req.Header.Get("published-timestamp"))
			a := do(t, req)
			if a.status != tc.status || a.refusal.Status != tc.status || !strings.Contains(a.refusal.Error, tc.reason) {
				t.Errorf("answer %d %s, want %d with %q", a.status, a.raw, tc.status, tc.reason)
			}
			if strings.Contains(a.raw, rightSig) && req.Header.Get("signature-v2") != rightSig {
				t.Errorf("the answer gives away the right signature: %s", a.raw)
			}
			if (tc.status == http.StatusUnauthorized || tc.status == http.StatusBadRequest && strings.Contains(tc.reason, ":")) && len(a.refusal.Verdicts) != 4 {
				t.Errorf("verdicts %+v", a.refusal.Verdicts)
			}
		})
	}
	if evs := listEvents(t, ts.URL, ""); len(evs) != 0 {
		t.Errorf("refused events were kept: %+v", evs)
	}
	resp, err := client.Get(ts.URL + "/webhooks" + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET on an event path: %d", resp.StatusCode)
	}
	if !strings.Contains(ts.logs.String(), "status=401") {
		t.Errorf("refusals are not logged:\n%s", ts.logs)
	}
}

// A sender that gets anything but 2xx retries, so a copy of an accepted
// event is answered 200 (with the number it was stored under) and stored
// once.
func TestDuplicatesAreStoredOnce(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	at := time.Now()
	first := do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, at))
	if first.status != http.StatusNoContent {
		t.Fatalf("first %d %s", first.status, first.raw)
	}
	isDuplicateOf := func(name string, a answer, seq uint64) {
		t.Helper()
		var d struct {
			Duplicate bool   `json:"duplicate"`
			Seq       uint64 `json:"seq"`
		}
		json.Unmarshal([]byte(a.raw), &d)
		if a.status != http.StatusOK || !d.Duplicate || d.Seq != seq {
			t.Errorf("%s: %d %s, want 200 duplicate of %d", name, a.status, a.raw, seq)
		}
	}
	isDuplicateOf("the same request again", do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, at)), 1)
	// Signed again with a new timestamp: same call-ref and body.
	isDuplicateOf("signed again", do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":1}`, at.Add(time.Second))), 1)
	// The signature does not cover the path, so the event sent to another
	// event path is the same event.
	isDuplicateOf("to another path", do(t, signedRequest(t, ts.URL, "/send/watch", "ref", `{"n":1}`, at)), 1)
	// Another call-ref is another event, with the same payload or not.
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref-2", `{"n":1}`, at)); a.status != http.StatusNoContent {
		t.Errorf("another call-ref: %d %s", a.status, a.raw)
	}
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "ref", `{"n":2}`, at)); a.status != http.StatusNoContent {
		t.Errorf("another body: %d %s", a.status, a.raw)
	}
	// Without a call-ref only the same signature and timestamp make a
	// copy: the same payload published at another time is a new event.
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "", `{"n":1}`, at)); a.status != http.StatusNoContent {
		t.Errorf("no call-ref: %d %s", a.status, a.raw)
	}
	isDuplicateOf("no call-ref, the same request again", do(t, signedRequest(t, ts.URL, "/transfers/watch", "", `{"n":1}`, at)), 4)
	if a := do(t, signedRequest(t, ts.URL, "/transfers/watch", "", `{"n":1}`, at.Add(time.Millisecond))); a.status != http.StatusNoContent {
		t.Errorf("no call-ref, published again: %d %s", a.status, a.raw)
	}
	if n := len(listEvents(t, ts.URL, "")); n != 5 {
		t.Errorf("%d events kept, want 5", n)
	}
}

func TestRingKeepsTheNewest(t *testing.T) {
	ts := startServer(t, receiver.Config{RingSize: 3})
	for i := 1; i <= 5; i++ {
		if a := post(t, ts.URL, "/transfers/watch", fmt.Sprintf(`{"n":%d}`, i)); a.status != http.StatusNoContent {
			t.Fatal(a.raw)
		}
	}
	evs := listEvents(t, ts.URL, "")
	if len(evs) != 3 || evs[0].Seq != 5 || evs[2].Seq != 3 || evs[0].Body != `{"n":5}` {
		t.Errorf("ring %+v", evs)
	}
}

func TestNewNeedsAKey(t *testing.T) {
	if _, err := receiver.New(receiver.Config{}); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("New without a key: %v", err)
	}
}

// TestEveryOutcomeIsObserved counts what Config.OnEvent hears: an event
// accepted, its copy, one with a wrong signature and one to a path the
// reference does not list.
func TestEveryOutcomeIsObserved(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	ts := startServer(t, receiver.Config{OnEvent: func(outcome, reason string) {
		mu.Lock()
		heard = append(heard, outcome+" "+reason)
		mu.Unlock()
	}})
	body := `{"id":"1"}`
	post(t, ts.URL, "/bulk_process_end/watch", body)
	post(t, ts.URL, "/bulk_process_end/watch", body)
	forged := signedRequest(t, ts.URL, "/bulk_process_end/watch", "ref-2", body, time.Now())
	forged.Header = webhook.Sign(webhook.NewKey("another key"), "ref-2", []byte(body), time.Now())
	do(t, forged)
	post(t, ts.URL, "/no/such/path", body)
	mu.Lock()
	defer mu.Unlock()
	want := "accepted |duplicate |refused unauthentic|refused unknown-path"
	if got := strings.Join(heard, "|"); got != want {
		t.Errorf("heard %q, want %q", got, want)
	}
	if n := ts.Streams(); n != 0 {
		t.Errorf("%d streams open", n)
	}
}
