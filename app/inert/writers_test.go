package inert_test

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/export"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// TestEveryWriterWritesOperatorDataInert feeds every risky value through
// every writer of files an operator opens (the error CSV, the manifest,
// the templates, the error, elements and result workbooks, the receipt as
// JSON and as a page) and reads what each wrote as a spreadsheet program
// would: no value may begin like a formula, unless escaped.
func TestEveryWriterWritesOperatorDataInert(t *testing.T) {
	k, _ := schema.Lookup("transfers")
	im := importing.Import(t, "pay.xlsx", attackerWorkbook(t), k)
	res := im.Build(nil)
	header := im.Mapping().HeaderRow

	t.Run("error CSV", func(t *testing.T) {
		data, err := export.TableCSV(im.Table, header, res.Report, lang.English)
		if err != nil {
			t.Fatal(err)
		}
		seen := csvInert(t, data)
		wantAll(t, seen, Risky)
		// A number stays a number, and so does text that is a number.
		wantAll(t, seen, []string{"-5"})
		// Imported again, every cell is what it was.
		back := importing.Import(t, "pay.errors.csv", data, k).Table
		for _, r := range im.Table.Rows {
			for c, cell := range r.Cells {
				if got := back.Rows[back.RowIndex(r.Number)].Cell(c).Value; inert.Strip(got) != cell.Value {
					t.Errorf("row %d column %d came back as %q, want %q", r.Number, c, got, cell.Value)
				}
			}
		}
	})
	t.Run("error CSV of cells read as numbers", func(t *testing.T) {
		data, err := export.TableCSV(numberTable(), 1, &schema.Report{}, lang.English)
		if err != nil {
			t.Fatal(err)
		}
		wantAll(t, csvInert(t, data), Risky)
	})
	t.Run("manifest", func(t *testing.T) {
		d, err := review.FromImport(im, false, Risky[7])
		if err != nil {
			t.Fatal(err)
		}
		data, err := export.Manifest(d, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		seen := csvInert(t, data)
		wantAll(t, seen, Risky[7:8])
		// A source is named by its type and id, read as text is read.
		for _, v := range Risky {
			v = strings.TrimSpace(v)
			wantAll(t, seen, []string{v + " " + v})
		}
		wantAll(t, seen, []string{"-5", "EUR -0.05"}) // the total of -5 cents
	})
	fields := riskyFields()
	t.Run("CSV template", func(t *testing.T) {
		data, err := workbook.TemplateCSV(k, fields)
		if err != nil {
			t.Fatal(err)
		}
		wantAll(t, csvInert(t, data), Risky)
	})
	t.Run("xlsx template", func(t *testing.T) {
		data, err := workbook.TemplateXLSX(k, fields, lang.English)
		if err != nil {
			t.Fatal(err)
		}
		values, _ := xlsxInert(t, data)
		wantAll(t, values, Risky)
	})
	t.Run("error workbook", func(t *testing.T) {
		data, err := workbook.ErrorWorkbook(im.Table, header, res.Report, lang.English)
		if err != nil {
			t.Fatal(err)
		}
		values, numbers := xlsxInert(t, data)
		wantAll(t, values, Risky)
		wantAll(t, numbers, []string{"-5", "-10"}) // a number, and a formula's result
		// Imported again, every cell holds the same value, of the same kind.
		back := importing.Import(t, "pay.errors.xlsx", data, k).Table
		for _, r := range im.Table.Rows {
			for c, cell := range r.Cells {
				got := back.Rows[back.RowIndex(r.Number)].Cell(c)
				if got.Value != cell.Value || got.Kind != cell.Kind {
					t.Errorf("row %d column %d came back as %q (kind %d), want %q (kind %d)", r.Number, c, got.Value, got.Kind, cell.Value, cell.Kind)
				}
			}
		}
	})
	t.Run("error workbook of cells read as numbers", func(t *testing.T) {
		data, err := workbook.ErrorWorkbook(numberTable(), 1, &schema.Report{}, lang.English)
		if err != nil {
			t.Fatal(err)
		}
		values, _ := xlsxInert(t, data)
		wantAll(t, values, Risky)
	})
	elements := riskyElements(t)
	t.Run("elements workbook", func(t *testing.T) {
		data, err := workbook.ElementsWorkbook(k, fixture.Validator().Fields(k), elements, Risky)
		if err != nil {
			t.Fatal(err)
		}
		values, numbers := xlsxInert(t, data)
		wantAll(t, values, Risky)
		wantAll(t, numbers, []string{"-5"})
	})
	t.Run("result workbook", func(t *testing.T) {
		var results []workbook.Result
		for i, v := range Risky {
			results = append(results, workbook.Result{Element: i, Sheet: v, Row: i + 2, BulkID: v, Status: v, Error: v, Response: v, OperationID: v})
		}
		data, err := workbook.ResultWorkbook(k, fixture.Validator().Fields(k), results, elements, Risky)
		if err != nil {
			t.Fatal(err)
		}
		values, numbers := xlsxInert(t, data)
		wantAll(t, values, Risky)
		wantAll(t, numbers, []string{"-5"})
	})
	receipt := riskyReceipt()
	t.Run("receipt JSON", func(t *testing.T) {
		data, err := receipt.MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		jsonInert(t, data)
		back, err := bulkreview.ReadReceipt(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, receipt) {
			t.Errorf("the receipt read back is\n%+v\nwant\n%+v", back, receipt)
		}
	})
	t.Run("receipt page", func(t *testing.T) {
		page, err := receipt.HTML()
		if err != nil {
			t.Fatal(err)
		}
		seen := htmlInert(t, page)
		wantAll(t, seen, Risky)
		back, err := bulkreview.ReadReceipt(page)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, receipt) {
			t.Errorf("the receipt read back from its page is\n%+v\nwant\n%+v", back, receipt)
		}
	})
}

// attackerWorkbook is a transfers sheet whose cells are stored as numbers
// (no type) but hold the risky values, beside a real number, text that is
// a number, and a formula with its result.
func attackerWorkbook(t *testing.T) []byte {
	var rows strings.Builder
	rows.WriteString(`<row r="1">`)
	for i, h := range []string{"profileId", "source.id", "source.type", "destination.id", "destination.type", "currency", "amount", "description"} {
		fmt.Fprintf(&rows, `<c r="%c1" t="inlineStr"><is><t>%s</t></is></c>`, 'A'+i, h)
	}
	rows.WriteString(`</row>`)
	n := 2
	for _, v := range Risky {
		x := xmlText(v)
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%[1]d"><v>110321</v></c><c r="B%[1]d"><v>%[2]s</v></c><c r="C%[1]d"><v>%[2]s</v></c><c r="D%[1]d"><v>2001</v></c>`+
			`<c r="E%[1]d" t="inlineStr"><is><t>managed_cards</t></is></c><c r="F%[1]d"><v>%[2]s</v></c><c r="G%[1]d"><v>%[2]s</v></c><c r="H%[1]d"><v>%[2]s</v></c></row>`, n, x)
		n++
	}
	fmt.Fprintf(&rows, `<row r="%d"><c r="A%[1]d"><v>110321</v></c><c r="B%[1]d"><v>1001</v></c><c r="C%[1]d" t="inlineStr"><is><t>managed_accounts</t></is></c><c r="D%[1]d"><v>2001</v></c>`+
		`<c r="E%[1]d" t="inlineStr"><is><t>managed_cards</t></is></c><c r="F%[1]d" t="inlineStr"><is><t>EUR</t></is></c><c r="G%[1]d"><v>-5</v></c><c r="H%[1]d" t="inlineStr"><is><t>-5</t></is></c><c r="I%[1]d"><f>G%[1]d*2</f><v>-10</v></c></row>`, n)
	return zipOf(t, map[string]string{
		"xl/workbook.xml":            `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Pay" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml":   `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + rows.String() + `</sheetData></worksheet>`,
	})
}

func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\t", "&#9;", "\r", "&#13;").Replace(s)
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// numberTable is a table whose cells are marked as numbers but hold the
// risky values: the writers must judge a value by what it is.
func numberTable() *ingest.Table {
	t := &ingest.Table{Sheet: "Numbers", Format: ingest.XLSX, Formats: []string{""}, Rows: []ingest.Row{{Number: 1, Cells: []ingest.Cell{{Kind: ingest.Text, Value: "value"}}}}}
	for i, v := range Risky {
		t.Rows = append(t.Rows, ingest.Row{Number: i + 2, Cells: []ingest.Cell{{Kind: ingest.Number, Value: v}}})
	}
	return t
}

// riskyFields are fields of a contract whose examples and descriptions are
// the risky values.
func riskyFields() []schema.Field {
	var fields []schema.Field
	for i, v := range Risky {
		fields = append(fields, schema.Field{Path: fmt.Sprintf("requestBody.note%d", i), Type: "string", Enum: []string{v, "b"}, Title: v, Description: v})
	}
	return fields
}

// riskyElements are transfers whose descriptions are the risky values,
// with an amount of -5.
func riskyElements(t *testing.T) []any {
	var out []any
	for _, v := range Risky {
		body, _ := json.Marshal(v)
		e, _, err := schema.DecodeJSON([]byte(`{"requestBody":{"profileId":"110321","source":{"type":"managed_accounts","id":"1"},"destination":{"type":"managed_cards","id":"2"},"destinationAmount":{"currency":"EUR","amount":-5},"description":` + string(body) + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// riskyReceipt is a receipt whose file, maker, reading, invalid currency
// codes, sources and bulks are the risky values.
func riskyReceipt() *bulkreview.Receipt {
	r := &bulkreview.Receipt{Version: bulkreview.ReceiptVersion, File: Risky[0], Kind: "transfers", API: bulkreview.Standard, Submission: Risky[1],
		Reading: Risky, SubmittedBy: Risky[2], SubmittedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Elements: len(Risky),
		Totals: []bulkreview.Amount{{InvalidCurrency: true, Codes: Risky, Count: len(Risky), Minor: "-5", Amount: "-0.05"}}}
	for i, v := range Risky {
		r.Sources = append(r.Sources, bulkreview.SourceAmounts{Source: v, Count: 1})
		r.Chunks = append(r.Chunks, bulkreview.ReceiptChunk{Chunk: i + 1, BulkID: v, Elements: 1, SHA256: "ab", SentSHA256: "ab"})
	}
	return r
}

// wantAll fails unless every value was written.
func wantAll(t *testing.T, seen map[string]bool, values []string) {
	t.Helper()
	for _, v := range values {
		if !seen[v] {
			t.Errorf("%q was not written", v)
		}
	}
}

// csvInert reads CSV as a spreadsheet program does and returns the values
// it holds, apostrophes removed. No field may begin like a formula, and
// an escaped one must be quoted.
func csvInert(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	seen := map[string]bool{}
	for _, rec := range recs {
		for _, f := range rec {
			if inert.Formula(f) {
				t.Errorf("the field %q runs as a formula", f)
			}
			if f != inert.Strip(f) && !bytes.Contains(data, []byte(`"`+strings.ReplaceAll(f, `"`, `""`)+`"`)) {
				t.Errorf("the escaped field %q is not quoted", f)
			}
			seen[inert.Strip(f)] = true
		}
	}
	return seen
}

// xlsxInert opens a workbook with excelize and returns the values of its
// cells, and those of its number cells. No cell may hold a formula, a
// text that begins like one must be a string cell with quotePrefix, and
// a number cell has no quotePrefix.
func xlsxInert(t *testing.T, data []byte) (values, numbers map[string]bool) {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	values, numbers = map[string]bool{}, map[string]bool{}
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				if v == "" {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				where := sheet + "!" + cell
				values[v] = true
				if fm, _ := f.GetCellFormula(sheet, cell); fm != "" {
					t.Errorf("%s holds the formula %q", where, fm)
				}
				typ, _ := f.GetCellType(sheet, cell)
				style, _ := f.GetCellStyle(sheet, cell)
				quoted := f.Styles.CellXfs.Xf[style].QuotePrefix
				number := typ == excelize.CellTypeUnset || typ == excelize.CellTypeNumber
				switch {
				case inert.Formula(v) && typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString:
					t.Errorf("%s holds %q as a cell of type %d, not text", where, v, typ)
				case inert.Formula(v) && (quoted == nil || !*quoted):
					t.Errorf("%s holds %q without quotePrefix", where, v)
				case number && quoted != nil && *quoted:
					t.Errorf("%s: the number %s has quotePrefix", where, v)
				case number:
					numbers[v] = true
				}
			}
		}
	}
	return values, numbers
}

// jsonInert checks that a formula character inside a JSON text stands
// only after a letter or a digit, where no cell of a text import begins.
func jsonInert(t *testing.T, data []byte) {
	t.Helper()
	for i, r := range string(data) {
		if strings.ContainsRune("=+-@＝＋－＠", r) && i > 0 && !isAlnum(data[i-1]) && !(r == '-' && string(data[i-2:i]) == ": ") {
			t.Errorf("%q stands after %q at %d", r, data[i-1], i)
		}
	}
}

var (
	textNode     = regexp.MustCompile(`>([^<]+)<`)
	styleElement = regexp.MustCompile(`(?s)<style>.*?</style>`)
)

// htmlInert checks the text of every element of a page, as a spreadsheet
// program opening it makes cells of them, and returns the texts with
// apostrophes removed; the JSON the page carries is checked as JSON.
func htmlInert(t *testing.T, page []byte) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	page = styleElement.ReplaceAll(page, nil)
	for _, m := range textNode.FindAllSubmatch(page, -1) {
		text := html.UnescapeString(string(m[1]))
		if strings.HasPrefix(strings.TrimSpace(text), "{") {
			jsonInert(t, []byte(text))
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			if inert.Formula(line) || inert.Formula(strings.TrimSpace(line)) {
				t.Errorf("the page shows %q", line)
			}
			seen[inert.Strip(line)] = true
		}
	}
	return seen
}
