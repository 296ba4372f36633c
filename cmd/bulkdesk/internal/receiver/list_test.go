package receiver_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/receiver"
)

func TestListFiltersAndLimits(t *testing.T) {
	ts := startServer(t, receiver.Config{})
	if evs := listEvents(t, ts.URL, ""); len(evs) != 0 {
		t.Fatalf("a new receiver lists %d events", len(evs))
	}
	paths := []string{"/transfers/watch", "/bulk_process_end/watch", "/transfers/watch", "/send/watch", "/bulk_process_end/watch"}
	for i, p := range paths {
		if a := post(t, ts.URL, p, `{"i":`+string(rune('0'+i))+`}`); a.status != http.StatusNoContent {
			t.Fatal(a.raw)
		}
	}
	seqs := func(query string) []uint64 {
		var out []uint64
		for _, ev := range listEvents(t, ts.URL, query) {
			out = append(out, ev.Seq)
		}
		return out
	}
	for _, tc := range []struct {
		query string
		want  []uint64
	}{
		{"", []uint64{5, 4, 3, 2, 1}},
		{"?limit=2", []uint64{5, 4}},
		{"?limit=99", []uint64{5, 4, 3, 2, 1}},
		{"?type=/transfers/watch", []uint64{3, 1}},
		{"?type=transfers/watch&limit=1", []uint64{3}},
		{"?type=/webhooks/bulk_process_end/watch&type=send/watch", []uint64{5, 4, 2}},
		{"?type=/managed_cards/payments/watch", nil},
	} {
		got := seqs(tc.query)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.query, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: %v, want %v", tc.query, got, tc.want)
				break
			}
		}
	}
	for _, q := range []string{"?limit=0", "?limit=-1", "?limit=ten", "?type=/nope/watch", "?limit=1001", "?before=0", "?before=x"} {
		resp, err := client.Get(ts.URL + "/events" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d", q, resp.StatusCode)
		}
	}
}

// GET /events answers pages of at most 100 events unless told, at most
// 1,000, and a cursor walks back through the ring.
func TestListPages(t *testing.T) {
	const events = 250
	ts := startServer(t, receiver.Config{})
	for i := 1; i <= events; i++ {
		path := "/transfers/watch"
		if i%2 == 0 {
			path = "/send/watch"
		}
		if a := do(t, signedRequest(t, ts.URL, path, fmt.Sprintf("ref-%d", i), `{}`, time.Now())); a.status != http.StatusNoContent {
			t.Fatal(a.raw)
		}
	}
	page := func(query string) (first, last uint64, n int, next, link string) {
		t.Helper()
		resp, err := client.Get(ts.URL + "/events" + query)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		evs := listEvents(t, ts.URL, query)
		if len(evs) > 0 {
			first, last = evs[0].Seq, evs[len(evs)-1].Seq
		}
		return first, last, len(evs), resp.Header.Get("Bulkdesk-Next-Before"), resp.Header.Get("Link")
	}
	first, last, n, next, link := page("")
	if first != 250 || last != 151 || n != 100 || next != "151" || link != `</events?before=151&limit=100>; rel="next"` {
		t.Errorf("first page %d..%d (%d), next %q, link %q", first, last, n, next, link)
	}
	var seen int
	cursor := ""
	for pages := 0; pages < 10; pages++ {
		q := "?limit=60&type=send/watch" + cursor
		_, last, n, next, _ := page(q)
		seen += n
		if next == "" {
			break
		}
		if next != strconv.FormatUint(last, 10) {
			t.Fatalf("%s: next %s after %d", q, next, last)
		}
		cursor = "&before=" + next
	}
	if seen != events/2 {
		t.Errorf("walking the pages of /send/watch saw %d events", seen)
	}
	if _, _, n, next, _ := page("?limit=1000"); n != events || next != "" {
		t.Errorf("a page of 1000: %d events, next %q", n, next)
	}
	if first, _, n, _, _ := page("?before=3"); first != 2 || n != 2 {
		t.Errorf("before=3: from %d, %d events", first, n)
	}
}

func TestOpenStreamsAreLimited(t *testing.T) {
	ts := startServer(t, receiver.Config{MaxStreams: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	readHello(t, openStream(t, ctx, ts.URL, "", nil))
	resp, err := client.Get(ts.URL + "/events/stream")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a stream over the limit: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(resp.Header.Get("Content-Type"), "json") {
		t.Errorf("refusal as %s", resp.Header.Get("Content-Type"))
	}
}
