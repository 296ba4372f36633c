package jobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// reviewWithElements reviews a bulk and returns the elements its Data
// carries for the checker's grid.
func (h *harness) reviewWithElements(req wire.ReviewBulk) (wire.BulkReview, wire.ReviewElements) {
	h.t.Helper()
	_, m := h.wait(h.send(wire.JobReviewBulk, req, nil))
	var r wire.BulkReview
	var els wire.ReviewElements
	if m.Type != wire.TypeResult {
		h.t.Fatalf("got %s %s, want a result", m.Type, m.Body)
	}
	if err := json.Unmarshal(m.Body, &r); err != nil {
		h.t.Fatal(err)
	}
	if err := els.UnmarshalBinary(m.Data); err != nil {
		h.t.Fatalf("the review's data %.80q: %v", m.Data, err)
	}
	return r, els
}

// The review sends every element of the bulk for the checker's grid: who
// receives, the amount, the source, and the problems of the invalid ones.
func TestAReviewCarriesEveryElement(t *testing.T) {
	api := fakeapi.New()
	body := bytes.Replace(fixture.Transfers(250), []byte(`"currency":"EUR","amount":107}`), []byte(`"currency":"eur","amount":107}`), 1)
	id := submitDirect(t, api, body)
	h := newHarness(t, withAPI(api))
	r, els := h.reviewWithElements(wire.ReviewBulk{Connection: conn, BulkID: id})
	if r.Failure != nil || r.Elements != 250 || els.Count != 250 || !els.MovesMoney || els.ReceiverType != "" {
		t.Fatalf("review %+v, elements %d (moves money %t, receiver %q)", r, els.Count, els.MovesMoney, els.ReceiverType)
	}
	for _, i := range []int{0, 7, 249} {
		f := els.Fields(i)
		if f.Counterparty.Type != "managed_cards" || f.Counterparty.ID == "" || f.Amount == nil || f.Amount.Currency == "" || f.Amount.Minor == "" || !strings.HasPrefix(f.Source, "managed_accounts ") {
			t.Errorf("element %d: %+v", i, f)
		}
	}
	if f := els.Fields(7); f.Amount.Minor != "107" || f.Amount.Currency != "eur" {
		t.Errorf("element 7's amount: %+v", f.Amount)
	}
	if len(els.IBAN) != 0 || len(els.Name) != 0 {
		t.Errorf("columns no element fills were sent: %d IBANs, %d names", len(els.IBAN), len(els.Name))
	}
	if len(els.Problems) != 1 || els.Problems[0].Element != 7 || len(els.Problems[0].Errors) == 0 || !strings.Contains(els.Problems[0].Errors[0], "eur") {
		t.Errorf("problems %+v, want element 7's currency", els.Problems)
	}
}

// A receipt names the elements that differ from it by index, which the
// grid marks.
func TestAReviewNamesTheElementsThatDifferFromTheReceipt(t *testing.T) {
	api := fakeapi.New()
	declared := fixture.Transfers(40)
	sent := bytes.Replace(declared, []byte(`"amount":112}`), []byte(`"amount":9112}`), 1)
	id := submitDirect(t, api, sent)
	text, err := receiptOf(t, declared, id).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, withAPI(api))
	r, _ := h.reviewWithElements(wire.ReviewBulk{Connection: conn, BulkID: id, Receipt: string(text)})
	var element []int
	for _, d := range r.Differences {
		if d.What == bulkreview.DiffElement && d.Index != nil {
			element = append(element, *d.Index)
		}
	}
	if r.Matches() || len(element) != 1 || element[0] != 12 {
		t.Errorf("differences %+v, want element 12 named", r.Differences)
	}
}

// fourEyesServer answers the console's server's record of one bulk, as
// GET four-eyes/bulks/{id} does, beside the API.
type fourEyesServer struct {
	api    http.Handler
	status int
	record any
}

func (f *fourEyesServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/four-eyes/bulks/") {
		f.api.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.status)
	_ = json.NewEncoder(w).Encode(f.record)
}

// With the server's four-eyes rule, the bulk is compared with the receipt
// the server kept of its submission: no file is passed.
func TestAReviewComparesWithTheServersReceipt(t *testing.T) {
	api := fakeapi.New()
	declared := fixture.Transfers(30)
	id := submitDirect(t, api, declared)
	rc := receiptOf(t, declared, id)
	rc.File = "payroll.xlsx"
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	server := &fourEyesServer{api: api, status: http.StatusOK, record: map[string]any{
		"rule": true, "bulkId": id, "known": true, "submittedBy": "alice", "submittedAt": at, "fileName": "payroll.xlsx",
		"state": "awaiting", "you": "bob", "mayExecute": true, "receipt": rc}}
	h := newHarness(t, withAPI(server))
	if r, _ := h.reviewWithElements(wire.ReviewBulk{Connection: conn, BulkID: id}); r.Compared {
		t.Fatalf("a review given nothing compared: %+v", r)
	}
	compare := func() wire.ServerReceiptCompared {
		t.Helper()
		var got wire.ServerReceiptCompared
		h.result(h.send(wire.JobServerReceipt, wire.ServerReceipt{Connection: conn, BulkID: id, URL: "http://console.test/four-eyes/bulks/" + id}, nil), &got)
		return got
	}
	got := compare()
	if !got.Matches() || got.SubmittedBy != "alice" || got.SubmittedAt == nil || !got.SubmittedAt.Equal(at) || got.File != "payroll.xlsx" {
		t.Errorf("compared with the server's receipt: %+v", got)
	}

	// A receipt that declares another element there names it.
	rc.Chunks[0].Fingerprints[3] = strings.Repeat("0", len(rc.Chunks[0].Fingerprints[3]))
	got = compare()
	if got.Matches() || got.Kept != wire.ReceiptCompared || len(got.Differences) == 0 {
		t.Fatalf("a receipt of another element 3: %+v", got)
	}
	if d := got.Differences[len(got.Differences)-1]; d.Index == nil || *d.Index != 3 {
		t.Errorf("differences %+v, want element 3 named", got.Differences)
	}

	// What the server says when it has no receipt to compare with.
	for _, tc := range []struct {
		status int
		record any
		kept   string
	}{
		{http.StatusOK, map[string]any{"rule": false, "you": "bob"}, wire.ReceiptRuleOff},
		{http.StatusNotFound, map[string]any{"rule": true, "bulkId": id, "known": false, "mayExecute": false}, wire.ReceiptUnknown},
		{http.StatusOK, map[string]any{"rule": true, "bulkId": id, "known": true, "submittedBy": "alice", "submittedAt": at}, wire.ReceiptNone},
		{http.StatusServiceUnavailable, map[string]any{"rule": true, "message": "four eyes: the receipt could not be read"}, wire.ReceiptUnread},
		{http.StatusOK, map[string]any{"rule": true, "known": true, "receipt": map[string]any{"version": 9}}, wire.ReceiptUnread},
	} {
		server.status, server.record = tc.status, tc.record
		if got := compare(); got.Kept != tc.kept || len(got.Differences) > 0 || got.Matches() || (tc.kept == wire.ReceiptUnread) != (got.Problem != "") {
			t.Errorf("%d %v: %+v, want %s", tc.status, tc.record, got, tc.kept)
		}
	}
}

// The look-up of repeats names every element another bulk holds, with
// that bulk, for the grid.
func TestARepeatsLookUpNamesEveryRepeatedElement(t *testing.T) {
	api := fakeapi.New()
	body := fixture.Transfers(30)
	first := submitDirect(t, api, body)
	h := newHarness(t, withAPI(api))
	h.submitFileAnswering(body, wire.RepeatsAgain)
	second := h.bulkIDs(api, first)
	h.reviewWithElements(wire.ReviewBulk{Connection: conn, BulkID: second})
	f := h.bulkRepeats(second)
	if f.Failure != nil || f.Repeats == nil || len(f.Elements) != 30 {
		t.Fatalf("repeats %+v, %d elements", f.Repeats, len(f.Elements))
	}
	for i, e := range f.Elements {
		if e.Element != i || e.BulkID != first {
			t.Errorf("repeat %d: %+v, want element %d in %s", i, e, i, first)
		}
	}
}

// bulkIDs returns the id of the API's bulk other than not.
func (h *harness) bulkIDs(api *fakeapi.API, not string) string {
	h.t.Helper()
	cl, err := bulkapi.New(bulkapi.Config{BaseURL: conn.APIURL, APIKey: conn.APIKey, Token: conn.Token, Transport: bulkapi.HandlerTransport(api)})
	if err != nil {
		h.t.Fatal(err)
	}
	page, err := cl.List(context.Background(), bulkapi.ListQuery{})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, b := range page.Bulks {
		if b.BulkID != not {
			return b.BulkID
		}
	}
	h.t.Fatal("the API holds no other bulk")
	return ""
}
