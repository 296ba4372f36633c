package ingest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
)

// A table keeps its cells in shared blocks and their text in shared
// blocks too (or in the file's own text). These tests read values on
// every side of those blocks' edges, in every format, and edit cells of
// rows that share a block.

// storageRow is row i of the storage tests: an id, non-ASCII text, a
// number, and every 1,000 rows a value of over 100 KB.
func storageRow(i int) []string {
	long := ""
	switch {
	case i%1000 == 999:
		long = strings.Repeat("Überweisung für Müller, 東京 🏦 ", 3000)
	case i%3 == 0:
		long = `said "pay, then report"`
	}
	return []string{fmt.Sprintf("ref-%05d", i), fmt.Sprintf("Zahlung für Jürgen Ø — 東京 🏦 #%d", i), fmt.Sprintf("%d.%02d", 1000+i, i%100), long}
}

var storageHeaders = []string{"id", "text", "amount", "note"}

const storageRows = 5000 // 20,000 cells: more than one block of cells

func storageFiles() map[string][]byte {
	rows := [][]string{storageHeaders}
	for i := range storageRows {
		rows = append(rows, storageRow(i))
	}
	book := func(inline bool) []byte {
		var xr []xlsxgen.Row
		for n, r := range rows {
			cells := make([]xlsxgen.Cell, len(r))
			for j, v := range r {
				switch {
				case v == "":
					cells[j] = xlsxgen.Empty()
				case j == 2 && n > 0:
					cells[j] = xlsxgen.N(v)
				default:
					cells[j] = xlsxgen.S(v)
				}
			}
			xr = append(xr, xlsxgen.Row{Cells: cells})
		}
		return xlsxgen.Book{Inline: inline, Sheets: []xlsxgen.Sheet{{Name: "S", Rows: xr}}}.Bytes()
	}
	var csv strings.Builder
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				csv.WriteByte(',')
			}
			if strings.ContainsAny(v, `",`) {
				v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
			}
			csv.WriteString(v)
		}
		csv.WriteString("\r\n")
	}
	objects := make([]map[string]any, 0, storageRows)
	for _, r := range rows[1:] {
		o := map[string]any{}
		for j, v := range r {
			if v != "" {
				o[storageHeaders[j]] = v
			}
		}
		o["amount"] = json.Number(r[2])
		objects = append(objects, o)
	}
	js, _ := json.Marshal(objects)
	return map[string][]byte{
		"shared.xlsx": book(false),
		"inline.xlsx": book(true),
		"rows.csv":    []byte(csv.String()),
		"rows.json":   js,
	}
}

func TestTablesHoldEveryValue(t *testing.T) {
	for name, data := range storageFiles() {
		t.Run(name, func(t *testing.T) {
			_, tab := readTable(t, name, data, ingest.Options{})
			if len(tab.Rows) != storageRows+1 {
				t.Fatalf("%d rows", len(tab.Rows))
			}
			for i, r := range tab.Rows[1:] {
				want := storageRow(i)
				for j, w := range want {
					c := r.Cell(j)
					if tab.Keyed {
						c = r.Cell(keyColumn(tab, storageHeaders[j]))
					}
					if c.Value != w || (w == "") != (c.Kind == ingest.Blank) {
						t.Fatalf("row %d column %d: %v %.50q, want %.50q", r.Number, j, c.Kind, c.Value, w)
					}
				}
			}
		})
	}
}

func keyColumn(tab *ingest.Table, key string) int {
	for col := range tab.Width() {
		if tab.ColumnName(col) == key {
			return col
		}
	}
	return -1
}

func TestEditsChangeOnlyTheirCell(t *testing.T) {
	data := transfersXLSX(3000)
	im := importOf(t, "t.xlsx", data, "transfers")
	tab := im.Table
	before := cellValues(tab)
	res := im.Build(nil)
	if !res.Report.Valid() || len(res.Elements) != 3000 {
		t.Fatalf("%d elements, %v", len(res.Elements), res.Report.Problems)
	}
	// Row 500's currency is a shared string that every row uses; its
	// description sits in a block with its neighbours'; column M lies
	// past the row's last cell, so the row grows out of its block.
	long := strings.Repeat("Überweisung — 東京, ", 5000) + "Ende"
	edits := []struct {
		col  int
		text string
	}{{6, "GBP"}, {8, long}, {12, "a note"}}
	for _, e := range edits {
		if _, err := im.EditCell(500, e.col, e.text); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range tab.Rows {
		want := before[i]
		if r.Number == 500 {
			want = append(append([]string{}, want...), "", "", "")
			for _, e := range edits {
				want[e.col] = e.text
			}
		}
		if len(r.Cells) != len(want) {
			t.Fatalf("row %d has %d cells, want %d", r.Number, len(r.Cells), len(want))
		}
		for j, c := range r.Cells {
			if c.Value != want[j] {
				t.Fatalf("row %d column %d is %.40q, want %.40q", r.Number, j, c.Value, want[j])
			}
		}
	}
	i, _ := res.ElementOfRow(500)
	v := res.Value(i)["requestBody"].(map[string]any)
	if v["description"] != long || v["destinationAmount"].(map[string]any)["currency"] != "GBP" {
		t.Errorf("element of row 500: %.80v", v)
	}
	if got := tab.Display(tab.Rows[tab.RowIndex(500)].Cell(8)); got != long {
		t.Errorf("display %.40q", got)
	}
	if next := res.Value(i + 1)["requestBody"].(map[string]any); next["description"] != "Salary November, ref 499" {
		t.Errorf("next element: %v", next)
	}
}
