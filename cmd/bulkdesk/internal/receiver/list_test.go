package receiver_test

import (
	"net/http"
	"testing"

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
	for _, q := range []string{"?limit=0", "?limit=-1", "?limit=ten", "?type=/nope/watch"} {
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
