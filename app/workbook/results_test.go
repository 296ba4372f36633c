package workbook_test

import (
	"bytes"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// TestResultWorkbookNamesThePayments writes the results of transfers with
// their key fields: every row says whom it paid, the amount as a number
// in major units with its currency's decimals beside the currency, the
// reference and the source, the failed rows first; the operator's text
// stays inert, and an amount no number holds exactly is written as text.
func TestResultWorkbookNamesThePayments(t *testing.T) {
	k, _ := schema.Lookup("transfers")
	pay := func(to, cur, minor, ref string) keyfields.Fields {
		return keyfields.Fields{Counterparty: keyfields.Counterparty{Type: "managed_cards", ID: to}, Amount: &keyfields.Amount{Currency: cur, Minor: minor},
			Reference: ref, Source: "managed_accounts 1001"}
	}
	results := []workbook.Result{
		{Element: 0, File: "pay.xlsx", Sheet: "Pay", Row: 2, BulkID: "41", Sequence: 0, Status: "COMPLETED", Keys: pay("2001", "EUR", "1050", "Invoice 1")},
		{Element: 1, File: "pay.xlsx", Sheet: "Pay", Row: 3, BulkID: "41", Sequence: 1, Status: "COMPLETED", Keys: pay("2002", "JPY", "7", "=HYPERLINK(\"x\")")},
		{Element: 2, File: "pay.xlsx", Sheet: "Pay", Row: 4, BulkID: "41", Sequence: 2, Status: "FAILED", Error: "DECLINED: no", Keys: pay("2003", "BHD", "-1234", "")},
		{Element: 3, File: "pay.xlsx", Sheet: "Pay", Row: 5, BulkID: "41", Sequence: 3, Status: "COMPLETED", Keys: pay("2004", "eur", "5", "")},
		{Element: 4, File: "pay.xlsx", Sheet: "Pay", Row: 6, BulkID: "41", Sequence: 4, Status: "CANCELLED", Keys: pay("2005", "EUR", "1234567890123456789", "")},
	}
	failed := decoded(t, `[{"requestBody":{"destinationAmount":{"currency":"BHD","amount":-1234}}},{"requestBody":{"destinationAmount":{"currency":"EUR","amount":1234567890123456789}}}]`)
	data, err := workbook.ResultWorkbook(k, fixture.Validator().Fields(k), results, failed, []string{"FAILED", "CANCELLED"})
	if err != nil {
		t.Fatal(err)
	}
	f := openWorkbook(t, data)
	if f.GetActiveSheetIndex() != 0 || f.GetSheetName(0) != "Failed rows" {
		t.Errorf("the workbook opens on sheet %d of %v", f.GetActiveSheetIndex(), f.GetSheetList())
	}
	rows, err := f.GetRows("Results", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"File", "Sheet", "Row", "Bulk", "Sequence", "Operation status", "Paid to", "Amount", "Currency", "Reference", "From", "Error", "Response", "Operation id"},
		{"pay.xlsx", "Pay", "4", "41", "2", "FAILED", "managed_cards 2003", "-1.234", "BHD", "", "managed_accounts 1001", "DECLINED: no"},
		{"pay.xlsx", "Pay", "6", "41", "4", "CANCELLED", "managed_cards 2005", "12345678901234567.89", "EUR", "", "managed_accounts 1001"},
		{"pay.xlsx", "Pay", "2", "41", "0", "COMPLETED", "managed_cards 2001", "10.5", "EUR", "Invoice 1", "managed_accounts 1001"},
		{"pay.xlsx", "Pay", "3", "41", "1", "COMPLETED", "managed_cards 2002", "7", "JPY", `=HYPERLINK("x")`, "managed_accounts 1001"},
		{"pay.xlsx", "Pay", "5", "41", "3", "COMPLETED", "managed_cards 2004", "5 in minor units", "eur", "", "managed_accounts 1001"},
	}
	if canonical(t, rows) != canonical(t, want) {
		t.Errorf("results sheet\n %q\nwant\n %q", rows, want)
	}
	// The amounts a number holds are numbers shown with the currency's
	// decimals; the others are text.
	for cell, format := range map[string]string{"H2": "#,##0.000", "H4": "#,##0.00", "H5": "#,##0"} {
		if typ, _ := f.GetCellType("Results", cell); typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
			t.Errorf("%s is text", cell)
		}
		style, _ := f.GetCellStyle("Results", cell)
		s, err := f.GetStyle(style)
		if err != nil || s.CustomNumFmt == nil || *s.CustomNumFmt != format {
			t.Errorf("%s: number format %v, want %s (%v)", cell, s, format, err)
		}
	}
	for _, cell := range []string{"H3", "H6"} {
		if typ, _ := f.GetCellType("Results", cell); typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString {
			t.Errorf("%s is not text: %v", cell, typ)
		}
	}
	// The reference that begins like a formula is a quoted text cell.
	if formula, _ := f.GetCellFormula("Results", "J5"); formula != "" {
		t.Errorf("J5 holds a formula %q", formula)
	}
	style, _ := f.GetCellStyle("Results", "J5")
	if f.Styles.CellXfs.Xf[style].QuotePrefix == nil || !*f.Styles.CellXfs.Xf[style].QuotePrefix {
		t.Errorf("J5 is not quoted")
	}
}

// openWorkbook opens a workbook written, closed when the test ends.
func openWorkbook(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
