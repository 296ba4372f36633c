package review

import (
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/bulkdesk/bulkdesk/schema"
)

// ErrorTable returns the table an error file shows (app/export writes
// it), its header row and the report located in it: the file's own table,
// or for a request body one row per element and a column per field, which
// imports again with no mapping.
func (d *Document) ErrorTable() (*ingest.Table, int, *schema.Report) {
	if ts, ok := d.src.(*tableSource); ok {
		return ts.im.Table, ts.im.Mapping().HeaderRow, d.report
	}
	const sheet = "Request"
	t := &ingest.Table{File: d.FileName, Sheet: sheet, Format: ingest.XLSX, Formats: []string{""}}
	head := ingest.Row{Number: 1, Cells: make([]ingest.Cell, len(d.cols))}
	for c, col := range d.cols {
		head.Cells[c] = ingest.Cell{Kind: ingest.Text, Value: col.Field}
	}
	t.Rows = append(t.Rows, head)
	for i := range d.src.count() {
		row := ingest.Row{Number: i + 2, Cells: make([]ingest.Cell, len(d.cols))}
		for c, col := range d.cols {
			row.Cells[c] = cellOf(lookup(d.src.value(i), tokensOf(col.Field)))
		}
		t.Rows = append(t.Rows, row)
	}
	r := &schema.Report{Kind: d.report.Kind, Elements: d.report.Elements, Problems: make([]schema.Problem, len(d.report.Problems))}
	for k, p := range d.report.Problems {
		if p.Element >= 0 {
			p.Sheet, p.Row = sheet, p.Element+2
			if c := d.columnOf(p); c >= 0 {
				p.Column = xlsx.ColumnName(c)
			}
		}
		r.Problems[k] = p
	}
	return t, 1, r
}

// cellOf is the spreadsheet cell of a value of a request body.
func cellOf(v any) ingest.Cell {
	switch v.(type) {
	case nil:
		return ingest.Cell{}
	case bool:
		if v.(bool) {
			return ingest.Cell{Kind: ingest.Bool, Value: "TRUE"}
		}
		return ingest.Cell{Kind: ingest.Bool, Value: "FALSE"}
	case string:
		return ingest.Cell{Kind: ingest.Text, Value: v.(string)}
	}
	s := display(v)
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return ingest.Cell{Kind: ingest.Number, Value: s}
	}
	return ingest.Cell{Kind: ingest.Text, Value: s}
}
