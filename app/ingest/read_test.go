package ingest_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/xuri/excelize/v2"
)

// grid renders a table as "row: a | b | c" lines, cells as the file holds
// them, with markers for kinds other than text.
func grid(t *ingest.Table) string {
	var b strings.Builder
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "%d:", r.Number)
		for i, c := range r.Cells {
			if i > 0 {
				b.WriteString(" |")
			}
			b.WriteString(" ")
			switch c.Kind {
			case ingest.Number:
				b.WriteString("#")
			case ingest.Bool:
				b.WriteString("?")
			case ingest.ErrorValue:
				b.WriteString("!")
			}
			b.WriteString(c.Value)
			if c.Flags&ingest.Formula != 0 {
				b.WriteString("(f)")
			}
			if c.Flags&ingest.NoCachedValue != 0 {
				b.WriteString("(nocache)")
			}
			if c.Flags&ingest.MergedPart != 0 {
				b.WriteString("(merged)")
			}
		}
		if r.Hidden {
			b.WriteString(" [hidden]")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func readTable(t *testing.T, name string, data []byte, opt ingest.Options) (*ingest.File, *ingest.Table) {
	t.Helper()
	f, err := ingest.Open(name, data, opt)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	tab, err := f.Table("", nil)
	if err != nil {
		t.Fatalf("table: %v", err)
	}
	return f, tab
}

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestCSVReading(t *testing.T) {
	tests := []struct {
		name, file string
		data       []byte
		opt        ingest.Options
		enc, delim string
		want       string
	}{
		{"comma", "a.csv", []byte("id,amount\n1,100\n2,200\n"), ingest.Options{}, "utf-8", ",",
			"1: id | amount\n2: 1 | 100\n3: 2 | 200\n"},
		{"semicolon and decimal comma", "a.csv", []byte("id;amount\r\n1;1.234,56\r\n2;12,5\r\n"), ingest.Options{}, "utf-8", ";",
			"1: id | amount\n2: 1 | 1.234,56\n3: 2 | 12,5\n"},
		{"tsv by extension", "a.tsv", []byte("id\tname, first\n1\tSmith, J\n"), ingest.Options{}, "utf-8", "\t",
			"1: id | name, first\n2: 1 | Smith, J\n"},
		{"pipe", "a.txt", []byte("a|b|c\n1|2|3\n4|5|6\n"), ingest.Options{}, "utf-8", "|",
			"1: a | b | c\n2: 1 | 2 | 3\n3: 4 | 5 | 6\n"},
		{"quoted newlines and quotes", "a.csv", []byte("id,description\n1,\"two\nlines, \"\"quoted\"\"\"\n2,12\" screen\n"), ingest.Options{}, "utf-8", ",",
			"1: id | description\n2: 1 | two\nlines, \"quoted\"\n3: 2 | 12\" screen\n"},
		{"sep line", "a.csv", []byte("sep=;\na;b\n1;2\n"), ingest.Options{}, "utf-8", ";",
			"1: a | b\n2: 1 | 2\n"},
		{"utf-8 bom", "a.csv", []byte("\xef\xbb\xbfnom,ville\nZoë,Besançon\n"), ingest.Options{}, "utf-8", ",",
			"1: nom | ville\n2: Zoë | Besançon\n"},
		{"utf-16le bom", "a.txt", utf16Bytes("nom\tville\r\nZoë\tBesançon €\r\n", false, true), ingest.Options{}, "utf-16le", "\t",
			"1: nom | ville\n2: Zoë | Besançon €\n"},
		{"utf-16be bom", "a.csv", utf16Bytes("a,b\n𝄞,x\n", true, true), ingest.Options{}, "utf-16be", ",",
			"1: a | b\n2: 𝄞 | x\n"},
		{"utf-16le without bom", "a.csv", utf16Bytes("a,b\n1,2\n", false, false), ingest.Options{}, "utf-16le", ",",
			"1: a | b\n2: 1 | 2\n"},
		{"windows-1252", "a.csv", []byte("nom;montant\nZo\xeb \x80;12,50\n"), ingest.Options{}, "windows-1252", ";",
			"1: nom | montant\n2: Zoë € | 12,50\n"},
		{"encoding override", "a.csv", []byte("a\n\xc3\xa9\n"), ingest.Options{Encoding: "cp1252"}, "windows-1252", ",",
			"1: a\n2: Ã©\n"},
		{"delimiter override", "a.csv", []byte("a;b,c\n1;2,3\n"), ingest.Options{Delimiter: "comma"}, "utf-8", ",",
			"1: a;b | c\n2: 1;2 | 3\n"},
		{"ragged rows and blank lines", "a.csv", []byte("a,b,c\n1,2\n\n3,4,5,6\n"), ingest.Options{}, "utf-8", ",",
			"1: a | b | c\n2: 1 | 2\n4: 3 | 4 | 5 | 6\n"},
		{"no final newline, CR line ends", "a.csv", []byte("a,b\r1,2"), ingest.Options{}, "utf-8", ",",
			"1: a | b\n2: 1 | 2\n"},
		{"header only", "a.csv", []byte("a,b,c\n"), ingest.Options{}, "utf-8", ",", "1: a | b | c\n"},
		{"pasted text", "", []byte("a\tb\n1\t2\n"), ingest.Options{}, "utf-8", "\t", "1: a | b\n2: 1 | 2\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f *ingest.File
			var tab *ingest.Table
			if tc.file == "" {
				var err error
				if f, err = ingest.OpenText(string(tc.data)); err != nil {
					t.Fatal(err)
				}
				if tab, err = f.Table("", nil); err != nil {
					t.Fatal(err)
				}
			} else {
				f, tab = readTable(t, tc.file, tc.data, tc.opt)
			}
			if f.Encoding != tc.enc || f.Delimiter != tc.delim {
				t.Errorf("encoding %q delimiter %q, want %q %q", f.Encoding, f.Delimiter, tc.enc, tc.delim)
			}
			if got := grid(tab); got != tc.want {
				t.Errorf("table:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestCSVErrorsNameRowAndColumn(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		opt  ingest.Options
		want string
	}{
		{"unclosed quote", []byte("a,b\n1,\"open\n2,3\n"), ingest.Options{}, `pay.csv, sheet "pay", row 2, column B: a quoted value opened on line 2 is never closed`},
		{"NUL byte", []byte("a,b\n1,x\x00y\n"), ingest.Options{}, `pay.csv, sheet "pay", row 2, column B: the value holds NUL bytes`},
		{"invalid UTF-8 when UTF-8 is chosen", []byte("a,b\n1,\xe9t\xe9\n"), ingest.Options{Encoding: "utf-8"}, `row 2, column B: the value is not valid utf-8: choose the file's encoding (it is probably windows-1252)`},
		{"odd UTF-16", append([]byte{0xFF, 0xFE}, 'a', 0, 'b'), ingest.Options{}, "pay.csv: the file is not UTF-16"},
		{"unknown encoding", []byte("a"), ingest.Options{Encoding: "ebcdic"}, `unknown encoding "ebcdic"`},
		{"unknown delimiter", []byte("a"), ingest.Options{Delimiter: "#"}, `unknown delimiter "#"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ingest.Open("pay.csv", tc.data, tc.opt)
			if err == nil {
				_, err = f.Table("", nil)
			}
			var re *ingest.ReadError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestJSONReading(t *testing.T) {
	t.Run("request body", func(t *testing.T) {
		f, err := ingest.Open("r.json", []byte(`[{"pathParams": {"_id_": "1"}}]`), ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		doc, _, ok := f.Request()
		if !ok || !f.IsRequest() || len(doc.([]any)) != 1 {
			t.Fatalf("not read as a request body: %v %v", ok, doc)
		}
		if _, err := f.Table("", nil); err == nil {
			t.Error("a request body was read as a table")
		}
	})
	t.Run("flat objects", func(t *testing.T) {
		data := []byte(`[{"source.id": "0012", "amount": 1050, "roles": ["A", "B"], "ok": true, "gone": null},
		                 {"amount": 12.5, "extra": "x"}]`)
		f, tab := readTable(t, "rows.json", data, ingest.Options{})
		if f.IsRequest() || !tab.Keyed || tab.Sheet != "" {
			t.Fatalf("not a keyed table: %+v", tab)
		}
		want := "0: source.id | amount | roles | ok | gone | extra\n1: 0012 | #1050 | A, B | ?TRUE |  | \n2:  | #12.5 |  |  |  | x\n"
		if got := grid(tab); got != want {
			t.Errorf("table:\n%q\nwant:\n%q", got, want)
		}
		if tab.ColumnName(1) != "amount" {
			t.Errorf("column name %q", tab.ColumnName(1))
		}
	})
	for name, tc := range map[string]struct{ data, want string }{
		"nested object": {`[{"a": {"b": 1}}]`, `rows.json, row 1, column a: the value is an object`},
		"syntax error":  {"[\n  {\"a\": 1,}\n]", `rows.json: not valid JSON: line 2, column 11`},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := ingest.Open("rows.json", []byte(tc.data), ingest.Options{})
			if err == nil {
				_, err = f.Table("", nil)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestSpreadsheetReading(t *testing.T) {
	book := xlsxgen.Book{
		Formats: []string{"yyyy-mm-dd"},
		Sheets: []xlsxgen.Sheet{
			{Name: "Instructions", State: "hidden", Rows: []xlsxgen.Row{xlsxgen.Texts("read me")}},
			{Name: "Blank"},
			{Name: "Payroll", Merged: []string{"A1:C1", "B4:B5"}, Rows: []xlsxgen.Row{
				xlsxgen.Texts("November payroll"),
				xlsxgen.Texts("id", "amount", "date"),
				{Cells: []xlsxgen.Cell{xlsxgen.N("1"), {Formula: "2*50", Value: "100"}, {Value: "45000", Style: 1}}},
				{Hidden: true, Cells: []xlsxgen.Cell{xlsxgen.N("2"), {Type: "e", Value: "#N/A"}, {Formula: "B3", NoValue: true}}},
				{Cells: []xlsxgen.Cell{xlsxgen.N("3"), xlsxgen.Empty(), xlsxgen.B(false)}},
			}},
		},
	}
	f, err := ingest.Open("pay.xlsx", book.Bytes(), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Sheets()); got != "[{Instructions true false} {Blank false true} {Payroll false false}]" {
		t.Errorf("sheets %s", got)
	}
	if f.DefaultSheet() != "Payroll" {
		t.Errorf("default sheet %q", f.DefaultSheet())
	}
	var reports []string
	tab, err := f.Table("", func(n, total int) { reports = append(reports, fmt.Sprintf("%d/%d", n, total)) })
	if err != nil {
		t.Fatal(err)
	}
	want := "1: November payroll | (merged) | (merged)\n2: id | amount | date\n3: #1 | #100(f) | #45000\n4: #2 | !#N/A | (f)(nocache) [hidden]\n5: #3 | (merged) | ?FALSE\n"
	if got := grid(tab); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	if !tab.IsDate(tab.Rows[2].Cells[2]) || tab.IsDate(tab.Rows[2].Cells[1]) {
		t.Error("date format not told apart")
	}
	if fmt.Sprint(reports) != "[5/5]" {
		t.Errorf("progress %v", reports)
	}
	hidden, err := f.Table("Instructions", nil)
	if err != nil || !hidden.HiddenSheet {
		t.Errorf("hidden sheet: %v %+v", err, hidden)
	}
	if _, err := f.Table("Nope", nil); err == nil || !strings.Contains(err.Error(), `there is no sheet "Nope"; the sheets are "Instructions", "Blank", "Payroll"`) {
		t.Errorf("unknown sheet: %v", err)
	}
}

func TestUnreadableFilesSayWhatToDo(t *testing.T) {
	var encrypted bytes.Buffer
	ef := excelize.NewFile()
	ef.SetCellValue("Sheet1", "A1", "x")
	if err := ef.Write(&encrypted, excelize.Options{Password: "secret"}); err != nil {
		t.Fatal(err)
	}
	ef.Close()
	good := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", Rows: []xlsxgen.Row{xlsxgen.Texts("a")}}}}.Bytes()
	bomb := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: "<sheetData>" + strings.Repeat("<row/>", 1<<20) + "</sheetData>"}}}.Bytes()
	tests := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"empty", "a.csv", nil, "a.csv: the file is empty"},
		{"blank", "a.xlsx", []byte("  \n"), "a.xlsx: the file is empty"},
		{"html as xlsx", "report.xlsx", []byte("<html><table><tr><td>1</td></tr></table></html>"), "this is a web page (HTML)"},
		{"html as xls", "report.xls", []byte("\n<!DOCTYPE html><html>"), "this is a web page (HTML)"},
		{"corrupt zip", "a.xlsx", good[:len(good)-40], "the workbook is damaged"},
		{"password", "a.xlsx", encrypted.Bytes(), "protected with a password"},
		{"legacy xls", "old.xls", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...), "Excel 97-2003 workbook (.xls)"},
		{"zip bomb", "a.xlsx", bomb, "zip bomb"},
		{"binary as csv", "a.csv", bytes.Repeat([]byte{1, 2, 3, 0, 4}, 100), "not a text file"},
		{"pdf", "a.csv", []byte("%PDF-1.4 ..."), "PDF"},
		{"ods", "a.ods", good, ".ods files cannot be read"},
		{"other extension", "a.docx.exe", []byte("hello"), ".exe files cannot be read"},
		{"random bytes as xlsx", "a.xlsx", []byte{1, 2, 3, 0, 0, 0, 9, 9}, "this is not an Excel workbook"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ingest.Open(tc.file, tc.data, ingest.Options{Limits: ingest.Limits{Zip: xlsxLimitsSmall}})
			if err == nil {
				_, err = f.Table("", nil)
			}
			var re *ingest.ReadError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestXLSXThatIsCSV(t *testing.T) {
	f, tab := readTable(t, "export.xlsx", []byte("a;b\n1;2\n"), ingest.Options{})
	if f.Format != ingest.CSV || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "is not an Excel workbook but a text file") {
		t.Errorf("format %s notes %q", f.Format, f.Notes)
	}
	if grid(tab) != "1: a | b\n2: 1 | 2\n" {
		t.Errorf("table %q", grid(tab))
	}
}

// TestRowLimit: a table of more rows than the limit is refused with a
// message that names the file, the sheet and the limit; a table at the
// limit, with a header and titles above it, is read.
func TestRowLimit(t *testing.T) {
	const limit = 5
	opt := ingest.Options{Limits: ingest.Limits{MaxRows: limit}}
	// The limit counts rows of operations: a sheet may hold as many rows
	// of titles and header above them as the header is looked for in.
	lines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(i + 1)
		}
		return out
	}
	rows := func(n int) []xlsxgen.Row {
		out := make([]xlsxgen.Row, n)
		for i := range out {
			out[i] = xlsxgen.Row{Cells: []xlsxgen.Cell{xlsxgen.N(strconv.Itoa(i + 1))}}
		}
		return out
	}
	within, over := limit+ingest.TitleRows, limit+ingest.TitleRows+1
	want := []string{"more than " + strconv.Itoa(within) + " rows", "at most 5 rows of operations", "split it"}
	for _, tc := range []struct {
		name   string
		within []byte
		over   []byte
		prefix string
	}{
		{"a.csv", []byte(strings.Join(lines(within), "\n")), []byte(strings.Join(lines(over), "\n")), `a.csv, sheet "a": the file has `},
		{"a.xlsx", xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Pay", Rows: rows(within)}}}.Bytes(),
			xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Pay", Rows: rows(over)}}}.Bytes(), `a.xlsx, sheet "Pay": the sheet has `},
	} {
		_, tab := readTable(t, tc.name, tc.within, opt)
		if len(tab.Rows) != within {
			t.Errorf("%s: %d rows read, want %d", tc.name, len(tab.Rows), within)
		}
		f, err := ingest.Open(tc.name, tc.over, opt)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Table("", nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.prefix) {
			t.Fatalf("%s: error %v", tc.name, err)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.name, err, w)
			}
		}
	}
}

// TestJSONObjectLimit: an array of more flat objects than the row limit
// is refused when it is opened, before it is decoded; so is a request
// body of more elements, each with a message naming the limit.
func TestJSONObjectLimit(t *testing.T) {
	opt := ingest.Options{Limits: ingest.Limits{MaxRows: 3}}
	obj := `{"name": "a, [b] {c}", "note": "\"],[", "list": [1, 2, {"x": [3]}]}`
	for n, refused := range map[int]bool{3: false, 4: true} {
		data := []byte("\ufeff [" + strings.Repeat(obj+",", n-1) + obj + "]")
		f, err := ingest.Open("rows.json", data, opt)
		if !refused {
			if err != nil {
				t.Fatalf("%d objects: %v", n, err)
			}
			continue
		}
		if err == nil || err.Error() != "rows.json: the file has more than 3 objects (rows); at most 3 rows of operations can be read from one table: split it into files of at most 3 rows each (a bulk takes 10,000)" {
			t.Errorf("%d objects: error %v", n, err)
		}
		_ = f
	}
	el := `{"pathParams": {}, "requestBody": {"a": 1}}`
	if _, err := ingest.Open("body.json", []byte("["+strings.Repeat(el+",", 2)+el+"]"), opt); err != nil {
		t.Errorf("request body of 3 elements: %v", err)
	}
	_, err := ingest.Open("body.json", []byte("["+strings.Repeat(el+",", 9)+el+"]"), opt)
	if err == nil || err.Error() != "body.json: the request body holds more than 3 elements; at most 3 operations can be read from one file: split it into files of at most 3 elements each (a bulk takes 10,000)" {
		t.Errorf("request body of 10 elements: %v", err)
	}
}

// TestPartLimit: a sheet whose XML is larger than the part limit is
// refused, before it is decompressed when the zip directory declares its
// size, while decompressing when the directory lies; the message names the
// limit.
func TestPartLimit(t *testing.T) {
	lim := xlsx.Limits{MaxPartBytes: 1 << 20, MaxTotalBytes: 2 << 20, MaxRatio: 400}
	var rows []xlsxgen.Row
	for i := range 20000 {
		rows = append(rows, xlsxgen.Row{Cells: []xlsxgen.Cell{xlsxgen.N(strconv.Itoa(i * 7919)), xlsxgen.N(strconv.Itoa(i))}})
	}
	data := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "Big", Rows: rows}}}.Bytes()
	read := func(data []byte) error {
		f, err := ingest.Open("big.xlsx", data, ingest.Options{Limits: ingest.Limits{Zip: lim}})
		if err == nil {
			_, err = f.Table("", nil)
		}
		return err
	}
	err := read(data)
	if err == nil || !strings.HasPrefix(err.Error(), `big.xlsx, sheet "Big": the workbook expands to more data than can be read`) ||
		!strings.Contains(err.Error(), "one part may hold at most 1.0 MB") || !errors.Is(err, xlsx.ErrTooLarge) {
		t.Errorf("error %v", err)
	}
	// A directory that says the sheet is small is caught out while
	// decompressing, at the size it says.
	if err := read(lyingSizes(data)); err == nil || !strings.HasPrefix(err.Error(), `big.xlsx, sheet "Big": the sheet cannot be read`) {
		t.Errorf("lying: error %v", err)
	}
}

// lyingSizes makes the central directory of a zip archive say that its
// parts larger than 4 KiB hold 4 KiB.
func lyingSizes(data []byte) []byte {
	out := append([]byte{}, data...)
	for i := 0; ; {
		j := bytes.Index(out[i:], []byte("PK\x01\x02"))
		if j < 0 {
			return out
		}
		if size := out[i+j+24 : i+j+28]; binary.LittleEndian.Uint32(size) > 4096 {
			binary.LittleEndian.PutUint32(size, 4096)
		}
		i += j + 4
	}
}

func TestDisplay(t *testing.T) {
	book := xlsxgen.Book{Formats: []string{"dd/mm/yyyy", "00000"}, Sheets: []xlsxgen.Sheet{{Name: "S", Rows: []xlsxgen.Row{
		{Cells: []xlsxgen.Cell{{Value: "45000", Style: 1}, {Value: "42", Style: 2}, xlsxgen.N("1.5"), xlsxgen.B(true), xlsxgen.S("x")}},
	}}}}
	_, tab := readTable(t, "d.xlsx", book.Bytes(), ingest.Options{})
	var got []string
	for _, c := range tab.Rows[0].Cells {
		got = append(got, tab.Display(c))
	}
	if strings.Join(got, "|") != "2023-03-15|00042|1.5|TRUE|x" {
		t.Errorf("display %v", got)
	}
}
