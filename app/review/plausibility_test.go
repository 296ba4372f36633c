package review_test

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/export"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// invalidCurrenciesCSV has amounts in EUR and in four currencies the API
// refuses: lower case, a word, none and a padded code.
const invalidCurrenciesCSV = `profileId;source.id;source.type;destination.id;destination.type;currency;amount
110321;1001;managed_accounts;2001;managed_cards;EUR;1000
110321;1001;managed_accounts;2002;managed_cards;eur;250
110321;1001;managed_accounts;2003;managed_cards;EURO;300
110321;1001;managed_accounts;2004;managed_cards;;400
110321;1001;managed_accounts;2005;managed_cards;GBP;50
`

func TestInvalidCurrenciesShareOneTotal(t *testing.T) {
	d := openTable(t, "transfers", invalidCurrenciesCSV)
	s := d.Summary()
	var got []string
	for _, tot := range s.Totals {
		got = append(got, fmt.Sprintf("%s|%v|%d|%s", tot.Label(), tot.Invalid, tot.Count, tot))
	}
	want := []string{"EUR|false|1|EUR 10.00", "GBP|false|1|GBP 0.50", `invalid currency|true|3|invalid currency: 950 in minor units ("", "EURO", "eur")`}
	if !slices.Equal(got, want) {
		t.Errorf("totals\n got %q\nwant %q", got, want)
	}
	if st := s.Sources; len(st) != 1 || len(st[0].Totals) != 3 || !st[0].Totals[2].Invalid {
		t.Errorf("sources %+v", st)
	}
	// The manifest shows the row, marked.
	m, err := export.Manifest(d, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(m), `total,invalid currency,invalid currency,3,950,"invalid currency: 950 in minor units (""`) {
		t.Errorf("manifest:\n%s", m)
	}
	// The control totals of a submission group them alike.
	k, _ := schema.Lookup("transfers")
	elements := d.Elements()
	plan, err := submission.NewPlan(k, elements, submission.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ct := submission.ControlTotals(plan, elements)
	var sub []string
	for _, a := range ct.Amounts {
		sub = append(sub, fmt.Sprintf("%s|%v|%d|%s", a.Label(), a.Invalid, a.Count, a.Minor))
	}
	var rev []string
	for _, tot := range s.Totals {
		rev = append(rev, fmt.Sprintf("%s|%v|%d|%s", tot.Label(), tot.Invalid, tot.Count, tot.Minor))
	}
	if !slices.Equal(sub, rev) {
		t.Errorf("submission totals %q, review totals %q", sub, rev)
	}
}

func TestInvalidCurrencyTotalEdits(t *testing.T) {
	d := openTable(t, "transfers", invalidCurrenciesCSV)
	cur := column(t, d, "destinationAmount.currency")
	for _, i := range []int{1, 2, 3} {
		if err := d.Edit(i, cur, "EUR"); err != nil {
			t.Fatal(err)
		}
	}
	s := d.Summary()
	if len(s.Totals) != 2 || s.Totals[0].Currency != "EUR" || s.Totals[0].Minor.Cmp(big.NewInt(1950)) != 0 || s.Totals[1].Currency != "GBP" {
		t.Errorf("after correcting the currencies: %+v", s.Totals)
	}
}

func TestRequestBodyAmountWarnings(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i, amount := range []string{"25000", "25000", "2500000", "25000"} {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "%d"}, "destinationAmount": {"currency": "EUR", "amount": %s}}}`, 10+i, amount)
	}
	b.WriteString("]")
	d := openRequest(t, "transfers", b.String())
	codes := func() []string {
		var out []string
		for _, p := range d.Report().Problems {
			out = append(out, fmt.Sprintf("%d %s", p.Element, p.Code))
		}
		return out
	}
	if got := codes(); !slices.Equal(got, []string{"2 " + ingest.AmountOutlierCode}) {
		t.Fatalf("before: %v", got)
	}
	if ps := d.Problems(2); len(ps) != 1 || ps[0].Pointer != "/requestBody/destinationAmount/amount" {
		t.Errorf("element 2: %+v", ps)
	}
	d.SetAmountLimits(ingest.AmountLimits{"EUR": 20000})
	if got := codes(); !slices.Equal(got, []string{"0 amount-above-limit", "1 amount-above-limit", "2 amount-outlier", "2 amount-above-limit", "3 amount-above-limit"}) {
		t.Errorf("with a limit: %v", got)
	}
	// Correcting the amount clears its warnings.
	d.SetAmountLimits(nil)
	if err := d.Edit(2, column(t, d, "destinationAmount.amount"), "25000"); err != nil {
		t.Fatal(err)
	}
	if got := codes(); got != nil {
		t.Errorf("after the fix: %v", got)
	}
}

func TestTableAmountLimitsThroughTheDocument(t *testing.T) {
	d := openTable(t, "transfers", invalidCurrenciesCSV)
	d.SetAmountLimits(ingest.AmountLimits{"EUR": 500})
	var got []string
	for _, p := range d.Report().Problems {
		if p.Code == ingest.AmountAboveLimitCode {
			got = append(got, ingest.Where(p))
		}
	}
	if !slices.Equal(got, []string{"pay!G2"}) {
		t.Errorf("limit warnings at %v", got)
	}
	if s := d.Summary(); s.Warnings == 0 {
		t.Errorf("summary %+v", s)
	}
}

func TestRequestBodyIDLengths(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i, id := range []string{"1001", "1002", "101", "1003"} {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "%s"}, "destinationAmount": {"currency": "EUR", "amount": 100}}}`, id)
	}
	b.WriteString("]")
	d := openRequest(t, "transfers", b.String())
	ps := d.Problems(2)
	want := `destination.id: the ids of the request have different lengths: 3 of 4 have 4 characters, but element 2 ("101") has 3: check that no digits were lost or added`
	if len(ps) != 1 || ps[0].Code != ingest.IDLengthCode || ps[0].Pointer != "/requestBody/destination/id" || ps[0].Message != want {
		t.Errorf("element 2: %+v", ps)
	}
	if n := len(d.Report().Problems); n != 1 {
		t.Errorf("%d problems", n)
	}
}
