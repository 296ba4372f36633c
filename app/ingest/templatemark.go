package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A template (app/workbook) carries its mark on a hidden sheet: which
// kind it is for, in which language it was written, which sheet holds
// the data and how each of its columns is typed. A workbook that carries
// it is read as the mark says, with no question: the mark is the file's
// own word on what its columns hold. A sheet stays in the workbook
// whatever the operator does to the data (adding rows, sorting, saving it
// from another spreadsheet program), so the mark does too.

// TemplateMarkSheet is the name of the sheet that holds a template's
// mark, and TemplateMarkToken the text of the cell left of the mark.
const (
	TemplateMarkSheet = "Bulkdesk"
	TemplateMarkToken = "bulkdesk-template"
)

// TemplateVersion is the version of the templates written now: 2 for a
// data sheet headed in the operator's words, amounts in major units and
// dates in date cells (version 1 was headed with the fields' paths and
// carried no mark).
const TemplateVersion = 2

// A TemplateMark says what a template holds and how its columns read.
type TemplateMark struct {
	Version int    `json:"version"`
	Kind    string `json:"kind"`
	// BackOffice says the template was written for the kind's
	// back-office variant.
	BackOffice bool `json:"backOffice,omitempty"`
	// Lang is the language the template was written in.
	Lang string `json:"lang"`
	// Sheet is the sheet that holds the data.
	Sheet string `json:"sheet"`
	// TimeZone is the IANA time zone its dates and times are in, when it
	// was written for one.
	TimeZone string         `json:"timeZone,omitempty"`
	Columns  []MarkedColumn `json:"columns"`
}

// A MarkedColumn is one column of a template's data sheet.
type MarkedColumn struct {
	// Header is the column's header as the template wrote it.
	Header string `json:"header"`
	// Field is the target path the column fills.
	Field string `json:"field"`
	// Reads is how its cells are typed: ReadsAmount, ReadsMoment, ….
	Reads string `json:"reads"`
}

// MarshalTemplateMark writes a mark as the text its cell holds.
func MarshalTemplateMark(m TemplateMark) (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("writing the template's mark: %w", err)
	}
	return string(b), nil
}

// parseTemplateMark reads a mark's text; false when it is not one this
// reader knows.
func parseTemplateMark(s string) (*TemplateMark, bool) {
	var m TemplateMark
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &m) != nil || m.Version < 2 || m.Kind == "" || m.Sheet == "" {
		return nil, false
	}
	if _, err := schema.Lookup(m.Kind); err != nil {
		return nil, false
	}
	return &m, true
}

// markScan is how many rows of a sheet are looked at for the mark.
const markScan = 10

// Template returns the mark of a workbook written as a Bulkdesk template,
// or nil. It is looked for on the sheet named TemplateMarkSheet and on
// hidden sheets only, so that reading an operator's own workbook costs
// nothing more.
func (f *File) Template() *TemplateMark {
	if f.Format != XLSX {
		return nil
	}
	if f.markRead {
		return f.mark
	}
	f.markRead = true
	for i, s := range f.wb.Sheets {
		if s.Chart || !s.Hidden && s.Name != TemplateMarkSheet {
			continue
		}
		t, err := f.xlsxRows(context.Background(), i, markScan, nil)
		if err != nil {
			continue
		}
		for _, r := range t.Rows {
			if strings.TrimSpace(r.Cell(0).Value) != TemplateMarkToken {
				continue
			}
			if m, ok := parseTemplateMark(r.Cell(1).Value); ok {
				f.mark = m
				return m
			}
		}
	}
	return nil
}

// TemplateKind returns the kind a template's mark names, or nil for a
// file that is no template.
func (f *File) TemplateKind() *schema.Kind {
	m := f.Template()
	if m == nil {
		return nil
	}
	k, err := schema.Lookup(m.Kind)
	if err != nil {
		return nil
	}
	return k
}

// templateSheet returns the sheet that holds a template's data when the
// file is a template of kind, and the sheet is still there.
func (f *File) templateSheet(kind string) (string, reading.Decision, bool) {
	m := f.Template()
	if m == nil || m.Kind != kind {
		return "", reading.Decision{}, false
	}
	for _, s := range f.wb.Sheets {
		if s.Name == m.Sheet && !s.Chart {
			ev := reading.Cell{Sheet: TemplateMarkSheet, Raw: TemplateMarkToken, Suggests: m.Sheet, Why: f.w.T("the data sheet of a Bulkdesk template")}
			return m.Sheet, reading.Decision{Value: m.Sheet, How: reading.Declared, Evidence: []reading.Cell{ev}}, true
		}
	}
	return "", reading.Decision{}, false
}
