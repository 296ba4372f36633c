package review_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A currency that is not an ISO 4217 code, in a file or a request body, is
// a warning at its cell: counted, reached by problem navigation though its
// element is valid, and summed in the invalid-currency total that names
// it.
func TestACurrencyThatDoesNotExistIsAWarningAtItsCell(t *testing.T) {
	const body = `[
 {"requestBody": {"profileId": "110321", "source": {"type": "managed_accounts", "id": "1001"}, "destination": {"type": "managed_cards", "id": "2001"}, "destinationAmount": {"currency": "EUR", "amount": 100}}},
 {"requestBody": {"profileId": "110321", "source": {"type": "managed_accounts", "id": "1001"}, "destination": {"type": "managed_cards", "id": "2002"}, "destinationAmount": {"currency": "EUD", "amount": 250}}}
]`
	const csv = "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
		"110321,managed_accounts,1001,managed_cards,2001,EUR,100\n" +
		"110321,managed_accounts,1001,managed_cards,2002,EUD,250\n"
	for name, d := range map[string]*review.Document{
		"request body": openRequest(t, "transfers", body),
		"table":        openTable(t, "transfers", csv),
	} {
		t.Run(name, func(t *testing.T) {
			s := d.Summary()
			if s.Invalid != 0 || s.Errors != 0 || s.Warnings != 1 {
				t.Errorf("summary %+v, want one warning and no error", s)
			}
			if len(s.Totals) != 2 || !s.Totals[1].Invalid || s.Totals[1].Count != 1 || len(s.Totals[1].Codes) != 1 || s.Totals[1].Codes[0] != "EUD" {
				t.Errorf("totals %+v", s.Totals)
			}
			cur := column(t, d, "destinationAmount.currency")
			row := d.Row(1)
			if row.Severity != schema.Warning || len(row.Marks) != 1 || row.Marks[0].Column != cur || row.Marks[0].Severity != schema.Warning {
				t.Errorf("row %+v, want its currency marked as a warning", row)
			}
			f, ok := d.NextProblem(review.Place{Element: -1, Column: -1}, false, false)
			if !ok || f.Element != 1 || f.Column != cur || f.Problem.Code != schema.CurrencyCode {
				t.Errorf("the next problem from the top is %+v, want the currency of element 1", f)
			}
		})
	}
}
