package bulkreview_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

// The record form drops what an operation cannot carry, so that a sent
// body and the elements rebuilt from its operations hash alike.
func TestRecordFormOfAKindWithAPathParameter(t *testing.T) {
	k := fixture.Kind("card_blocks")
	sent := []byte(`[{"pathParams":{"_id_":"123"},"requestBody":{}},{"pathParams":{"_id_":"456"}}]`)
	ops := []bulkapi.Operation{
		{Sequence: 0, Method: "POST", Path: "/managed_cards/123/block", RequestPayload: "{}"},
		{Sequence: 1, Method: "POST", Path: "/managed_cards/456/block"},
	}
	var rebuilt []any
	for i := range ops {
		el, err := bulkreview.ElementOf(k, &ops[i])
		if err != nil {
			t.Fatal(err)
		}
		rebuilt = append(rebuilt, el)
	}
	body, err := bulkreview.RecordBody(k, rebuilt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := bulkreview.ChunkRecordSHA256(k, sent)
	if err != nil || bulkreview.SHA256(body) != want {
		t.Errorf("rebuilt %s hashes to %s, the sent body's record form to %s (%v)", body, bulkreview.SHA256(body), want, err)
	}
	// Each rebuilt element has the fingerprint of its operation.
	for i := range ops {
		fp, err := submission.ElementFingerprint(k, rebuilt[i])
		op, ok := submission.OperationFingerprint(k, &ops[i])
		if err != nil || !ok || fp != op {
			t.Errorf("operation %d: fingerprints differ", i)
		}
	}
	if _, err := bulkreview.ElementOf(k, &bulkapi.Operation{Path: "/managed_cards/block"}); err == nil {
		t.Error("a path without the parameter was read")
	}
	if _, err := bulkreview.ElementOf(k, &bulkapi.Operation{Path: "/managed_cards/123/unblock"}); err == nil {
		t.Error("the path of another kind's operation was read as a block")
	}
	if k, err := bulkreview.KindOfOperation("POST /managed_cards/{id}/block", false); err != nil || k.ID != "card_blocks" {
		t.Errorf("kind of the operation: %v %v", k, err)
	}
	if _, err := bulkreview.KindOfOperation("GET /nothing", false); err == nil {
		t.Error("an operation no kind runs")
	}
}

// A page that fails stops the reading with its offset named, and a count
// beyond what a bulk holds is refused before reading on.
func TestReadingOperationsStopsAtAFailedPage(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(450), 0)
	id := s.entries[0].BulkID
	failing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/bulks/"+id+"/operations") && r.URL.Query().Get("offset") == "300" {
			http.Error(w, `{"message":"unavailable"}`, http.StatusServiceUnavailable)
			return
		}
		api.ServeHTTP(w, r)
	})
	_, err := bulkreview.Operations(context.Background(), fakeapi.Client(failing), id, nil)
	if err == nil || !strings.Contains(err.Error(), "from 300") {
		t.Errorf("a failed page: %v", err)
	}
	inflated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bytes.Replace(rec.Body.Bytes(), []byte(`"count":450`), []byte(`"count":20000`), 1))
	})
	if _, err := bulkreview.Operations(context.Background(), fakeapi.Client(inflated), id, nil); err == nil || !strings.Contains(err.Error(), "20000 operations") {
		t.Errorf("a count of 20,000: %v", err)
	}
	ops, err := bulkreview.Operations(context.Background(), s.client, id, nil)
	if err != nil || len(ops) != 450 || ops[449].Sequence != 449 || ops[100].Sequence != 100 {
		t.Errorf("read %d operations in order? %v", len(ops), err)
	}
}

// An operation names its kind by its call, path parameter filled in.
func TestKindOfCall(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		backOffice   bool
		want         string
	}{
		{"POST", "/transfers", false, "transfers"},
		{"POST", "/transfers", true, "transfers"},
		{"POST", "/sends", false, "sends"},
		{"POST", "/managed_cards/127/block", false, "card_blocks"},
		{"POST", "/managed_cards/127/unblock", false, "card_unblocks"},
		{"PATCH", "/managed_cards/127/spend_rules", true, "card_spend_rules"},
		{"POST", "/users/55/invite", false, "user_invites"},
		{"POST", "/users", false, "users"},
		{"POST", "/sends", true, ""},
		{"GET", "/transfers", false, ""},
		{"POST", "/managed_cards//block", false, ""},
	} {
		k, err := bulkreview.KindOfCall(tc.method, tc.path, tc.backOffice)
		got := ""
		if err == nil {
			got = k.ID
		}
		if got != tc.want {
			t.Errorf("%s %s (back office %v): %q, %v; want %q", tc.method, tc.path, tc.backOffice, got, err, tc.want)
		}
	}
}
