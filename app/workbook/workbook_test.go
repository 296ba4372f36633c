package workbook_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

func importBytes(t *testing.T, name string, data []byte, k *schema.Kind) (*ingest.Import, *ingest.Result) {
	t.Helper()
	im := importing.Import(t, name, data, k)
	return im, im.Build(nil)
}

// TestTemplatesImportWithoutMapping writes every kind's template, fills
// in a row by hand and imports it: every column maps by itself and the
// example row is left out.
func TestTemplatesImportWithoutMapping(t *testing.T) {
	filled := map[string]map[string]any{
		"users":                   {"name *": "Ada", "surname *": "Lovelace", "email *": "ada@example.com", "dateOfBirth": "1990-12-10"},
		"user_invites":            {"User id *": "00123"},
		"card_blocks":             {"Card id *": "00124"},
		"card_unblocks":           {"Card id *": "125"},
		"card_removals":           {"Card id *": "126"},
		"card_spend_rules":        {"Card id *": "127", "allowAtm": false, "spendLimit[0].value.currency": "EUR", "spendLimit[0].value.amount": 5000, "spendLimit[0].interval": "DAILY"},
		"transfers":               {"profileId *": "110321", "source.id *": "0001", "source.type *": "managed_accounts", "destination.id *": "0002", "destination.type *": "managed_cards", "destinationAmount.currency *": "EUR", "destinationAmount.amount *": 1050},
		"sends":                   {"profileId *": "110321", "source.id *": "1", "source.type *": "managed_accounts", "destination.beneficiaryId": "77", "destinationAmount.currency *": "GBP", "destinationAmount.amount *": 99},
		"outgoing_wire_transfers": {"profileId *": "110321", "sourceInstrument.type *": "managed_accounts", "sourceInstrument.id *": "5", "transferAmount.currency *": "EUR", "transferAmount.amount *": 100000, "destinationBeneficiary.beneficiaryId": "88", "description": "Invoice 42"},
	}
	for _, k := range schema.Kinds() {
		t.Run(k.ID, func(t *testing.T) {
			v := fixture.Validator()
			data, err := workbook.TemplateXLSX(k, v.Fields(k), lang.English)
			if err != nil {
				t.Fatal(err)
			}
			f, err := excelize.OpenReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if sheets := f.GetSheetList(); sheets[0] != k.ID || !slices.Contains(sheets, "Fields") {
				t.Errorf("sheets %v", sheets)
			}
			header, _ := f.GetRows(k.ID)
			for col, h := range header[0] {
				value, ok := filled[k.ID][h]
				if !ok {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(col+1, 3)
				if err := f.SetCellValue(k.ID, cell, value); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if _, err := f.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			im, res := importBytes(t, "filled.xlsx", buf.Bytes(), k)
			m := im.Mapping()
			if len(m.Unmapped()) != 0 || len(m.Mapped()) != len(header[0]) || m.HeaderRow != 1 {
				t.Errorf("mapping: header row %d, unmapped %+v", m.HeaderRow, m.Unmapped())
			}
			if got := importing.Codes(res.Report); !slices.Equal(got, []string{k.ID + " row 2 example-row"}) {
				t.Errorf("problems %v", res.Report.Problems)
			}
			if len(res.Elements) != 1 || res.Elements[0].Row != 3 {
				t.Fatalf("elements %+v", res.Elements)
			}
			body, _ := json.Marshal(res.Value(0))
			// Ids typed into text columns keep their leading zeros.
			if k.ID == "card_blocks" && string(body) != `{"pathParams":{"_id_":"00124"}}` {
				t.Errorf("element %s", body)
			}
			if k.ID == "transfers" && !strings.Contains(string(body), `"source":{"id":"0001","type":"managed_accounts"}`) {
				t.Errorf("element %s", body)
			}
		})
	}
}

func TestTemplateDetails(t *testing.T) {
	k, _ := schema.Lookup("card_spend_rules")
	v := fixture.Validator()
	fields := slices.Clone(v.Fields(k))
	// A field with a long list of values goes to the hidden Lists sheet.
	long := make([]string, 60)
	for i := range long {
		long[i] = "VALUE_NUMBER_" + strings.Repeat("X", i%5)
	}
	for i := range fields {
		if fields[i].Path == "updateSpendLimitMethod" {
			fields[i].Enum = long
		}
	}
	data, err := workbook.TemplateXLSX(k, fields, lang.English)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if visible, _ := f.GetSheetVisible("Lists"); visible {
		t.Error("the Lists sheet is visible")
	}
	dvs, err := f.GetDataValidations(k.ID)
	if err != nil {
		t.Fatal(err)
	}
	var lists []string
	for _, dv := range dvs {
		lists = append(lists, dv.Sqref+" "+dv.Formula1)
	}
	for _, want := range []string{`H2:H10001 "TRUE,FALSE"`, `Q2:Q10001 "DAILY,WEEKLY,MONTHLY,QUARTERLY,YEARLY,ALWAYS"`, "T2:T10001 Lists!$A$1:$A$60"} {
		if !slices.ContainsFunc(lists, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("no dropdown %q in %v", want, lists)
		}
	}
	panes, _ := f.GetPanes(k.ID)
	if !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("header not frozen: %+v", panes)
	}
	// Id columns are formatted as text.
	style, _ := f.GetCellStyle(k.ID, "A2")
	s, _ := f.GetStyle(style)
	if s.CustomNumFmt == nil || *s.CustomNumFmt != "@" {
		t.Errorf("card id column style %+v", s)
	}
	rows, _ := f.GetRows("Fields")
	var found bool
	for _, r := range rows {
		if len(r) >= 5 && r[2] == "pathParams._id_" {
			found = r[1] == "Card id *" && r[3] == "required" && strings.Contains(r[4], "digits only")
		}
	}
	if !found {
		t.Errorf("Fields sheet lacks the card id: %v", rows[:6])
	}
}

func TestEveryCSVTemplateLeavesItsExampleOut(t *testing.T) {
	for _, k := range schema.Kinds() {
		data, err := workbook.TemplateCSV(k, fixture.Validator().Fields(k))
		if err != nil {
			t.Fatal(err)
		}
		im, res := importBytes(t, k.ID+".csv", data, k)
		if len(im.Mapping().Unmapped()) != 0 || len(res.Elements) != 0 || !slices.Contains(importing.Codes(res.Report), k.ID+" row 2 example-row") {
			t.Errorf("%s: unmapped %v, %d elements, problems %v", k.ID, im.Mapping().Unmapped(), len(res.Elements), importing.Codes(res.Report))
		}
	}
}

func TestTemplateCSV(t *testing.T) {
	k, _ := schema.Lookup("transfers")
	v := fixture.Validator()
	data, err := workbook.TemplateCSV(k, v.Fields(k))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "\ufeffprofileId *,tag,source.id *,") {
		t.Errorf("csv template %q", data)
	}
	filled := append(data, []byte("110321,,1,managed_accounts,,2,managed_cards,EUR,1050,\n")...)
	_, res := importBytes(t, "t.csv", filled, k)
	if len(res.Elements) != 1 || !res.Report.Valid() || len(res.Report.Problems) != 1 || res.Report.Problems[0].Code != "example-row" {
		t.Errorf("import: %d elements, %v", len(res.Elements), res.Report.Problems)
	}
}

// TestErrorWorkbookRoundTrip exports a file with problems, checks the
// marks, corrects the cells as an operator would and imports it again.
func TestErrorWorkbookRoundTrip(t *testing.T) {
	k, _ := schema.Lookup("transfers")
	csv := "Payroll\n" +
		"profileId,source.id,source.type,destination.id,destination.type,currency,amount,description\n" +
		"110321,1001,managed_accounts,2001,managed_cards,EUR,1050,Salary\n" +
		"110321,10x1,managed_accounts,2002,managed_cards,EUR,-5,Pay €\n"
	im, res := importBytes(t, "pay.csv", []byte(csv), k)
	if got := importing.Codes(res.Report); !slices.Equal(got, []string{"pay!B4 pattern", "pay!G4 non-positive-amount", "pay!H4 pattern"}) {
		t.Fatalf("problems %v", got)
	}
	data, err := workbook.ErrorWorkbook(im.Table, im.Mapping().HeaderRow, res.Report, lang.English)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.GetSheetName(0) != "pay" {
		t.Errorf("sheet %q", f.GetSheetName(0))
	}
	fill := func(cell string) string {
		id, _ := f.GetCellStyle("pay", cell)
		s, _ := f.GetStyle(id)
		if len(s.Fill.Color) == 0 {
			return ""
		}
		return s.Fill.Color[0]
	}
	if fill("B4") != "FFC7CE" || fill("G4") != "FFEB9C" || fill("B3") != "" {
		t.Errorf("fills B4 %q G4 %q B3 %q", fill("B4"), fill("G4"), fill("B3"))
	}
	comments, _ := f.GetComments("pay")
	var commented []string
	for _, c := range comments {
		commented = append(commented, c.Cell)
		if c.Cell == "B4" && !strings.Contains(c.Text, "source.id must be digits only") {
			t.Errorf("comment of B4: %q", c.Text)
		}
	}
	slices.Sort(commented)
	if !slices.Equal(commented, []string{"B4", "G4", "H4"}) {
		t.Errorf("comments on %v", commented)
	}
	if h, _ := f.GetCellValue("pay", "I2"); h != "Errors" {
		t.Errorf("errors header %q", h)
	}
	if e, _ := f.GetCellValue("pay", "I4"); !strings.Contains(e, "B: error: source.id must be digits only") {
		t.Errorf("errors cell %q", e)
	}
	if e, _ := f.GetCellValue("pay", "I3"); e != "" {
		t.Errorf("a valid row has errors: %q", e)
	}
	// The operator corrects the cells and imports the workbook again.
	f.SetCellStr("pay", "B4", "1002")
	f.SetCellDefault("pay", "G4", "500")
	f.SetCellStr("pay", "H4", "Bonus")
	var fixed bytes.Buffer
	f.WriteTo(&fixed)
	im2, res2 := importBytes(t, "pay-errors.xlsx", fixed.Bytes(), k)
	if len(im2.Mapping().Unmapped()) != 0 || !res2.Report.Valid() || len(res2.Report.Problems) != 0 || len(res2.Elements) != 2 {
		t.Errorf("re-import: unmapped %v, problems %v", im2.Mapping().Unmapped(), res2.Report.Problems)
	}
}
