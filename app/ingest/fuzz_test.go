package ingest_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The fuzz targets run their seeds as ordinary tests; "make fuzz" runs
// them for a while. Each must never panic or hang, whatever the input,
// and what it accepts must hold together.

// addCorpusSeeds adds the corpus files whose name ends with ext.
func addCorpusSeeds(f *testing.F, ext string) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "corpus"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ext) {
			data, err := os.ReadFile(filepath.Join("testdata", "corpus", e.Name()))
			if err == nil {
				f.Add(data)
			}
		}
	}
}

// buildAll runs a file through every step an operator's file goes through.
func buildAll(t *testing.T, name string, data []byte, kindID string) {
	file, err := ingest.Open(name, data, ingest.Options{Limits: ingest.Limits{MaxRows: 2000, Zip: xlsxLimitsSmall}})
	if err != nil {
		if err.Error() == "" {
			t.Fatal("an error without a message")
		}
		return
	}
	for _, s := range file.Sheets() {
		tab, err := file.Table(s.Name, nil)
		if err != nil {
			continue
		}
		k, _ := schema.Lookup(kindID)
		im := ingest.NewImport(tab, k, schema.Default())
		im.Examples()
		im.SetAmountLimits(ingest.AmountLimits{"EUR": 100, "JPY": 1})
		res := im.Build(nil)
		if len(res.Elements) > len(tab.Rows) {
			t.Fatalf("%d elements from %d rows", len(res.Elements), len(tab.Rows))
		}
		for _, p := range res.Report.Problems {
			if p.Message == "" {
				t.Fatalf("a problem without a message: %+v", p)
			}
			switch p.Code {
			case ingest.AmountOutlierCode, ingest.AmountAboveLimitCode, ingest.IDLengthCode:
				if p.Severity != schema.Warning || p.Column == "" || p.Row == 0 || p.Element < 0 {
					t.Fatalf("a plausibility warning without its cell: %+v", p)
				}
			}
		}
		if len(res.Elements) > 0 {
			if _, err := im.EditCell(res.Elements[0].Row, 0, "x"); err != nil {
				t.Fatalf("editing a built row: %v", err)
			}
		}
	}
}

func FuzzCSV(f *testing.F) {
	addCorpusSeeds(f, ".csv")
	addCorpusSeeds(f, ".txt")
	f.Add([]byte("a,\"b\nc\",\"\"\"\"\r\n1,2,3"))
	f.Add([]byte("sep=|\n\"x|y\"|z\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		buildAll(t, "f.csv", data, "transfers")
		csvRoundTrip(t, data)
	})
}

// csvRoundTrip checks that the values read from a CSV file are read again
// unchanged once written by encoding/csv: quoted values, doubled quotes
// and line breaks included.
func csvRoundTrip(t *testing.T, data []byte) {
	f, err := ingest.Open("f.csv", data, ingest.Options{})
	if err != nil {
		return
	}
	tab, err := f.Table("", nil)
	if err != nil {
		return
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	want := cellValues(tab)
	w.WriteAll(want)
	if strings.HasPrefix(b.String(), "sep=") {
		return // read as the line naming the delimiter
	}
	// What is not read as text again (an empty file, control characters
	// that make it look binary) has nothing to compare.
	f, err = ingest.Open("f.csv", b.Bytes(), ingest.Options{Encoding: "utf-8", Delimiter: ","})
	if err != nil {
		return
	}
	again, err := f.Table("", nil)
	if err != nil {
		t.Fatalf("reading %q again: %v", b.String(), err)
	}
	if got := cellValues(again); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("read %q, then %q from %q", want, got, b.String())
	}
}

// cellValues returns the values of a table's cells, row by row.
func cellValues(tab *ingest.Table) [][]string {
	out := make([][]string, len(tab.Rows))
	for i, r := range tab.Rows {
		for _, c := range r.Cells {
			out[i] = append(out[i], c.Value)
		}
	}
	return out
}

func FuzzJSON(f *testing.F) {
	addCorpusSeeds(f, ".json")
	f.Add([]byte(`[{"card id": 1, "x": [1, "a"]}, {"card id": null}]`))
	f.Add([]byte(`[{"pathParams": {"_id_": "1"}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		buildAll(t, "f.json", data, "card_spend_rules")
	})
}

// FuzzMapping feeds random headers, mapping files and settings to the
// matcher and the builder.
func FuzzMapping(f *testing.F) {
	f.Add("Card ID,allowAtm,spendLimit[0].value.amount,spendLimit.1.interval", `{"kind":"card_spend_rules","headerRow":1,"columns":[{"column":"A","header":"Card ID","field":"pathParams._id_"}]}`, "1,yes,10.5,DAILY")
	f.Add("dob,roles,mobile", `{"kind":"users","headerRow":2,"columns":[{"column":"B","header":"","field":"roles[3]"},{"column":"C","header":"mobile","field":"dateOfBirth"}]}`, "03/04/1990,ADMIN;X,+44")
	f.Add("a", `{"kind":"transfers","columns":[{"header":"a","field":"spendLimit[99999999999].x"}]}`, "1")
	f.Fuzz(func(t *testing.T, header, mapping, row string) {
		if len(header) > 2000 || len(row) > 2000 {
			return
		}
		csv := []byte(header + "\n" + row + "\n" + row + "\n")
		file, err := ingest.Open("m.csv", csv, ingest.Options{Delimiter: ","})
		if err != nil {
			return
		}
		tab, err := file.Table("", nil)
		if err != nil {
			return
		}
		saved, err := ingest.UnmarshalMapping([]byte(mapping))
		k, kerr := schema.Lookup(saved.Kind)
		if err != nil || kerr != nil {
			k, _ = schema.Lookup("card_spend_rules")
		}
		im := ingest.NewImport(tab, k, schema.Default())
		if err == nil && kerr == nil {
			im.UseSavedMapping(saved)
		}
		m := im.Mapping()
		for _, c := range m.Columns {
			if c.Field != "" {
				m.Set(c.Column, c.Field+"[0]")
			}
		}
		im.SetMapping(m)
		im.SetSettings(ingest.Settings{Amounts: ingest.Major, Currency: "EUR"})
		im.Targets()
		res := im.Build(nil)
		for _, p := range res.Report.Problems {
			if p.Message == "" {
				t.Fatalf("a problem without a message: %+v", p)
			}
		}
	})
}

// FuzzXLSXSheet wraps random sheet XML and shared strings in a workbook.
func FuzzXLSXSheet(f *testing.F) {
	f.Add(`<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>x</t></is></c></row><row r="2"><c r="A2"><f>1+1</f><v>2</v></c></row></sheetData><mergeCells><mergeCell ref="A1:B1"/></mergeCells>`, "card id")
	f.Add(`<sheetData><row><c><v>1</v></c><c t="b"><v>1</v></c><c t="e"><v>#N/A</v></c></row></sheetData>`, "")
	f.Add(`<sheetData><row r="3" hidden="1"><c r="C3" t="d"><v>2020-01-01</v></c></row></sheetData>`, "&amp;&#x41;_x000D_")
	f.Fuzz(func(t *testing.T, sheetXML, shared string) {
		if len(sheetXML) > 1<<16 || len(shared) > 1<<12 {
			return
		}
		book := xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: sheetXML}}}
		data := book.Bytes()
		if shared != "" {
			data = xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", RawData: sheetXML}, {Name: "T", Rows: []xlsxgen.Row{xlsxgen.Texts(shared)}}}}.Bytes()
		}
		numbersHoldNumbers(t, data)
		buildAll(t, "f.xlsx", data, "card_blocks")
	})
}

// FuzzOpen feeds raw bytes under every extension: the sniffing and the
// readers must refuse what they cannot read with a message.
func FuzzOpen(f *testing.F) {
	f.Add([]byte("PK\x03\x04garbage"), ".xlsx")
	f.Add([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0}, ".xls")
	f.Add([]byte("\xff\xfea\x00,\x00b\x00"), ".csv")
	f.Add(xlsxgen.Book{Sheets: []xlsxgen.Sheet{{Name: "S", Rows: []xlsxgen.Row{xlsxgen.Texts("card id"), xlsxgen.Texts("1")}}}}.Bytes(), ".xlsx")
	f.Fuzz(func(t *testing.T, data []byte, ext string) {
		if len(ext) > 10 {
			return
		}
		buildAll(t, "f"+ext, data, "card_blocks")
	})
}
