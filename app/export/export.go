// Package export writes the files an operator takes away from a document
// under review (app/review): the request body exactly as it would be sent,
// the error workbook or CSV that marks every problem at its cell, and the
// manifest of counts and control totals for the colleague who approves
// the bulk. The worker's export job calls it; app/review itself writes no
// files, so that it links neither the submission planner nor excelize.
//
//	body, err := export.RequestBody(d)
//	wb, err := export.ErrorWorkbook(d)
//	m, err := export.Manifest(d, time.Now())
package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/workbook"
)

// RequestBody returns the request body exactly as the console would send
// it: the elements' canonical JSON (compact, keys sorted, numbers as
// written), as app/submission writes each bulk. A request of more than
// schema.MaxElements elements is sent as several bulks; this is all of
// them in one array.
func RequestBody(d *review.Document) ([]byte, error) {
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
func ErrorWorkbook(d *review.Document) ([]byte, error) {
	return workbook.ErrorWorkbook(d.ErrorTable())
}

// ErrorCSV is ErrorWorkbook as CSV, with an Errors column.
func ErrorCSV(d *review.Document) ([]byte, error) {
	return workbook.ErrorCSV(d.ErrorTable())
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
