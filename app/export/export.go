// Package export writes the files an operator takes away from a document
// under review (app/review): the request body exactly as it would be sent,
// the error CSV that marks every problem at its row, and the manifest of
// counts and control totals for the colleague who approves the bulk. The
// worker's export job calls it. It links neither the submission planner
// nor excelize, so that the first worker stays small: the error workbook
// is written by app/workbook in the second.
//
//	body, err := export.RequestBody(d)
//	csv, err := export.ErrorCSV(d)
//	m, err := export.Manifest(d, time.Now())
package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// RequestBody returns the request body exactly as the console would send
// it: the elements' canonical JSON (compact, keys sorted, numbers as
// written), as app/submission writes each bulk. A request of more than
// schema.MaxElements elements is sent as several bulks; this is all of
// them in one array.
func RequestBody(d *review.Document) ([]byte, error) {
	return schema.CanonicalArray(d.Elements(), nil)
}

// ErrorCSV writes the operator's rows back as CSV with an Errors column,
// every cell made inert for spreadsheets (see app/inert), whatever kind
// the table says it is. It reads back through app/ingest unchanged: the
// apostrophes are removed on import. A
// request body's elements are written one per row, a column per field,
// which imports again with no mapping. (The error workbook, the same as
// an xlsx file, is written by app/workbook.) The severities are written
// in l, like the messages, which the validator wrote in its language.
func ErrorCSV(d *review.Document, l lang.Tag) ([]byte, error) {
	t, header, r := d.ErrorTable()
	return TableCSV(t, header, r, l)
}

// TableCSV is ErrorCSV for a table, its header row and its report.
func TableCSV(t *ingest.Table, header int, r *schema.Report, l lang.Tag) ([]byte, error) {
	byRow := ingest.ProblemsByRow(t, r)
	width := t.Width()
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	w := inert.NewCSVWriter(&buf)
	next := 1
	if t.Keyed {
		next = 0
	}
	for i := range t.Rows {
		row := &t.Rows[i]
		// Keep the row numbers: blank lines stand for the rows a sheet had.
		for ; next < row.Number; next++ {
			w.Write(nil)
		}
		next = row.Number + 1
		rec := make([]string, width+1)
		for c, cell := range row.Cells {
			rec[c] = cell.Value
		}
		switch rp := byRow[row.Number]; {
		case row.Number == header:
			rec[width] = ingest.ErrorsColumn
		case rp != nil && row.Number > 0:
			rec[width] = rp.ErrorsText(l)
		}
		w.Write(rec)
	}
	return buf.Bytes(), w.Error()
}

// Manifest returns the summary as CSV, for the operator's records and the
// colleague who approves the bulk: the file, the kind and endpoint, the
// request body's SHA-256, the counts, and the totals per currency and per
// source instrument. Columns: section, name, currency, count,
// amount_minor, amount.
func Manifest(d *review.Document, now time.Time) ([]byte, error) {
	body, err := RequestBody(d)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	s := d.Summary()
	ep, _ := d.Kind.Endpoint(d.BackOffice)

	var buf bytes.Buffer
	w := inert.NewCSVWriter(&buf)
	rec := func(section, name, currency string, count int, minor, amount string) {
		n := ""
		if count >= 0 {
			n = strconv.Itoa(count)
		}
		w.Write([]string{section, name, currency, n, minor, amount})
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
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("writing the manifest: %w", err)
	}
	return buf.Bytes(), nil
}
