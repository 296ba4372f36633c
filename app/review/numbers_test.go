package review_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/xuri/excelize/v2"
)

// A spreadsheet's number cells are named in the rows, so that a table in
// the operator's language can write them as it writes numbers; a number
// typed over one keeps it a number, read as the file's other numbers are
// even where the file's text is read with a decimal comma.
func TestNumberCellsAreNamedAndStayNumbersWhenEdited(t *testing.T) {
	rows := [][]any{
		{"profileId", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "Betrag (EUR)", "description"},
		{"110321", "managed_accounts", "1001", "managed_cards", 2001, "EUR", 1234.56, "Lohn"},
		{"110321", "managed_accounts", "1001", "managed_cards", "2002", "EUR", 125.25, "Miete"},
	}
	d := commaWorkbook(t, rows)
	amt, dest := column(t, d, "destinationAmount.amount"), column(t, d, "destination.id")
	if r := d.Row(0); !slices.Equal(r.Numbers, []int{dest, amt}) || r.Cells[amt] != "1234.56" {
		t.Fatalf("row 0: numbers %v, cells %q; want columns %d and %d, the amount as stored", r.Numbers, r.Cells, dest, amt)
	}
	if r := d.Row(1); !slices.Equal(r.Numbers, []int{amt}) {
		t.Fatalf("row 1: numbers %v; want only the amount's column %d (2002 is text)", r.Numbers, amt)
	}

	if _, err := d.EditCell(0, amt, "1234.57"); err != nil {
		t.Fatal(err)
	}
	r := d.Row(0)
	if r.Severity != "" || !slices.Contains(r.Numbers, amt) || r.Cells[amt] != "1234.57" {
		t.Errorf("after typing 1234.57: severity %q, numbers %v, cells %q, problems %v %v; want a valid number cell", r.Severity, r.Numbers, r.Cells, r.Marks, r.Problems)
	}
	if tot := d.Summary().Totals; len(tot) != 1 || tot[0].Minor.String() != "135982" {
		t.Errorf("totals %+v; want EUR 1,359.82", tot)
	}
	// Text typed over a number is text, as before.
	if _, err := d.EditCell(1, amt, "125,26"); err != nil {
		t.Fatal(err)
	}
	if r := d.Row(1); slices.Contains(r.Numbers, amt) || r.Cells[amt] != "125,26" {
		t.Errorf("after typing 12.500,00: numbers %v, cells %q; want a text cell", r.Numbers, r.Cells)
	}
}

// commaWorkbook is the review of a workbook of transfers with rows, its
// text read with a decimal comma and groups of dots.
func commaWorkbook(t *testing.T, rows [][]any) *review.Document {
	t.Helper()
	x := excelize.NewFile()
	for r, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, r+1)
		if err := x.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	im := transfersImport(t, "pay.xlsx", buf.Bytes())
	settings := im.Settings()
	settings.Decimal, settings.Group = ",", "."
	if err := im.SetSettings(settings, "decimal", "group"); err != nil {
		t.Fatal(err)
	}
	im.Build(nil)
	d, err := review.FromImport(im, false, "pay.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	return d
}
