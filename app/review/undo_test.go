package review_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// state is what a document sends and says of itself: its elements, its
// problems and its rows, to compare before a change and after its undo.
func state(t *testing.T, d *review.Document) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"elements": d.Elements(),
		"problems": d.Report().Problems,
		"rows":     d.Rows(0, d.Len(), false),
		"summary":  d.Summary(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transfersImport is the import of a file of transfers, not built.
func transfersImport(t *testing.T, name string, data []byte) *ingest.Import {
	t.Helper()
	k, err := schema.Lookup("transfers")
	if err != nil {
		t.Fatal(err)
	}
	return importing.Import(t, name, data, k)
}

func TestUndoPutsACellBackAndValidatesItsRowAgain(t *testing.T) {
	d := openTable(t, "transfers", transfersCSV)
	before := state(t, d)
	cur := column(t, d, "destinationAmount.currency")
	first, err := d.EditCell(1, cur, "EUR")
	if err != nil {
		t.Fatal(err)
	}
	second, err := d.EditCell(1, cur, "EURO")
	if err != nil {
		t.Fatal(err)
	}
	if b := second.Before(); len(b) != 1 || b[0].Text != "EUR" || b[0].Key != (review.CellKey{Row: 3, Column: 5, Element: -1}) {
		t.Errorf("the second edit overwrote %+v", b)
	}
	// Last first: EUR again, valid; then eur again, invalid as it was.
	if changed, err := d.Undo(second); err != nil || !reflect.DeepEqual(changed, []int{1}) {
		t.Fatalf("undo: %v, %v", changed, err)
	}
	if r := d.Row(1); r.Cells[cur] != "EUR" || r.Severity != "" {
		t.Errorf("after undoing EURO, row 3 = %+v", r)
	}
	if _, err := d.Undo(first); err != nil {
		t.Fatal(err)
	}
	if r := d.Row(1); r.Cells[cur] != "eur" || r.Severity != schema.Error {
		t.Errorf("after undoing EUR, row 3 = %+v", r)
	}
	if after := state(t, d); after != before {
		t.Errorf("undone, the document differs:\n%s\nwas\n%s", after, before)
	}
	if key, ok := d.CellKey(1, cur); !ok || key != (review.CellKey{Row: 3, Column: 5, Element: -1}) {
		t.Errorf("the key of row 3's currency = %+v, %v", key, ok)
	}
}

func TestAReplacementIsUndoneInOne(t *testing.T) {
	for _, rows := range []int{5, 200} { // row by row, and the whole table built again
		t.Run(fmt.Sprint(rows), func(t *testing.T) {
			var b strings.Builder
			b.WriteString("profileId;source.id;source.type;destination.id;destination.type;currency;amount\n")
			for i := range rows {
				fmt.Fprintf(&b, "110321;%d;managed_accounts;%d;managed_cards;eur;%d\n", 1000+i, 2000+i, 100+i)
			}
			d := openTable(t, "transfers", b.String())
			before := state(t, d)
			cur := column(t, d, "destinationAmount.currency")
			c, err := d.ReplaceCells(cur, "eur", "EUR", true, false)
			if err != nil || c.Len() != rows || d.Summary().Invalid != 0 {
				t.Fatalf("replaced %d, %v; %d invalid", c.Len(), err, d.Summary().Invalid)
			}
			if _, err := d.Undo(c); err != nil {
				t.Fatal(err)
			}
			if after := state(t, d); after != before {
				t.Errorf("undone, the document differs")
			}
			up, err := d.UpperCase(cur)
			if err != nil || up.Len() != rows || d.Summary().Invalid != 0 {
				t.Fatalf("capitals: %d cells, %v", up.Len(), err)
			}
			if _, err := d.Undo(up); err != nil {
				t.Fatal(err)
			}
			if after := state(t, d); after != before {
				t.Errorf("capitals undone, the document differs")
			}
		})
	}
}

// An edit made before the review was built again (another setting, say)
// is undone in the new one: the key names the file's cell.
func TestAnEditIsUndoneAfterTheReviewIsBuiltAgain(t *testing.T) {
	im := transfersImport(t, "pay.csv", []byte(transfersCSV))
	im.Build(nil)
	d, err := review.FromImport(im, false, "pay.csv")
	if err != nil {
		t.Fatal(err)
	}
	before := state(t, d)
	c, err := d.EditCell(1, column(t, d, "destinationAmount.currency"), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	im.Build(nil)
	again, err := review.FromImport(im, false, "pay.csv")
	if err != nil {
		t.Fatal(err)
	}
	if again.Summary().Invalid != 0 {
		t.Fatalf("the edit did not outlive the rebuild")
	}
	if _, err := again.Undo(c); err != nil {
		t.Fatal(err)
	}
	if after := state(t, again); after != before {
		t.Errorf("undone, the rebuilt document differs")
	}
}

// A spreadsheet's number cell comes back a number: the text typed over
// it would read otherwise (10.50 is ten and a half as a number, and
// refused as text once the decimal separator is a comma).
func TestUndoGivesASpreadsheetCellBackAsTheFileHadIt(t *testing.T) {
	rows := [][]any{
		{"profileId", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "Betrag (EUR)"},
		{"110321", "managed_accounts", "1001", "managed_cards", "2001", "EUR", 10.5},
		{"110321", "managed_accounts", "1001", "managed_cards", "2002", "EUR", 1234.56},
	}
	d := commaWorkbook(t, rows)
	before := state(t, d)
	amt := column(t, d, "destinationAmount.amount")
	c, err := d.EditCell(0, amt, d.Row(0).Cells[amt]) // the same text, typed
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Undo(c); err != nil {
		t.Fatal(err)
	}
	if after := state(t, d); after != before {
		t.Errorf("undone, the document differs:\n%s\nwas\n%s", after, before)
	}
}

func TestUndoInARequestBodyLeavesNoFieldBehind(t *testing.T) {
	d := openRequest(t, "transfers", requestBody)
	before := state(t, d)
	amt, cur := column(t, d, "destinationAmount.amount"), column(t, d, "destinationAmount.currency")
	// Element 2 has no destinationAmount: the edit makes it, the undo
	// takes it away again.
	var changes []review.Change
	for _, e := range []struct {
		element, col int
		text         string
	}{{2, amt, "5"}, {2, cur, "EUR"}, {1, amt, "1000"}, {1, column(t, d, "tag"), ""}} {
		c, err := d.EditCell(e.element, e.col, e.text)
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, c)
	}
	if d.Summary().Invalid != 0 {
		t.Fatalf("the edits left %d invalid", d.Summary().Invalid)
	}
	for i := len(changes) - 1; i >= 0; i-- {
		if _, err := d.Undo(changes[i]); err != nil {
			t.Fatal(err)
		}
	}
	if after := state(t, d); after != before {
		t.Errorf("undone, the document differs:\n%s\nwas\n%s", after, before)
	}
}
