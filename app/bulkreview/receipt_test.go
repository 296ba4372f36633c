package bulkreview_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/submission"
)

func receiptOf(t *testing.T, s *submitted) *bulkreview.Receipt {
	t.Helper()
	rc, err := bulkreview.NewReceipt(s.plan, s.entries, s.elements, bulkreview.Declared{Reading: []string{"amounts in minor units"}, SubmittedBy: "maker", SubmittedAt: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return throughJSON(t, rc)
}

// throughJSON writes a receipt and reads it back, as it goes between two
// people.
func throughJSON(t *testing.T, rc *bulkreview.Receipt) *bulkreview.Receipt {
	t.Helper()
	data, err := rc.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	back, err := bulkreview.ReadReceipt(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return back
}

func TestAnUnchangedBulkMatchesItsReceipt(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(250), 120)
	rc := receiptOf(t, s)
	if rc.Version != bulkreview.ReceiptVersion || rc.Kind != "transfers" || rc.API != "standard" || rc.File != "pay.json" || rc.Submission != s.plan.ID || rc.Elements != 250 || len(rc.Chunks) != 3 || rc.SubmittedBy != "maker" {
		t.Fatalf("receipt %+v", rc)
	}
	want := submission.ControlTotals(s.plan, s.elements).Amounts
	if len(rc.Totals) != 1 || rc.Totals[0].Minor != want[0].Minor.String() || rc.Totals[0].Count != 250 || rc.Totals[0].Currency != "EUR" {
		t.Errorf("totals %+v, want %v", rc.Totals, want)
	}
	for i, c := range rc.Chunks {
		if c.BulkID != s.entries[i].BulkID || c.Elements != s.plan.Chunks[i].Count() || c.SentSHA256 != bulkreview.SHA256(s.plan.Chunks[i].Body) {
			t.Errorf("chunk %+v", c)
		}
		if d := bulkreview.Compare(rc, fetch(t, s.client, c.BulkID)); len(d) != 0 {
			t.Errorf("bulk %s: differences %v", c.BulkID, d)
		}
	}
	other := api.Add(bulkapi.Submitted, time.Time{}, `{"profileId":"1"}`)
	if d := bulkreview.Compare(rc, fetch(t, s.client, other)); len(d) != 1 || d[0].What != bulkreview.DiffBulk || !strings.Contains(d[0].Text, "bulks 500, 501, 502") {
		t.Errorf("a bulk not in the receipt: %v", d)
	}
}

// tamper serves api, with the amount of the first operation of bulk id
// changed from "amount":from to "amount":to in what it answers.
func tamper(api http.Handler, id, from, to string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/bulks/"+id+"/operations") {
			api.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, r)
		var page bulkapi.OperationPage
		if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
			panic(err)
		}
		if len(page.Operations) > 0 && page.Operations[0].Sequence == 0 {
			page.Operations[0].RequestPayload = strings.Replace(page.Operations[0].RequestPayload, `"amount":`+from, `"amount":`+to, 1)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(page)
	})
}

func TestAChangedAmountIsNamed(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(10), 0)
	rc := receiptOf(t, s)
	id := s.entries[0].BulkID
	r := fetch(t, fakeapi.Client(tamper(api, id, "100", "10000")), id)
	d := bulkreview.Compare(rc, r)
	var what []string
	for _, x := range d {
		what = append(what, x.What)
	}
	if strings.Join(what, " ") != "body element total source" {
		t.Fatalf("differences %v", d)
	}
	if !strings.Contains(d[2].Text, "EUR: the receipt declares EUR 10.45 in 10 amounts; the bulk holds EUR 109.45 in 10 amounts") {
		t.Errorf("the total's difference: %s", d[2].Text)
	}
	if !strings.Contains(d[3].Text, "source managed_accounts 1099000000, EUR: the receipt declares EUR 1.00 in 1 amount; the bulk holds EUR 100.00 in 1 amount") {
		t.Errorf("the source's difference: %s", d[3].Text)
	}

	// A receipt that declares another amount, the bulk unchanged.
	rc2 := *rc
	rc2.Chunks = append([]bulkreview.ReceiptChunk(nil), rc.Chunks...)
	rc2.Chunks[0].Totals = []bulkreview.Amount{{Currency: "EUR", Count: 10, Minor: "1046", Amount: "10.46"}, {Currency: "USD", Count: 1, Minor: "5", Amount: "0.05"}}
	rc2.Chunks[0].Elements = 11
	d = bulkreview.Compare(&rc2, fetch(t, s.client, id))
	if len(d) != 3 || d[0].What != bulkreview.DiffCount || !strings.Contains(d[1].Text, "EUR: the receipt declares EUR 10.46") || !strings.Contains(d[2].Text, "USD: the receipt declares USD 0.05 in 1 amount; the bulk holds none") {
		t.Errorf("differences %v", d)
	}
}

func TestReadReceiptRefusesWhatItCannotCompare(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(3), 0)
	data, _ := receiptOf(t, s).MarshalIndent()
	for name, edit := range map[string]func([]byte) []byte{
		"version": func(b []byte) []byte { return bytes.Replace(b, []byte(`"version": 2`), []byte(`"version": 3`), 1) },
		"minor":   func(b []byte) []byte { return bytes.Replace(b, []byte(`"minor": "303"`), []byte(`"minor": "3.03"`), 1) },
		"api": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"api": "standard"`), []byte(`"api": "other"`), 1)
		},
		"kind": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"kind": "transfers"`), []byte(`"kind": "nope"`), 1)
		},
	} {
		changed := edit(data)
		if bytes.Equal(changed, data) {
			t.Fatalf("%s: the edit changed nothing in %s", name, data)
		}
		if _, err := bulkreview.ReadReceipt(changed); err == nil {
			t.Errorf("%s: a broken receipt was read", name)
		}
	}
}

func TestAReceiptNeedsEveryChunkSubmitted(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(3), 2)
	if _, err := bulkreview.NewReceipt(s.plan, s.entries[:1], s.elements, bulkreview.Declared{}); err == nil || !strings.Contains(err.Error(), "part 2 of 2 was not submitted") {
		t.Errorf("a receipt of half a submission: %v", err)
	}
}

func TestTypedControlTotals(t *testing.T) {
	api := fakeapi.New()
	s := submit(t, api, api, fixture.SampleBody(10), 0)
	r := fetch(t, s.client, s.entries[0].BulkID)
	eur, err := bulkreview.ParseControlTotal("EUR 10.45", money.Point)
	if err != nil {
		t.Fatal(err)
	}
	if d := (bulkreview.Control{Count: 10, Totals: []bulkreview.ControlTotal{eur}}).Compare(r); len(d) != 0 {
		t.Errorf("right totals: %v", d)
	}
	if d := (bulkreview.Control{Count: -1}).Compare(r); len(d) != 0 {
		t.Errorf("nothing typed: %v", d)
	}
	wrong, err := bulkreview.ParseControlTotal("10,46 EUR", money.Point)
	if err != nil || wrong.Minor.Int64() != 1046 {
		t.Fatalf("10,46 EUR: %v %v", wrong, err)
	}
	usd, _ := bulkreview.ParseControlTotal("USD 1", money.Point)
	d := (bulkreview.Control{Count: 9, Totals: []bulkreview.ControlTotal{wrong, usd}}).Compare(r)
	if len(d) != 3 || d[0].What != bulkreview.DiffCount || !strings.Contains(d[1].Text, "EUR: the control total is EUR 10.46; the bulk holds EUR 10.45 in 10 amounts") || !strings.Contains(d[2].Text, "USD: the control total is USD 1.00; the bulk holds none") {
		t.Errorf("wrong totals: %v", d)
	}
	if d := (bulkreview.Control{Count: -1, Totals: []bulkreview.ControlTotal{usd}}).Compare(r); len(d) != 2 || !strings.Contains(d[1].Text, "no control total was typed for it") {
		t.Errorf("an untyped currency: %v", d)
	}
	for _, bad := range []string{"EUR 1.000", "EUR", "XYZ 10", "EUR 10.001", "EUR ten"} {
		if _, err := bulkreview.ParseControlTotal(bad, money.Point); err == nil {
			t.Errorf("%q was read", bad)
		} else if bad == "EUR 1.000" && !errors.Is(err, money.ErrAmbiguous) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	// As the checker's language writes numbers.
	for _, tc := range []struct {
		sep  money.Separators
		text string
		want int64
	}{{money.Comma, "EUR 1.000", 100000}, {money.Comma, "EUR 26.424,81", 2642481}, {money.Separators{Decimal: ',', Group: '\u202f'}, "16 620,13 EUR", 1662013}} {
		if got, err := bulkreview.ParseControlTotal(tc.text, tc.sep); err != nil || got.Minor.Int64() != tc.want {
			t.Errorf("%q: %v, %v", tc.text, got.Minor, err)
		}
	}
}
