package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
)

// RequestBody returns the request body exactly as the console would send
// it: the elements' canonical JSON (compact, keys sorted, numbers as
// written), as app/submission writes each bulk. A request of more than
// schema.MaxElements elements is sent as several bulks; this is all of
// them in one array.
func (d *Document) RequestBody() ([]byte, error) {
	elements := d.Elements()
	if len(elements) == 0 {
		return []byte("[]"), nil
	}
	plan, err := submission.NewPlan(d.Kind, elements, submission.PlanOptions{BackOffice: d.BackOffice})
	if err != nil {
		return nil, err
	}
	if len(plan.Chunks) == 1 {
		return plan.Chunks[0].Body, nil
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	for k, c := range plan.Chunks {
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.Write(c.Body[1 : len(c.Body)-1])
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// ErrorWorkbook returns the operator's rows as an xlsx workbook with every
// cell that has a problem highlighted and commented (see app/workbook).
// A request body's elements are written one per row, a column per field,
// which imports again with no mapping.
func (d *Document) ErrorWorkbook() ([]byte, error) {
	t, header, r := d.errorTable()
	return workbook.ErrorWorkbook(t, header, r)
}

// ErrorCSV is ErrorWorkbook as CSV, with an Errors column.
func (d *Document) ErrorCSV() ([]byte, error) {
	t, header, r := d.errorTable()
	return workbook.ErrorCSV(t, header, r)
}

// errorTable returns the table an error file shows, its header row and the
// report located in it.
func (d *Document) errorTable() (*ingest.Table, int, *schema.Report) {
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

// Manifest returns the summary as CSV, for the operator's records and the
// colleague who approves the bulk: the file, the kind and endpoint, the
// request body's SHA-256, the counts, and the totals per currency and per
// source instrument. Columns: section, name, currency, count,
// amount_minor, amount.
func (d *Document) Manifest(now time.Time) ([]byte, error) {
	body, err := d.RequestBody()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	s := d.Summary()
	ep, _ := d.Kind.Endpoint(d.BackOffice)

	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	rec := func(section, name, currency string, count int, minor, amount string) {
		n := ""
		if count >= 0 {
			n = strconv.Itoa(count)
		}
		w.Write([]string{section, inert(name), currency, n, minor, amount})
	}
	w.Write([]string{"section", "name", "currency", "count", "amount_minor", "amount"})
	rec("file", d.FileName, "", s.Elements, "", "")
	rec("kind", d.Kind.ID, "", -1, "", "")
	rec("endpoint", ep.String(), "", -1, "", "")
	rec("request-sha256", hex.EncodeToString(sum[:]), "", -1, "", "")
	rec("created", now.UTC().Format(time.RFC3339), "", -1, "", "")
	for _, c := range []struct {
		name string
		n    int
	}{{"elements", s.Elements}, {"valid", s.Valid}, {"invalid", s.Invalid}, {"errors", s.Errors}, {"warnings", s.Warnings}, {"duplicates", s.Duplicates}} {
		rec("count", c.name, "", c.n, "", "")
	}
	for _, t := range s.Totals {
		rec("total", t.Label(), t.Label(), t.Count, t.Minor.String(), t.String())
	}
	for _, st := range s.Sources {
		if len(st.Totals) == 0 {
			rec("source", st.Source, "", st.Count, "", "")
		}
		for _, t := range st.Totals {
			rec("source", st.Source, t.Label(), t.Count, t.Minor.String(), t.String())
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("writing the manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// inert keeps a spreadsheet from running a text as a formula.
func inert(s string) string {
	if s != "" && bytes.ContainsRune([]byte("=+-@\t\r"), rune(s[0])) {
		return "'" + s
	}
	return s
}
