package workbook_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
)

// decoded reads JSON elements as the console holds them.
func decoded(t *testing.T, body string) []any {
	t.Helper()
	v, _, err := schema.DecodeJSON([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return v.([]any)
}

// canonical writes values for comparison: keys sorted, numbers as written.
func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestElementsWorkbookImportsAgainAsTheSameElements writes elements of
// several kinds, with ids that look like numbers, lists of values, dates
// and more list items than the template has, and imports the workbook:
// every column maps by itself and the elements come back unchanged.
func TestElementsWorkbookImportsAgainAsTheSameElements(t *testing.T) {
	for kind, body := range map[string]string{
		"transfers": `[
 {"requestBody":{"profileId":"110321","tag":"pay-1","source":{"type":"managed_accounts","id":"0001"},"destination":{"type":"managed_cards","id":"0002"},"destinationAmount":{"currency":"EUR","amount":1050},"description":"=SUM(A1)"}},
 {"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"12345678901234567890"},"destination":{"type":"managed_cards","id":"3"},"destinationAmount":{"currency":"JPY","amount":7}}}]`,
		"card_spend_rules": `[
 {"pathParams":{"_id_":"00127"},"requestBody":{"allowAtm":false,"allowedMerchantCountries":["GB","FR"],"spendLimit":[{"value":{"currency":"EUR","amount":5000},"interval":"DAILY"},{"value":{"currency":"EUR","amount":20000},"interval":"MONTHLY"}]}},
 {"pathParams":{"_id_":"128"},"requestBody":{"allowAtm":true}}]`,
		"users": `[{"requestBody":{"name":"Ada","surname":"Lovelace","email":"ada@example.com","dateOfBirth":{"year":1990,"month":2,"day":9}}}]`,
	} {
		t.Run(kind, func(t *testing.T) {
			k, err := schema.Lookup(kind)
			if err != nil {
				t.Fatal(err)
			}
			v := fixture.Validator()
			elements := decoded(t, body)
			notes := make([]string, len(elements))
			notes[0] = "INSUFFICIENT_FUNDS: declined"
			data, err := workbook.ElementsWorkbook(k, v.Fields(k), elements, notes)
			if err != nil {
				t.Fatal(err)
			}
			im, res := importBytes(t, "aside.xlsx", data, k)
			if m := im.Mapping(); len(m.Unmapped()) != 0 {
				t.Errorf("unmapped columns %+v", m.Unmapped())
			}
			if len(res.Elements) != len(elements) {
				t.Fatalf("%d elements came back, want %d: %v", len(res.Elements), len(elements), res.Report.Problems)
			}
			for i := range elements {
				got, want := canonical(t, res.Value(i)), canonical(t, elements[i])
				if got != want {
					t.Errorf("element %d came back as\n %s\nwant\n %s", i, got, want)
				}
			}
		})
	}
}

func TestResultWorkbookPutsTheFailedRowsFirst(t *testing.T) {
	k, _ := schema.Lookup("card_blocks")
	v := fixture.Validator()
	card := func(id string) keyfields.Fields {
		return keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: id}}
	}
	results := []workbook.Result{
		{Element: 0, Sheet: "Cards", Row: 2, BulkID: "41", Sequence: 0, Status: "COMPLETED", Response: `{"id":"7001"}`, OperationID: "op-0", Keys: card("0001")},
		{Element: 1, Sheet: "Cards", Row: 3, BulkID: "41", Sequence: 1, Status: "FAILED", Error: "SANDBOX_DECLINED: no", Keys: card("0002")},
		{Element: 2, Sheet: "Cards", Row: 5},
	}
	failed := decoded(t, `[{"pathParams":{"_id_":"0002"}}]`)
	data, err := workbook.ResultWorkbook(k, v.Fields(k), results, failed, []string{"SANDBOX_DECLINED: no"})
	if err != nil {
		t.Fatal(err)
	}
	f := openWorkbook(t, data)
	if sheets := f.GetSheetList(); !slices.Equal(sheets, []string{"Failed rows", "Results"}) {
		t.Fatalf("sheets %v", sheets)
	}
	rows, _ := f.GetRows("Results")
	want := [][]string{
		{"Sheet", "Row", "Bulk", "Sequence", "Operation status", "Card", "Error", "Response", "Operation id"},
		{"Cards", "3", "41", "1", "FAILED", "managed_cards 0002", "SANDBOX_DECLINED: no"},
		{"Cards", "2", "41", "0", "COMPLETED", "managed_cards 0001", "", `{"id":"7001"}`, "op-0"},
		{"Cards", "5", "", "", "NOT SUBMITTED"},
	}
	if canonical(t, rows) != canonical(t, want) {
		t.Errorf("results sheet\n %q\nwant\n %q", rows, want)
	}
	// Imported as it is, the workbook gives the failed row only.
	_, res := importBytes(t, "results.xlsx", data, k)
	if len(res.Elements) != 1 || canonical(t, res.Value(0)) != `{"pathParams":{"_id_":"0002"}}` {
		t.Errorf("the import took %d elements: %v", len(res.Elements), res.Report.Problems)
	}
}
