package jobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// receiptOf is the maker's receipt of a file submitted as bulk id in one
// chunk, as the CLI writes it.
func receiptOf(t *testing.T, body []byte, id string) *bulkreview.Receipt {
	t.Helper()
	rc, err := fixture.Receipt(body, id)
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

func (h *harness) bulkRepeats(id string) wire.BulkRepeatsFound {
	h.t.Helper()
	var f wire.BulkRepeatsFound
	h.result(h.send(wire.JobBulkRepeats, wire.BulkRepeats{Connection: conn, BulkID: id}, nil), &f)
	return f
}

func (h *harness) reviewBulk(req wire.ReviewBulk) (wire.BulkReview, []wire.Progress) {
	h.t.Helper()
	var r wire.BulkReview
	progress := h.result(h.send(wire.JobReviewBulk, req, nil), &r)
	return r, progress
}

func TestReviewingABulkShowsWhatWasSubmitted(t *testing.T) {
	api := fakeapi.New()
	h := newHarness(t, withAPI(api))
	body := fixture.Transfers(250)
	id := h.submitFile(body).Submission.Chunks[0].BulkID
	rc := receiptOf(t, body, id)
	text, err := rc.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}

	// A checker in another browser, whose journal does not know the bulk.
	other := newHarness(t, withAPI(api))
	r, progress := other.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id, Receipt: string(text)})
	want := 250*100 + 249*250/2
	if r.Failure != nil || r.Elements != 250 || r.Listed != 250 || r.Kind != "transfers" || r.Status != "SUBMITTED" ||
		len(r.Totals) != 1 || r.Totals[0].Minor != strconv.Itoa(want) || r.Totals[0].Count != 250 || r.Totals[0].Currency != "EUR" {
		t.Fatalf("review %+v, want 250 elements, EUR %d minor units", r, want)
	}
	if r.BodySHA256 != rc.Chunks[0].SHA256 || len(r.Sources) == 0 || r.InvalidCount != 0 {
		t.Errorf("hash %s, want %s; sources %+v; %d invalid", r.BodySHA256, rc.Chunks[0].SHA256, r.Sources, r.InvalidCount)
	}
	if !r.Compared || len(r.Differences) != 0 || len(r.Unread) != 0 || !r.Matches() {
		t.Errorf("the receipt of the file does not match: %+v %q", r.Differences, r.Unread)
	}
	var reading bool
	for _, p := range progress {
		reading = reading || p.Phase == wire.PhaseReadingOperations && p.Total == 250
	}
	if !reading {
		t.Errorf("no progress reading operations: %+v", progress)
	}

	// A receipt declaring another amount names the currency that differs.
	rc.Chunks[0].Totals[0].Minor = strconv.Itoa(want + 1)
	changed, _ := json.Marshal(rc)
	r, _ = other.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id, Receipt: string(changed)})
	if r.Matches() || len(r.Differences) != 1 || r.Differences[0].What != bulkreview.DiffTotal || !strings.Contains(r.Differences[0].Text, "EUR") {
		t.Errorf("a receipt with another amount gives %+v", r.Differences)
	}

	// Typed control totals: the right ones match, a wrong count is named,
	// an unreadable total is refused rather than read as zero.
	typed := r.Totals[0].Text
	n := 250
	r, _ = other.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id, Control: &wire.ControlTotals{Count: &n, Totals: []string{typed}}})
	if !r.Matches() {
		t.Errorf("control totals %q, count %d: %+v %q", typed, n, r.Differences, r.Unread)
	}
	n = 249
	r, _ = other.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id, Control: &wire.ControlTotals{Count: &n, Totals: []string{"EUR 1.000"}}})
	if r.Matches() || len(r.Differences) != 1 || r.Differences[0].What != bulkreview.DiffCount || len(r.Unread) != 1 {
		t.Errorf("count 249 and EUR 1.000: %+v %q", r.Differences, r.Unread)
	}

	// A bulk the API does not have is its refusal.
	r, _ = other.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: "nope"})
	if r.Failure == nil {
		t.Errorf("an unknown bulk gives %+v", r)
	}
}

// A bulk another program submitted with an element the contract refuses
// shows that element, with its problem in words.
func TestReviewingABulkListsItsInvalidElements(t *testing.T) {
	api := fakeapi.New()
	id := submitDirect(t, api, bytes.Replace(fixture.Transfers(3), []byte(`"currency":"EUR"`), []byte(`"currency":"eur"`), 1))
	h := newHarness(t, withAPI(api))
	r, _ := h.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id})
	if r.Failure != nil || r.Elements != 3 || r.InvalidCount != 1 || len(r.Invalid) != 1 || r.Invalid[0].Element != 0 ||
		len(r.Invalid[0].Problems) == 0 || !strings.Contains(strings.Join(r.Invalid[0].Problems, " "), "eur") {
		t.Errorf("review %+v", r)
	}
	if r.Compared || r.Matches() {
		t.Errorf("nothing given to compare, yet compared: %+v", r)
	}
}

// submitDirect submits body as a bulk of transfers from another program.
func submitDirect(t *testing.T, api *fakeapi.API, body []byte) string {
	t.Helper()
	cl, err := bulkapi.New(bulkapi.Config{BaseURL: conn.APIURL, APIKey: conn.APIKey, Token: conn.Token, Transport: bulkapi.HandlerTransport(api)})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := schema.Lookup("transfers")
	b, err := cl.Submit(context.Background(), k, body, "")
	if err != nil {
		t.Fatal(err)
	}
	return b.BulkID
}

// The checker's console validates a bulk with the contract it checks
// files with: a newer contract that requires a field the bulk's elements
// lack makes every one invalid, and the review names the contract.
func TestReviewingABulkValidatesWithTheContractInUse(t *testing.T) {
	api := fakeapi.New()
	id := submitDirect(t, api, fixture.Transfers(4))
	h := newHarness(t, withAPI(api))
	h.contract(wire.SetContract{Source: newerContract(t)})
	r, _ := h.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id})
	if r.Failure != nil || r.InvalidCount != 4 || r.Contract != "bulks-v4.yml (version v3)" ||
		!strings.Contains(strings.Join(r.Invalid[0].Problems, " "), "ndToEndId is required") {
		t.Fatalf("review with the newer contract: %+v", r)
	}
	h.contract(wire.SetContract{Builtin: true})
	if r, _ = h.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: id}); r.Failure != nil || r.InvalidCount != 0 || r.Contract != "the built-in contract" {
		t.Errorf("review with the built-in contract: %+v", r)
	}
}

// After a review, the look-up of repeats names the elements of the bulk
// that other bulks hold too, reading the reviewed bulk's operations once:
// the check of the API's record takes them from the review.
func TestReviewingABulkNamesElementsOtherBulksHold(t *testing.T) {
	api := fakeapi.New()
	first := submitDirect(t, api, fixture.Transfers(10))
	h := newHarness(t, withAPI(api))
	if r, _ := h.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: first}); r.Failure != nil {
		t.Fatalf("review: %+v", r.Failure)
	}
	if f := h.bulkRepeats(first); f.Failure != nil || f.Repeats != nil {
		t.Fatalf("a bulk alone repeats nothing: %+v %+v", f.Failure, f.Repeats)
	}
	second := submitDirect(t, api, fixture.Transfers(12))
	if r, _ := h.reviewBulk(wire.ReviewBulk{Connection: conn, BulkID: second}); r.Failure != nil {
		t.Fatalf("review: %+v", r.Failure)
	}
	f := h.bulkRepeats(second)
	rp := f.Repeats
	if f.Failure != nil || rp == nil || rp.Count != 10 || rp.ToSend != 12 || !rp.Record || !slices.Equal(rp.Bulks, []string{first}) || len(rp.Elements) != 10 {
		t.Fatalf("repeats %+v", rp)
	}
	if e := rp.Elements[9]; e.Element != 9 || e.BulkID != first || !strings.Contains(e.Text, "Element 9 was submitted before in bulk "+first) {
		t.Errorf("last repeat %+v", e)
	}
	if reads := api.Reads(); reads[first] != 1 || reads[second] != 1 {
		t.Errorf("operation reads %v: each bulk read once", reads)
	}
	// In another browser, which has reviewed nothing, the bulk is read
	// again for its fingerprints.
	other := newHarness(t, withAPI(api))
	if f := other.bulkRepeats(second); f.Failure != nil || f.Repeats == nil || f.Repeats.Count != 10 {
		t.Errorf("repeats without a review first: %+v %+v", f.Failure, f.Repeats)
	}
}
