package workbook_test

import (
	"bytes"
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
		if c.Cell == "B4" && !strings.Contains(c.Text, "source.id may contain only digits") {
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
	if e, _ := f.GetCellValue("pay", "I4"); !strings.Contains(e, "B: error: source.id may contain only digits") {
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
