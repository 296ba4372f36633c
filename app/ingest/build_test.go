package ingest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/schema"
)

// importOf opens data as a file and prepares its import as kind.
func importOf(t testing.TB, name string, data []byte, kindID string) *ingest.Import {
	t.Helper()
	return importing.Import(t, name, data, fixture.Kind(kindID))
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// valueAt returns the value at a dotted path of the requestBody or
// pathParams of an element.
func valueAt(elem map[string]any, path string) (any, bool) {
	var cur any = elem["requestBody"]
	if rest, ok := strings.CutPrefix(path, "pathParams."); ok {
		cur, path = elem["pathParams"], rest
	}
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// cellCase is one cell read into one field.
type cellCase struct {
	name     string
	kind     string
	header   string
	cell     xlsxgen.Cell
	settings *ingest.Settings
	// want is the JSON of the value, "-" for left out; code the problem.
	want string
	code string
}

// runCellCase puts the cell under its header in row 2 of a sheet that
// also holds the currency EUR, builds the element and checks the field.
func runCellCase(t *testing.T, tc cellCase, extra ...xlsxgen.Row) {
	t.Helper()
	header := xlsxgen.Texts(tc.header, "destinationAmount.currency")
	row := xlsxgen.Row{Cells: []xlsxgen.Cell{tc.cell, xlsxgen.S("EUR")}}
	book := xlsxgen.Book{Formats: []string{"yyyy-mm-dd", "000000"}, Sheets: []xlsxgen.Sheet{{Name: "S", Rows: append([]xlsxgen.Row{header, row}, extra...)}}}
	im := importOf(t, "t.xlsx", book.Bytes(), tc.kind)
	if tc.settings != nil {
		if err := im.SetSettings(*tc.settings); err != nil {
			t.Fatal(err)
		}
	}
	m := im.Mapping()
	if m.Columns[0].Field == "" {
		t.Fatalf("header %q is not mapped: %+v", tc.header, m.Columns[0])
	}
	res := im.Build(nil)
	field := m.Columns[0].Field
	got, ok := valueAt(res.Value(0), field)
	gotText := "-"
	if ok {
		gotText = asJSON(got)
	}
	var codes []string
	for _, p := range res.Problems(0) {
		if p.Field == field && p.Severity == schema.Error {
			codes = append(codes, p.Code)
		}
	}
	if gotText != tc.want || (tc.code == "") != (len(codes) == 0) || (tc.code != "" && !slices.Contains(codes, tc.code)) {
		t.Errorf("%s: got %s with problems %v; want %s with %q\n%v", tc.name, gotText, codes, tc.want, tc.code, res.Problems(0))
	}
}

func TestCoercion(t *testing.T) {
	major := &ingest.Settings{Amounts: ingest.Major, Decimal: ",", Group: "."}
	majorUnknown := &ingest.Settings{Amounts: ingest.Major}
	dmy := &ingest.Settings{Amounts: ingest.Minor, DateOrder: "DMY"}
	tests := []cellCase{
		// Ids stay the text the cell shows, and numbers that lost digits are refused.
		{"text id keeps zeros", "transfers", "source.id", xlsxgen.S("0012"), nil, `"0012"`, ""},
		{"number id", "transfers", "source.id", xlsxgen.N("12"), nil, `"12"`, ""},
		{"id in scientific notation", "transfers", "source.id", xlsxgen.N("1.2345678901234568E+18"), nil, "-", "lost-digits"},
		{"16-digit id", "transfers", "source.id", xlsxgen.N("1234567890123456"), nil, "-", "lost-digits"},
		{"zero-padded format", "transfers", "source.id", xlsxgen.Cell{Value: "123", Style: 2}, nil, `"000123"`, ""},
		{"date in an id", "transfers", "source.id", xlsxgen.Cell{Value: "45000", Style: 1}, nil, "-", "date-not-allowed"},
		{"spaces trimmed", "transfers", "profileId", xlsxgen.S("  110321 "), nil, `"110321"`, ""},
		{"empty cell left out", "transfers", "description", xlsxgen.Empty(), nil, "-", ""},
		{"blank text left out", "transfers", "description", xlsxgen.S("   "), nil, "-", ""},
		{"apostrophe of a CSV export", "transfers", "description", xlsxgen.S("'=1+1"), nil, `"=1+1"`, ""},
		// Amounts, minor units by default.
		{"minor number", "transfers", "amount", xlsxgen.N("1050"), nil, "1050", ""},
		{"minor number with decimals", "transfers", "amount", xlsxgen.N("10.5"), &ingest.Settings{Amounts: ingest.Minor}, "-", "amount"},
		{"minor text grouped", "transfers", "amount", xlsxgen.S("1,050"), &ingest.Settings{Amounts: ingest.Minor, Decimal: ".", Group: ","}, "1050", ""},
		{"minor text with decimals", "transfers", "amount", xlsxgen.S("10.50"), &ingest.Settings{Amounts: ingest.Minor, Decimal: "."}, "-", "amount"},
		{"major number", "transfers", "amount", xlsxgen.N("12.34"), major, "1234", ""},
		{"major number float noise", "transfers", "amount", xlsxgen.N("0.30000000000000004"), major, "-", "amount"},
		{"major number as Excel stores a typed 10.2", "transfers", "amount", xlsxgen.N("10.199999999999999"), major, "1020", ""},
		{"major decimal comma", "transfers", "amount", xlsxgen.S("1.234,56"), major, "123456", ""},
		{"major too many decimals", "transfers", "amount", xlsxgen.S("12,345"), major, "-", "amount"},
		{"major ambiguous separators", "transfers", "amount", xlsxgen.S("1.000"), majorUnknown, "-", "amount"},
		{"major unambiguous", "transfers", "amount", xlsxgen.S("12.50"), majorUnknown, "1250", ""},
		{"major without currency", "card_spend_rules", "minTransactionAmount", xlsxgen.S("10.00"), &ingest.Settings{Amounts: ingest.Major, Decimal: "."}, "-", "amount-currency"},
		{"major with import currency", "card_spend_rules", "minTransactionAmount", xlsxgen.S("10.50"), &ingest.Settings{Amounts: ingest.Major, Decimal: ".", Currency: "JPY"}, "-", "amount"},
		{"major with import currency, whole", "card_spend_rules", "maxTransactionAmount", xlsxgen.S("1500"), &ingest.Settings{Amounts: ingest.Major, Decimal: ".", Currency: "JPY"}, "1500", ""},
		// Booleans.
		{"bool cell", "card_spend_rules", "allowAtm", xlsxgen.B(true), nil, "true", ""},
		{"yes", "card_spend_rules", "allowAtm", xlsxgen.S("yes"), nil, "true", ""},
		{"N", "card_spend_rules", "allowAtm", xlsxgen.S("N"), nil, "false", ""},
		{"0 number", "card_spend_rules", "allowAtm", xlsxgen.N("0"), nil, "false", ""},
		{"not a boolean", "card_spend_rules", "allowAtm", xlsxgen.S("maybe"), nil, "-", "not-a-boolean"},
		// Lists from a delimited cell.
		{"list", "card_spend_rules", "allowedMerchantCountries", xlsxgen.S("GB, FR; DE"), nil, `["GB","FR","DE"]`, ""},
		{"list of one number", "card_spend_rules", "blockedMerchantCategories", xlsxgen.N("5411"), nil, `["5411"]`, ""},
		{"roles", "users", "roles", xlsxgen.S("ADMIN"), nil, `["ADMIN"]`, ""},
		// Whole numbers.
		{"integer text", "users", "dateOfBirth.year", xlsxgen.S("1990"), nil, "1990", ""},
		{"integer with decimals", "users", "dateOfBirth.year", xlsxgen.N("1990.5"), nil, "-", "not-a-whole-number"},
		// Dates.
		{"serial to date parts", "users", "date of birth", xlsxgen.Cell{Value: "32874", Style: 1}, nil, `{"day":1,"month":1,"year":1990}`, ""},
		{"ISO text to date parts", "users", "dob", xlsxgen.S("1990-01-31"), nil, `{"day":31,"month":1,"year":1990}`, ""},
		{"day first is clear", "users", "dob", xlsxgen.S("31/12/1990"), nil, `{"day":31,"month":12,"year":1990}`, ""},
		{"ambiguous date", "users", "dob", xlsxgen.S("03/04/1990"), nil, "-", "date"},
		{"date order set", "users", "dob", xlsxgen.S("03/04/1990"), dmy, `{"day":3,"month":4,"year":1990}`, ""},
		{"two-digit year", "users", "dob", xlsxgen.S("03/04/90"), dmy, "-", "date"},
		{"not a date", "users", "dob", xlsxgen.S("soon"), nil, "-", "date"},
		{"serial to date string", "outgoing_wire_transfers", "destinationBeneficiary.dateOfBirth", xlsxgen.Cell{Value: "45000", Style: 1}, nil, `"2023-03-15"`, ""},
		{"phantom leap day", "outgoing_wire_transfers", "destinationBeneficiary.dateOfBirth", xlsxgen.Cell{Value: "60", Style: 1}, nil, "-", "date"},
		// Cells without a value to read.
		{"formula without value", "transfers", "description", xlsxgen.Cell{Formula: "A1", NoValue: true}, nil, "-", "formula-without-value"},
		{"formula with value", "transfers", "description", xlsxgen.Cell{Type: "s", Formula: "\"a\"&\"b\"", Value: "ab"}, nil, `"ab"`, ""},
		{"error cell", "transfers", "description", xlsxgen.Cell{Type: "e", Value: "#N/A"}, nil, "-", "spreadsheet-error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCellCase(t, tc) })
	}
}

func TestLostLeadingZeros(t *testing.T) {
	// Other ids in the column keep their zeros as text: a number that is
	// shorter has lost its own.
	runCellCase(t, cellCase{"number among zero-padded texts", "transfers", "source.id", xlsxgen.N("12345"), nil, "-", "lost-leading-zeros"},
		xlsxgen.Row{Cells: []xlsxgen.Cell{xlsxgen.S("012346")}}, xlsxgen.Row{Cells: []xlsxgen.Cell{xlsxgen.S("012347")}})
}

func TestDate1904(t *testing.T) {
	book := xlsxgen.Book{Date1904: true, Formats: []string{"yyyy-mm-dd"}, Sheets: []xlsxgen.Sheet{{Name: "S", Rows: []xlsxgen.Row{
		xlsxgen.Texts("name", "surname", "email", "dateOfBirth"),
		{Cells: []xlsxgen.Cell{xlsxgen.S("A"), xlsxgen.S("B"), xlsxgen.S("a@example.com"), {Value: "0", Style: 1}}},
	}}}}
	im := importOf(t, "old.xlsx", book.Bytes(), "users")
	res := im.Build(nil)
	if got := asJSON(res.Value(0)["requestBody"].(map[string]any)["dateOfBirth"]); got != `{"day":1,"month":1,"year":1904}` {
		t.Errorf("date %s, problems %v", got, res.Report.Problems)
	}
}

func TestSpendLimitsByPosition(t *testing.T) {
	csv := "card id,spendLimit[0].value.amount,spendLimit[0].value.currency,spendLimit[0].interval,spendLimit.1.value.amount,spendLimit.1.value.currency,spendLimit.1.interval\n" +
		"101,5000,EUR,DAILY,20000,EUR,MONTHLY\n102,100,GBP,ALWAYS,,,\n"
	im := importOf(t, "rules.csv", []byte(csv), "card_spend_rules")
	for _, c := range im.Mapping().Columns {
		if c.Match != ingest.MatchExact && c.Match != ingest.MatchAlias {
			t.Errorf("column %s %q not mapped: %+v", c.Letter, c.Header, c)
		}
	}
	res := im.Build(nil)
	want := []string{
		`{"pathParams":{"_id_":"101"},"requestBody":{"spendLimit":[{"interval":"DAILY","value":{"amount":5000,"currency":"EUR"}},{"interval":"MONTHLY","value":{"amount":20000,"currency":"EUR"}}]}}`,
		`{"pathParams":{"_id_":"102"},"requestBody":{"spendLimit":[{"interval":"ALWAYS","value":{"amount":100,"currency":"GBP"}}]}}`,
	}
	for i, w := range want {
		if got := asJSON(res.Value(i)); got != w {
			t.Errorf("element %d:\n%s\nwant\n%s", i, got, w)
		}
	}
	if len(res.Report.Problems) != 0 {
		t.Errorf("problems %v", res.Report.Problems)
	}
}

func TestHeaderDetectionAndMatching(t *testing.T) {
	csv := "Transfers for November,,,,,,,,\n" +
		"Prepared by finance,,,,,,,,\n" +
		",,,,,,,,\n" +
		"Profile ID,Source_ID,source type,Destination-Id,DESTINATION.TYPE,ccy,Amount (minor units),Referance,Comment\n" +
		"110321,1001,managed_accounts,2001,managed_cards,EUR,1050,Salary,\n"
	im := importOf(t, "t.csv", []byte(csv), "transfers")
	m := im.Mapping()
	if m.HeaderRow != 4 {
		t.Fatalf("header row %d", m.HeaderRow)
	}
	want := map[string]string{
		"A": "profileId exact", "B": "source.id exact", "C": "source.type exact", "D": "destination.id exact",
		"E": "destination.type exact", "F": "destinationAmount.currency alias", "G": "destinationAmount.amount alias",
		"H": " ", "I": " ",
	}
	for _, c := range m.Columns {
		if got := c.Field + " " + string(c.Match); got != want[c.Letter] {
			t.Errorf("column %s %q: %q, want %q", c.Letter, c.Header, got, want[c.Letter])
		}
	}
	if h := m.Columns[7]; len(h.Suggestions) == 0 || h.Suggestions[0] != "description" {
		t.Errorf("suggestions for %q: %v", h.Header, h.Suggestions)
	}
	if len(m.Unmapped()) != 2 {
		t.Errorf("unmapped %v", m.Unmapped())
	}
}

func TestFriendlyPathParamNames(t *testing.T) {
	for kindID, header := range map[string]string{"card_blocks": "Card ID", "card_unblocks": "card_id", "card_removals": "_id_", "user_invites": "User Id"} {
		im := importOf(t, "x.csv", []byte(header+"\n42\n"), kindID)
		res := im.Build(nil)
		if len(res.Elements) != 1 || len(res.Report.Problems) != 0 {
			t.Errorf("%s with %q: %v %v", kindID, header, asJSON(res.Request()), res.Report.Problems)
		}
	}
}

func TestProvenanceOfProblems(t *testing.T) {
	csv := "profileId,source.id,source.type,destination.id,destination.type,currency,amount,Notes\n" +
		"110321,1001,managed_accounts,2001,managed_cards,EUR,1050,\n" + // row 2: valid
		"110321,10-01,managed_accounts,2001,managed_cards,EUR,1050,\n" + // row 3: pattern, column B
		"110321,1001,managed_accounts,2001,,EUR,1050,\n" + // row 4: required, empty cell E
		",,,,,,,just a note\n" + // row 5: left out
		"110321,1001,managed_accounts,2001,managed_cards,EUR,-5,x\n" // row 6: warning in G
	im := importOf(t, "t.csv", []byte(csv), "transfers")
	res := im.Build(nil)
	want := []string{"t!B3 pattern", "t!E4 required", "t!G6 non-positive-amount", "t!H1 unmapped-column", "t!H5 left-out-row"}
	if got := importing.Codes(res.Report); !slices.Equal(got, want) {
		t.Errorf("problems\n%v\nwant\n%v", got, want)
	}
	if res.Report.Elements != 4 || fmt.Sprint(res.Report.InvalidElements()) != "[1 2]" {
		t.Errorf("elements %d invalid %v", res.Report.Elements, res.Report.InvalidElements())
	}
	if i, ok := res.ElementOfRow(6); !ok || i != 3 {
		t.Errorf("element of row 6: %d %v", i, ok)
	}
}

func TestRequiredFieldWithoutColumn(t *testing.T) {
	im := importOf(t, "t.csv", []byte("profileId,source.id\n1,2\n"), "transfers")
	res := im.Build(nil)
	var found bool
	for _, p := range res.Report.Problems {
		if p.Pointer == "/requestBody/destinationAmount" && p.Code == "required" {
			found = true
			if p.Column != "" || p.Row != 2 || !strings.Contains(p.Message, "no column of the file is mapped to it") {
				t.Errorf("problem %+v", p)
			}
		}
	}
	if !found {
		t.Errorf("no required problem: %v", res.Report.Problems)
	}
}

func TestSpreadsheetWarnings(t *testing.T) {
	book := xlsxgen.Book{Sheets: []xlsxgen.Sheet{
		{Name: "Cover", Rows: []xlsxgen.Row{xlsxgen.Texts("nothing here")}, State: "hidden"},
		{Name: "Blocks", Merged: []string{"A3:A4"}, Rows: []xlsxgen.Row{
			xlsxgen.Texts("card id", "note"),
			{Cells: []xlsxgen.Cell{{Formula: "100+1", Value: "101"}}},
			{Cells: []xlsxgen.Cell{xlsxgen.N("102"), xlsxgen.S("merged below")}},
			{Cells: []xlsxgen.Cell{xlsxgen.Empty(), xlsxgen.S("x")}},
			{Hidden: true, Cells: []xlsxgen.Cell{xlsxgen.N("105")}},
		}},
	}}
	im := importOf(t, "b.xlsx", book.Bytes(), "card_blocks")
	res := im.Build(nil)
	want := []string{"Blocks column A formula", "Blocks row 5 hidden-row", "Blocks!A4 merged-cell", "Blocks!B1 unmapped-column"}
	if got := importing.Codes(res.Report); !slices.Equal(got, want) {
		t.Errorf("problems\n%v\nwant\n%v", got, want)
	}
}

func TestMappingEditsAndFiles(t *testing.T) {
	im := importOf(t, "t.csv", []byte("Payer,Amt,ccy\n1001,1050,EUR\n"), "transfers")
	m := im.Mapping()
	if m.Columns[0].Field != "" || m.Columns[1].Field != "" || m.Columns[2].Field != "destinationAmount.currency" {
		t.Fatalf("automatic mapping %+v", m.Columns)
	}
	if err := m.Set(0, "source.id"); err != nil {
		t.Fatal(err)
	}
	if err := m.Set(1, "destinationAmount.amount"); err != nil {
		t.Fatal(err)
	}
	if err := im.SetMapping(m); err != nil {
		t.Fatal(err)
	}
	data, err := ingest.MarshalMapping(im.Mapping())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"header": "Payer"`) || strings.Contains(string(data), "suggestions") {
		t.Errorf("mapping file:\n%s", data)
	}
	// The same export next month, columns in another order and a new one.
	next := importOf(t, "n.csv", []byte("Notes,ccy,Amt,Payer\nx,EUR,2000,1002\n"), "transfers")
	saved, err := ingest.UnmarshalMapping(data)
	if err != nil {
		t.Fatal(err)
	}
	missing, err := next.UseSavedMapping(saved)
	if err != nil || len(missing) != 0 {
		t.Fatalf("use saved: %v %v", missing, err)
	}
	res := next.Build(nil)
	body := res.Value(0)["requestBody"].(map[string]any)
	if asJSON(body["source"]) != `{"id":"1002"}` || asJSON(body["destinationAmount"]) != `{"amount":2000,"currency":"EUR"}` {
		t.Errorf("element %s", asJSON(body))
	}
	for _, bad := range []struct {
		set  map[int]string
		want string
	}{
		{map[int]string{0: "nope"}, `has no field "nope"`},
		{map[int]string{0: "source.id", 1: "source.id"}, "both fill source.id"},
		{map[int]string{0: "source"}, `has no field "source"`},
	} {
		m := im.Mapping()
		for col, f := range bad.set {
			m.Set(col, f)
		}
		if err := im.SetMapping(m); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("SetMapping %v: %v", bad.set, err)
		}
	}
	if _, err := ingest.UnmarshalMapping([]byte(`{"kind": "transfers", "colums": []}`)); err == nil {
		t.Error("a misspelt key was accepted")
	}
	if _, err := next.UseSavedMapping(ingest.Mapping{Kind: "sends"}); err == nil {
		t.Error("a mapping of another kind was used")
	}
}

func TestOverlappingTargetsRefused(t *testing.T) {
	im := importOf(t, "u.csv", []byte("dob,year\n1990-01-01,1990\n"), "users")
	m := im.Mapping()
	m.Set(0, "dateOfBirth")
	m.Set(1, "dateOfBirth.year")
	if err := im.SetMapping(m); err == nil || !strings.Contains(err.Error(), "overlaps") {
		t.Errorf("overlap: %v", err)
	}
}

func TestSettingsDetection(t *testing.T) {
	tests := []struct {
		name, csv string
		want      ingest.Settings
	}{
		{"minor integers", "amount,currency\n1050,EUR\n20,EUR\n", ingest.Settings{Amounts: ingest.Minor}},
		{"decimal comma", "amount;currency\n1.234,56;EUR\n12,50;EUR\n", ingest.Settings{Amounts: ingest.Major, Decimal: ",", Group: "."}},
		{"one decimal among whole numbers", "amount,currency\n25000,EUR\n150075,USD\n30.50,EUR\n1999,GBP\n", ingest.Settings{Amounts: ingest.Minor, Decimal: ".", Group: ","}},
		{"too few decimals", "amount;currency\n1.234,56;EUR\n12,5;EUR\n", ingest.Settings{Amounts: ingest.Minor, Decimal: ",", Group: "."}},
		{"decimal point", "amount,currency\n\"1,234.56\",EUR\n", ingest.Settings{Amounts: ingest.Major, Decimal: ".", Group: ","}},
		{"space groups", "amount;currency\n1 234,56;EUR\n", ingest.Settings{Amounts: ingest.Major, Decimal: ",", Group: " "}},
		{"only ambiguous", "amount;currency\n1.000;EUR\n", ingest.Settings{Amounts: ingest.Minor}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			im := importOf(t, "a.csv", []byte(tc.csv), "transfers")
			if got := im.Settings(); got != tc.want {
				t.Errorf("settings %+v, want %+v", got, tc.want)
			}
		})
	}
	im := importOf(t, "u.csv", []byte("name,dob\nA,25/12/1990\nB,01/02/1990\n"), "users")
	if im.Settings().DateOrder != ingest.DMY {
		t.Errorf("date order %+v", im.Settings())
	}
	if err := im.SetSettings(ingest.Settings{Amounts: "cents"}); err == nil {
		t.Error("bad settings accepted")
	}
}

func TestExamplesShowRawAndParsed(t *testing.T) {
	im := importOf(t, "a.csv", []byte("amount;currency\n1.234,56;EUR\n7;JPY\n12,345;EUR\n"), "transfers")
	if err := im.SetSettings(ingest.Settings{Amounts: ingest.Major, Decimal: ",", Group: "."}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range im.Examples() {
		got = append(got, fmt.Sprintf("%s%d %s → %s%s", e.Column, e.Row, e.Raw, e.Parsed, e.Error))
	}
	want := []string{
		`A4 12,345 → "12,345" has more decimals than the currency's 2: amounts are never rounded, correct the value`,
		"A2 1.234,56 → EUR 1,234.56",
		"A3 7 → JPY 7",
	}
	if !slices.Equal(got, want) {
		t.Errorf("examples\n%q\nwant\n%q", got, want)
	}
}

func TestEditCellRebuildsOneRow(t *testing.T) {
	csv := "card id,note\n101,\nabc,\n,only a note\n103,\n"
	im := importOf(t, "c.csv", []byte(csv), "card_blocks")
	res := im.Build(nil)
	if got := importing.Codes(res.Report); !slices.Equal(got, []string{"c!A3 pattern", "c!B1 unmapped-column", "c!B4 left-out-row"}) {
		t.Fatalf("before: %v", got)
	}
	// Fix row 3.
	ps, err := im.EditCell(3, 0, "102")
	if err != nil || len(ps) != 0 {
		t.Fatalf("edit: %v %v", ps, err)
	}
	if got := importing.Codes(res.Report); !slices.Equal(got, []string{"c!B1 unmapped-column", "c!B4 left-out-row"}) {
		t.Errorf("after fix: %v", got)
	}
	// Fill the left-out row: it becomes an element, in file order.
	ps, err = im.EditCell(4, 0, "1x")
	if err != nil || len(ps) != 1 || ps[0].Row != 4 || ps[0].Element != 2 {
		t.Fatalf("new element: %+v %v", ps, err)
	}
	if got := asJSON(res.Request()); got != `[{"pathParams":{"_id_":"101"}},{"pathParams":{"_id_":"102"}},{"pathParams":{"_id_":"1x"}},{"pathParams":{"_id_":"103"}}]` {
		t.Errorf("request %s", got)
	}
	if i, _ := res.ElementOfRow(5); i != 3 || res.Report.Elements != 4 {
		t.Errorf("row 5 is element %d of %d", i, res.Report.Elements)
	}
	if got := importing.Codes(res.Report); !slices.Equal(got, []string{"c!A4 pattern", "c!B1 unmapped-column"}) {
		t.Errorf("after new row: %v", got)
	}
	if _, err := im.EditCell(1, 0, "x"); err == nil {
		t.Error("the header row was edited as data")
	}
	// A row below the table becomes a new last element.
	if _, err := im.EditCell(9, 0, "109"); err != nil || len(res.Elements) != 5 || res.Elements[4].Row != 9 {
		t.Errorf("appended row: %v %d", err, len(res.Elements))
	}
}

func TestBuildReportsProgress(t *testing.T) {
	var b strings.Builder
	b.WriteString("card id\n")
	for i := range 1234 {
		fmt.Fprintf(&b, "%d\n", 1000+i)
	}
	im := importOf(t, "c.csv", []byte(b.String()), "card_blocks")
	var seen []string
	res := im.Build(func(n, total int) { seen = append(seen, fmt.Sprintf("%d/%d", n, total)) })
	if fmt.Sprint(seen) != "[500/1234 1000/1234 1234/1234]" || len(res.Elements) != 1234 || !res.Report.Valid() {
		t.Errorf("progress %v, %d elements", seen, len(res.Elements))
	}
}

func TestTooManyRowsAreCountedAndSplitOffered(t *testing.T) {
	var b strings.Builder
	b.WriteString("card id\n")
	for i := range schema.MaxElements + 5 {
		fmt.Fprintf(&b, "%d\n", i+1)
	}
	im := importOf(t, "c.csv", []byte(b.String()), "card_blocks")
	if im.DataRows() != schema.MaxElements+5 {
		t.Errorf("data rows %d", im.DataRows())
	}
	res := im.Build(nil)
	errs := res.Report.Errors()
	if len(errs) != 1 || errs[0].Code != "too-many-elements" || !strings.Contains(errs[0].Message, "10,005 elements") || !strings.Contains(errs[0].Message, "split it into 2 bulks") {
		t.Errorf("errors %v", errs)
	}
}

func TestEmptyAndHeaderOnly(t *testing.T) {
	for name, csv := range map[string]string{"header only": "card id\n", "nothing mapped": "foo\n1\n"} {
		im := importOf(t, "c.csv", []byte(csv), "card_blocks")
		res := im.Build(nil)
		errs := res.Report.Errors()
		if len(errs) != 1 || errs[0].Code != "empty" {
			t.Errorf("%s: %v", name, errs)
		}
	}
}

func TestWhere(t *testing.T) {
	for _, tc := range []struct {
		p    schema.Problem
		want string
	}{
		{schema.Problem{Sheet: "Transfers", Row: 14, Column: "F"}, "Transfers!F14"},
		{schema.Problem{Sheet: "Pay run", Row: 2, Column: "AB"}, "'Pay run'!AB2"},
		{schema.Problem{Sheet: "S", Row: 3}, "S row 3"},
		{schema.Problem{Sheet: "S", Column: "C"}, "S column C"},
		{schema.Problem{Row: 3, Column: "amount"}, "item 3, amount"},
		{schema.Problem{Element: 2, Pointer: "/x"}, ""},
	} {
		if got := ingest.Where(tc.p); got != tc.want {
			t.Errorf("Where(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestJSONTableImport(t *testing.T) {
	data := `[{"profileId": "1", "source.id": "10", "source.type": "managed_accounts", "destination.id": 20, "destination.type": "managed_cards", "currency": "EUR", "amount": 12.5}]`
	im := importOf(t, "rows.json", []byte(data), "transfers")
	if im.Settings().Amounts != ingest.Major {
		t.Errorf("detected %+v", im.Settings())
	}
	im.SetSettings(ingest.Settings{Amounts: ingest.Minor})
	res := im.Build(nil)
	if got := importing.Codes(res.Report); !slices.Equal(got, []string{"item 1, amount amount"}) {
		t.Errorf("problems %v", got)
	}
	im.SetSettings(ingest.Settings{Amounts: ingest.Major})
	res = im.Build(nil)
	if !res.Report.Valid() || asJSON(res.Request()) != `[{"requestBody":{"destination":{"id":"20","type":"managed_cards"},"destinationAmount":{"amount":1250,"currency":"EUR"},"profileId":"1","source":{"id":"10","type":"managed_accounts"}}}]` {
		t.Errorf("request %s problems %v", asJSON(res.Request()), res.Report.Problems)
	}
}

func TestTemplateExampleRowIsLeftOut(t *testing.T) {
	k := fixture.Kind("card_blocks")
	cols := ingest.TemplateColumns(k, fixture.Validator().Fields(k))
	header, example := cols[0].Header, cols[0].Example
	for _, tc := range []struct {
		name, csv string
		rows      []int
		problems  []string
	}{
		{"example first", header + "\n" + example + "\n101\n", []int{3}, []string{"c row 2 example-row"}},
		{"example value further down", header + "\n101\n" + example + "\n", []int{2, 3}, nil},
		{"example changed", header + "\n" + example + "9\n", []int{2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := importOf(t, "c.csv", []byte(tc.csv), "card_blocks")
			res := im.Build(nil)
			var rows []int
			for _, e := range res.Elements {
				rows = append(rows, e.Row)
			}
			if !slices.Equal(rows, tc.rows) || !slices.Equal(importing.Codes(res.Report), tc.problems) {
				t.Errorf("rows %v problems %v", rows, importing.Codes(res.Report))
			}
		})
	}
}

// TestRowsDoNotShareValues: the containers reused while checking must not
// carry one row's values into the next.
func TestRowsDoNotShareValues(t *testing.T) {
	csv := "card id,allowAtm,spendLimit[0].value.amount,spendLimit[0].value.currency,spendLimit[0].interval\n" +
		"101,TRUE,500,EUR,DAILY\n" +
		"102,,,,\n"
	im := importOf(t, "c.csv", []byte(csv), "card_spend_rules")
	res := im.Build(nil)
	if got := importing.Codes(res.Report); !slices.Equal(got, []string{"c!B3 no-change"}) {
		t.Errorf("problems %v", got)
	}
	if got := asJSON(res.Value(1)); got != `{"pathParams":{"_id_":"102"},"requestBody":{}}` {
		t.Errorf("second element %s", got)
	}
}

func TestCancelledBuildAndRead(t *testing.T) {
	var b strings.Builder
	b.WriteString("card id\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d\n", 1000+i)
	}
	f, err := ingest.Open("c.csv", []byte(b.String()), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var reads []string
	_, err = f.TableContext(ctx, "", func(n, total int) {
		reads = append(reads, fmt.Sprintf("%d/%d", n, total))
		if n >= 1000 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || fmt.Sprint(reads) != "[500/3001 1000/3001]" {
		t.Errorf("read: %v, progress %v", err, reads)
	}
	tab, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	im := ingest.NewImport(tab, fixture.Kind("card_blocks"), fixture.Validator())
	first := im.Build(nil)
	ctx, cancel = context.WithCancel(context.Background())
	_, err = im.BuildContext(ctx, func(n, total int) {
		if n >= 1000 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || im.Result() != first {
		t.Errorf("build: %v; the last complete result kept: %v", err, im.Result() == first)
	}
}
