package review_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The review of a body kept as its bytes walks its elements read flat;
// it must show what the review of the same elements decoded shows: the
// same columns in the same order, rows, duplicates, totals and sources,
// and problems, for elements with unknown fields, lists, escapes, keys
// in another order and keys written twice.
func TestAReviewFromBytesIsTheReviewOfTheDecodedElements(t *testing.T) {
	v := fixture.Validator()
	odd := []string{
		`{"requestBody":{"profileId":"1","tag":"caf\u00e9 \"x\"","zeta":{"b":[1,2],"a":[{"x":1}]},"destinationAmount":{"currency":"EUR","amount":5}}}`,
		`{"requestBody":{"destinationAmount":{"amount":5,"currency":"EUR"},"zeta":{"a":[{"x":1}],"b":[1,2]},"tag":"caf\u00e9 \"x\"","profileId":"1"}}`,
		`{"requestBody":{"profileId":"2","profileId":"3","source":{"type":"managed_accounts","id":"7"}}}`,
		// The one before as decoded, read flat: the same element.
		`{"requestBody":{"source":{"id":"7","type":"managed_accounts"},"profileId":"3"}}`,
		`{"pathParams":{"_id_":"9"},"requestBody":{"spendLimit":[{"value":{"currency":"GBP","amount":-1},"interval":"DAILY"}],"minTransactionAmount":5}}`,
		`{"requestBody":{"source":"plain","destinationAmount":{"currency":"eur","amount":"12"}}}`,
		`{"requestBody":{"source":{"type":"managed_accounts","id":true},"destinationAmount":{"currency":"EUR","amount":123456789012345678901234}}}`,
		`{"requestBody":{"source":{"type":null,"id":5},"destinationAmount":{"currency":7,"amount":"-3"}}}`,
		`{"requestBody":{"source":{"id":"8","type":"managed_\u0061ccounts"},"destinationAmount":{"amount":4}}}`,
		`{"requestBody":{"source":[1],"destinationAmount":"5 EUR"}}`,
		`[1,2]`, `"x"`, `{"requestBody":[]}`, `{}`,
	}
	body := bytes.TrimSuffix(bytes.TrimSpace(fixture.Payroll.Body(60)), []byte("]"))
	for _, o := range odd {
		body = append(append(body, ','), o...)
	}
	body = append(body, ']')
	for _, kind := range []string{"transfers", "card_spend_rules", "outgoing_wire_transfers"} {
		k := fixture.Kind(kind)
		els := openRequestElements(t, body)
		doc, dups, _ := schema.DecodeJSON(body)
		report := v.CheckDocument(k, doc, dups)
		flat := review.FromRequestElements(k, false, "b.json", els, report, v)
		decoded := review.FromRequest(k, false, "b.json", doc.([]any), v.CheckDocument(k, doc, dups), v)
		if !reflect.DeepEqual(flat.Columns(), decoded.Columns()) {
			t.Errorf("%s: columns from the bytes %v, decoded %v", kind, flat.Columns(), decoded.Columns())
		}
		if !reflect.DeepEqual(flat.Summary(), decoded.Summary()) {
			t.Errorf("%s: summary from the bytes %+v, decoded %+v", kind, flat.Summary(), decoded.Summary())
		}
		if !reflect.DeepEqual(flat.Report(), decoded.Report()) {
			t.Errorf("%s: report from the bytes %v, decoded %v", kind, flat.Report().Problems, decoded.Report().Problems)
		}
		if !reflect.DeepEqual(flat.Rows(0, flat.Len(), false), decoded.Rows(0, decoded.Len(), false)) {
			t.Errorf("%s: the rows differ", kind)
		}
		if s := flat.Summary(); s.Duplicates < 2 {
			t.Errorf("%s: %d duplicates found", kind, s.Duplicates)
		}
		if !reflect.DeepEqual(flat.Elements(), decoded.Elements()) {
			t.Errorf("%s: the elements differ", kind)
		}
	}
}

// openRequestElements opens body as the worker keeps a request body: its
// bytes and its elements' places.
func openRequestElements(t *testing.T, body []byte) *ingest.RequestElements {
	t.Helper()
	f, err := ingest.Open("b.json", body, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	els, ok := f.RequestElements()
	if !ok {
		t.Fatal("not a request body")
	}
	return els
}
