package bulkreview_test

import (
	"context"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The checker's review names a currency that does not exist as the
// maker's check does: a warning at its operation, an error when the
// review is strict, and the codes in the invalid-currency total.
func TestAReviewNamesACurrencyThatDoesNotExist(t *testing.T) {
	api := fakeapi.New()
	id := api.Add(bulkapi.Submitted, time.Time{},
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000000"},"destination":{"type":"managed_cards","id":"2000000"},"destinationAmount":{"currency":"EUR","amount":100}}`,
		`{"profileId":"110321","source":{"type":"managed_accounts","id":"1000001"},"destination":{"type":"managed_cards","id":"2000001"},"destinationAmount":{"currency":"EUD","amount":5}}`)
	for _, strict := range []bool{false, true} {
		v, err := schema.NewValidatorFor(schema.Builtin(), schema.Options{Strict: strict})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		r, err := bulkreview.Fetch(ctx, fakeapi.Client(api), id, bulkreview.Options{Validator: v})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		want := schema.Warning
		if strict {
			want = schema.Error
		}
		ps := r.Problems(1)
		if len(ps) != 1 || ps[0].Code != schema.CurrencyCode || ps[0].Severity != want || ps[0].Pointer != "/requestBody/destinationAmount/currency" {
			t.Errorf("strict=%v: problems of operation 1: %+v", strict, ps)
		}
		if r.Valid() == strict {
			t.Errorf("strict=%v: valid=%v, invalid %v", strict, r.Valid(), r.Invalid)
		}
		if len(r.Currencies) != 2 || !r.Currencies[1].Invalid || len(r.Currencies[1].Codes) != 1 || r.Currencies[1].Codes[0] != "EUD" {
			t.Errorf("totals %+v", r.Currencies)
		}
	}
}
