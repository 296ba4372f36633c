package workbook

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

// ElementsWorkbook writes request elements of kind k (decoded as by
// schema.DecodeJSON) as a workbook that imports again without a mapping
// step: one row per element under the template's headers, more columns
// where an element holds further list items, and an Errors column with
// each row's note (notes may be nil). It is how elements kept aside, or
// whose operations failed, go back to the operator to fix.
func ElementsWorkbook(k *schema.Kind, fields []schema.Field, elements []any, notes []string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", k.ID); err != nil {
		return nil, err
	}
	if err := writeElementSheet(newQuotedText(f), k.ID, k, fields, elements, notes); err != nil {
		return nil, err
	}
	return writeBytes(f)
}

// An elementColumn is a column of an elements sheet.
type elementColumn struct {
	header string
	path   []any // keys (string) and list positions (int)
	date   bool  // a year-month-day object written as one date
}

// elementColumns returns the template's columns of k, with the columns of
// list items beyond the first as the elements need them.
func elementColumns(k *schema.Kind, fields []schema.Field, elements []any) []elementColumn {
	var out []elementColumn
	cols := ingest.TemplateColumns(k, fields)
	for i := 0; i < len(cols); i++ {
		c := cols[i]
		list, _, isList := strings.Cut(c.Path, "[0]")
		if !isList {
			out = append(out, elementColumn{header: c.Header, path: splitPath(c.Path), date: c.DateParts})
			continue
		}
		// The columns of one list sit together in the template: repeat
		// them for every item the longest list holds.
		j := i
		for j < len(cols) && strings.HasPrefix(cols[j].Path, list+"[0]") {
			j++
		}
		items := max(1, longestList(elements, splitPath(list)))
		for n := range items {
			for _, lc := range cols[i:j] {
				path := strings.Replace(lc.Path, "[0]", "["+strconv.Itoa(n)+"]", 1)
				header := lc.Header
				if n > 0 {
					header = path
				}
				out = append(out, elementColumn{header: header, path: splitPath(path), date: lc.DateParts})
			}
		}
		i = j - 1
	}
	return out
}

// splitPath reads "spendLimit[1].value.amount" as spendLimit, 1, value,
// amount.
func splitPath(p string) []any {
	var out []any
	for _, part := range strings.Split(p, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			out = append(out, name)
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			if n, err := strconv.Atoi(num); err == nil {
				out = append(out, n)
			}
			_, rest, _ = strings.Cut(after, "[")
		}
	}
	return out
}

// valueAt walks an element along a path below its top level, where
// fields of the template are relative to requestBody except pathParams.
func valueAt(element any, path []any) (any, bool) {
	v := element
	if len(path) > 0 && path[0] != "pathParams" {
		path = append([]any{"requestBody"}, path...)
	}
	for _, step := range path {
		switch s := step.(type) {
		case string:
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = obj[s]; !ok {
				return nil, false
			}
		case int:
			list, ok := v.([]any)
			if !ok || s >= len(list) {
				return nil, false
			}
			v = list[s]
		}
	}
	return v, true
}

func longestList(elements []any, path []any) int {
	n := 0
	for _, e := range elements {
		if v, ok := valueAt(e, path); ok {
			if list, ok := v.([]any); ok {
				n = max(n, len(list))
			}
		}
	}
	return n
}

// cellValue is what a cell of column c holds for an element: numbers as
// numbers where a spreadsheet keeps every digit, everything else as text,
// lists of values joined with commas, dates as 1990-01-31.
func cellValue(element any, c elementColumn) (any, bool) {
	v, ok := valueAt(element, c.path)
	if !ok || v == nil {
		return nil, false
	}
	if c.date {
		obj, _ := v.(map[string]any)
		var ymd [3]int
		for i, key := range []string{"year", "month", "day"} {
			n, err := strconv.Atoi(fmt.Sprint(obj[key]))
			if err != nil {
				return nil, false
			}
			ymd[i] = n
		}
		return fmt.Sprintf("%04d-%02d-%02d", ymd[0], ymd[1], ymd[2]), true
	}
	switch x := v.(type) {
	case json.Number:
		s := x.String()
		if digits := strings.TrimLeft(s, "-"); len(digits) <= 15 && !strings.ContainsAny(digits, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n, true
			}
		}
		return s, true
	case bool:
		return x, true
	case string:
		return x, true
	case []any:
		parts := make([]string, 0, len(x))
		for _, item := range x {
			parts = append(parts, fmt.Sprint(item))
		}
		return strings.Join(parts, ", "), true
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// writeElementSheet writes elements on sheet, under a header row.
func writeElementSheet(q *quotedText, sheet string, k *schema.Kind, fields []schema.Field, elements []any, notes []string) error {
	f := q.f
	cols := elementColumns(k, fields, elements)
	header := make([]any, 0, len(cols)+1)
	for _, c := range cols {
		header = append(header, c.header)
	}
	if notes != nil {
		header = append(header, ingest.ErrorsColumn)
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	if err := setStreamRow(q, sw, 1, header, bold); err != nil {
		return err
	}
	row := make([]any, len(header))
	for i, e := range elements {
		for n, c := range cols {
			row[n] = nil
			if v, ok := cellValue(e, c); ok {
				row[n] = v
			}
		}
		if notes != nil {
			row[len(cols)] = notes[i]
		}
		if err := setStreamRow(q, sw, i+2, row, 0); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// setStreamRow writes a row of a stream from column A, its cells of style
// base, the text quoted where it begins like a formula.
func setStreamRow(q *quotedText, sw *excelize.StreamWriter, n int, values []any, base int) error {
	values, err := q.rowValues(values, base)
	if err != nil {
		return err
	}
	cell, err := excelize.CoordinatesToCellName(1, n)
	if err != nil {
		return err
	}
	return sw.SetRow(cell, values, excelize.RowOpts{StyleID: base})
}
