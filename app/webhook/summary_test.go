package webhook_test

import (
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/webhook"
)

func TestSummarize(t *testing.T) {
	at := time.UnixMilli(1761909600000).UTC()
	tests := []struct {
		typ, body                string
		title, bulk, txn, status string
		amount                   *webhook.Amount
		fields                   map[string]string
	}{
		{typ: "/bulk_process_end/watch",
			body:  `{"bulkId":"118231498219765760","status":"PARTIALLY_COMPLETED","submittedItemsCount":10000,"operationStatusCounts":[{"status":"COMPLETED","count":9990},{"status":"FAILED","count":10}]}`,
			title: "Bulk process ended", bulk: "118231498219765760", status: "PARTIALLY_COMPLETED",
			fields: map[string]string{"submitted": "10,000", "operations": "9,990 completed, 10 failed"}},
		{typ: "transfers/watch",
			body:  `{"eventType":"COMPLETED","transfer":{"id":{"type":"transfers","id":"1120"},"profileId":"7","source":{"type":"managed_accounts","id":"55"},"destination":{"type":"managed_cards","id":"66"},"destinationAmount":{"currency":"EUR","amount":"1250"},"state":"COMPLETED","creationTimestamp":"1761909500000"},"publishedTimestamp":"1761909600000"}`,
			title: "Transfer", txn: "1120", status: "COMPLETED", amount: &webhook.Amount{Currency: "EUR", Minor: "1250"},
			fields: map[string]string{"event": "COMPLETED", "from": "55", "to": "66", "amount": "EUR 12.50"}},
		{typ: "/webhooks/managed_cards/payments/watch",
			body:  `{"eventType":"SETTLEMENT","cardPayment":{"id":"9","type":"PURCHASE","card":{"id":"66","type":"managed_cards"},"merchant":{"id":"m","name":"Café Zoë"},"displayAmount":{"currency":"GBP","amount":499},"status":"SETTLED","events":[],"creationTimestamp":1}}`,
			title: "Card payment", txn: "9", status: "SETTLED", amount: &webhook.Amount{Currency: "GBP", Minor: "499"},
			fields: map[string]string{"merchant": "Café Zoë", "card": "66", "amount": "GBP 4.99"}},
		{typ: "/outgoing_wire_transfers/watch",
			body:  `{"eventType":"SUBMITTED","transfer":{"id":{"type":"outgoing_wire_transfers","id":"77"},"state":"SUBMITTED","type":"SEPA","transferAmount":{"currency":"EUR","amount":"100"},"destination":{"beneficiaryName":"ACME"}}}`,
			title: "Outgoing wire transfer", txn: "77", status: "SUBMITTED", amount: &webhook.Amount{Currency: "EUR", Minor: "100"},
			fields: map[string]string{"network": "SEPA", "beneficiary": "ACME"}},
		{typ: "/managed_cards/authorisations/watch",
			body:  `{"id":{"type":"managed_cards","id":"66"},"transactionId":"5","authorisationType":"DECLINED","approved":false,"declineReason":"INSUFFICIENT_BALANCE","transactionAmount":{"currency":"EUR","amount":"10"}}`,
			title: "Card authorisation", txn: "5", status: "DECLINED", amount: &webhook.Amount{Currency: "EUR", Minor: "10"},
			fields: map[string]string{"card": "66", "decline reason": "INSUFFICIENT_BALANCE", "amount": "EUR 0.10"}},
		{typ: "/corporates/kyb/beneficiaries/watch",
			body:  `{"event":["STATUS_UPDATED","EMAIL_UPDATED"],"additionalInformation":{"corporateId":"3","beneficiary":{"status":"APPROVED"}}}`,
			title: "Corporate beneficiary verification", status: "APPROVED",
			fields: map[string]string{"change": "STATUS_UPDATED, EMAIL_UPDATED", "corporate": "3"}},
		{typ: "/consumers/consumer_deactivated/watch",
			body:  `{"actionDoneBy":"ADMIN","emailAddress":"a@example.com","reasonCode":"ACCOUNT_CLOSURE"}`,
			title: "Consumer deactivated", status: "ACCOUNT_CLOSURE", fields: map[string]string{"email": "a@example.com"}},
		{typ: "/managed_cards/physical_cards_upgrade/watch",
			body:  `{"id":{"id":"66","type":"managed_cards"},"physicalCardDetails":{"pendingActivation":true,"manufacturingState":"DISPATCHED"}}`,
			title: "Physical card upgrade", status: "DISPATCHED", fields: map[string]string{"pending activation": "yes"}},
		{typ: "/transfers/watch", body: `{"eventType":"PENDING","transfer":{"destinationAmount":{"currency":"EUR"},"state":null}}`,
			title: "Transfer", fields: map[string]string{"event": "PENDING"}},
		{typ: "/not_in_reference/watch", body: `{"status":"X"}`, title: "/not_in_reference/watch", fields: map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			s := webhook.Summarize(tc.typ, []byte(tc.body), at)
			if s.Title != tc.title || s.BulkID != tc.bulk || s.TransactionID != tc.txn || s.Status != tc.status || !s.Time.Equal(at) || s.Problem != "" {
				t.Errorf("summary %+v", s)
			}
			if (s.Amount == nil) != (tc.amount == nil) || (s.Amount != nil && *s.Amount != *tc.amount) {
				t.Errorf("amount %+v, want %+v", s.Amount, tc.amount)
			}
			got := map[string]string{}
			for _, f := range s.Fields {
				got[f.Label] = f.Value
				if f.Path == "" || f.Value == "" {
					t.Errorf("field %+v", f)
				}
			}
			for label, want := range tc.fields {
				if got[label] != want {
					t.Errorf("field %q = %q, want %q (all: %v)", label, got[label], want, got)
				}
			}
			if tc.bulk != "" && got["bulk"] != tc.bulk {
				t.Errorf("bulk id not among the fields: %v", got)
			}
		})
	}
}

func TestSummarizeOddPayloads(t *testing.T) {
	for _, body := range []string{``, `[]`, `"x"`, `null`, `{`, `{"bulkId": {"nested": true}, "status": ["A"]}`} {
		s := webhook.Summarize("/bulk_process_end/watch", []byte(body), time.Time{})
		if s.Type != "/bulk_process_end/watch" || s.Fields == nil || s.BulkID != "" {
			t.Errorf("%q: %+v", body, s)
		}
	}
	if s := webhook.Summarize("/bulk_process_end/watch", []byte(`[]`), time.Time{}); s.Problem == "" {
		t.Error("no problem reported for an array payload")
	}
}

func TestEveryTypeHasSummaryFields(t *testing.T) {
	for _, ty := range webhook.Types() {
		s := webhook.Summarize(ty.Path, []byte(`{}`), time.Time{})
		if s.Title != ty.Title {
			t.Errorf("%s: title %q", ty.Path, s.Title)
		}
		if !webhook.HasSummaryFields(ty.Path) {
			t.Errorf("%s has no summary fields", ty.Path)
		}
	}
}

func TestAmountText(t *testing.T) {
	for a, want := range map[webhook.Amount]string{
		{Currency: "EUR", Minor: "1250"}:                 "EUR 12.50",
		{Currency: "JPY", Minor: "1250"}:                 "JPY 1,250",
		{Currency: "BHD", Minor: "-1"}:                   "BHD -0.001",
		{Currency: "EUR", Minor: "99999999999999999999"}: "EUR 999,999,999,999,999,999.99",
		{Currency: "EUR", Minor: "12.5"}:                 "12.5 EUR (minor units)",
	} {
		if got := a.Text(); got != want {
			t.Errorf("%+v: %q, want %q", a, got, want)
		}
	}
}
