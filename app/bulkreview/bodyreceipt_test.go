package bulkreview_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// makersReceipt is the receipt the console and "submit -receipt" write of
// body submitted whole as bulk id.
func makersReceipt(t *testing.T, k *schema.Kind, body []byte, id string, d bulkreview.Declared) (*bulkreview.Receipt, []byte) {
	t.Helper()
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	elements := doc.([]any)
	plan, err := submission.NewPlan(k, elements, submission.PlanOptions{Source: d.File})
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Chunks[0]
	rc, err := bulkreview.NewReceipt(plan, []submission.Entry{{Ref: c.Ref, State: submission.Submitted, BulkID: id}}, elements, d)
	if err != nil {
		t.Fatal(err)
	}
	return rc, c.Body
}

func TestTheReceiptOfABodyIsTheMakersReceiptOfIt(t *testing.T) {
	k, _ := schema.Lookup("transfers")
	d := bulkreview.Declared{File: "pay.json", SubmittedBy: "alice", SubmittedAt: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	want, sent := makersReceipt(t, k, fixture.Salary("pay.json").Body(300), "500", d)
	got, err := bulkreview.ReceiptOfBody(k, false, sent, "500", d)
	if err != nil {
		t.Fatal(err)
	}
	want.Submission = "" // the plan's id, which only the maker's side knows
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from the body: %d elements, %+v, totals %+v\nthe maker's: %d elements, %+v, totals %+v",
			got.Elements, got.Chunks[0].SHA256, got.Totals, want.Elements, want.Chunks[0].SHA256, want.Totals)
	}
	if len(got.Sources) != 97 || got.Chunks[0].SentSHA256 != bulkreview.SHA256(sent) {
		t.Errorf("a body of 97 sources: %d sources, sent %s", len(got.Sources), got.Chunks[0].SentSHA256)
	}

	// The same elements written otherwise: the record's hash and the
	// totals hold, the hash of what was sent does not.
	loose := bytes.ReplaceAll(sent, []byte(`},{`), []byte("},\n  {"))
	other, err := bulkreview.ReceiptOfBody(k, true, loose, "501", bulkreview.Declared{})
	if err != nil {
		t.Fatal(err)
	}
	c := other.Chunks[0]
	if c.SHA256 != want.Chunks[0].SHA256 || c.SentSHA256 == want.Chunks[0].SentSHA256 || c.SentSHA256 != bulkreview.SHA256(loose) ||
		!reflect.DeepEqual(other.Totals, want.Totals) || other.API != bulkreview.BackOffice || c.BulkID != "501" || other.SubmittedAt.IsZero() {
		t.Errorf("the body written loosely: %+v", other)
	}
}

func TestTheReceiptOfABodyRefusesWhatIsNoBulk(t *testing.T) {
	k, _ := schema.Lookup("card_blocks")
	many := "[" + strings.Repeat(`{"pathParams":{"_id_":"1"}},`, schema.MaxElements) + `{"pathParams":{"_id_":"2"}}]`
	for body, want := range map[string]string{
		`{"pathParams":{}}`: "not an array",
		`[]`:                "holds 0 elements",
		many:                "holds 10001 elements",
		`[{"pathParams":`:   "reading the request body",
	} {
		if _, err := bulkreview.ReceiptOfBody(k, false, []byte(body), "1", bulkreview.Declared{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40s: %v, want %q", body, err, want)
		}
	}
}
