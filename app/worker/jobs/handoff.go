package jobs

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The jobs below check what the document alone decides, and hand the rest
// (planning against the journal and the API, writing workbooks) to the
// second worker with what it needs of the document.

// prepareSubmission runs wire.JobPrepareSubmission.
func (s *Server) prepareSubmission(c *runner.Call) (any, error) {
	var req wire.PrepareSubmission
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	doc, err := s.documents.Get(req.Document)
	if err != nil {
		return nil, err
	}
	w := s.language()
	out, only := s.confirmation(doc, req, w)
	out.Schedule = s.schedule(doc, only, w)
	if out.Blocked != "" {
		return out, nil
	}
	elements, err := schema.CanonicalEach(doc.count(), doc.review.Element, nil)
	if err != nil {
		return nil, err
	}
	origins := make([]handoff.Origin, doc.count())
	for i := range origins {
		origins[i].Sheet, origins[i].Row = doc.Origin(i)
	}
	return runner.Handoff{
		Job:     handoff.PlanSubmissionJob,
		Request: handoff.PlanSubmission{Request: req, Confirmation: out, Only: only, Origins: origins, Lang: string(w)},
		Data:    elements,
	}, nil
}

// confirmation is what the document decides of a submission: its counts
// and reading, or why nothing can be sent as asked; only lists the
// elements to send when not all are.
func (s *Server) confirmation(doc *LoadedFile, req wire.PrepareSubmission, w lang.Tag) (out wire.Confirmation, only []int) {
	report := doc.Report()
	if report == nil || doc.Kind == nil { // its reading is not confirmed yet
		return wire.Confirmation{Document: doc.ID, FileName: doc.FileName, Blocked: w.T("The file is not validated yet: finish its review first.")}, nil
	}
	invalid := report.InvalidElements()
	out = wire.Confirmation{
		Document: doc.ID, Kind: doc.Kind.ID, BackOffice: doc.BackOffice, FileName: doc.FileName,
		Elements: doc.count(), Invalid: len(invalid), NewBulk: req.NewBulk,
	}
	var currencies []string
	for _, t := range doc.review.Summary().Totals {
		currencies = append(currencies, t.Currency)
	}
	out.Reading = doc.statements(currencies, w)
	ep, err := doc.Kind.Endpoint(doc.BackOffice)
	if err != nil {
		out.Blocked = wire.Sentence(w.Say(s.reason(err)))
		return out, nil
	}
	out.Endpoint = ep.String()
	switch {
	case requestRefused(report) != "":
		out.Blocked = requestRefused(report)
	case doc.count() == 0:
		out.Blocked = w.T("The file holds no elements to submit.")
	case len(invalid) == doc.count():
		out.Blocked = w.T("No element is valid: fix the file and load it again.")
	case len(invalid) == 1 && !req.ValidOnly:
		out.Blocked = w.F("1 of %s elements has errors. Fix it first, or submit the valid ones and keep the invalid one aside as a workbook.", w.Count(doc.count()))
	case len(invalid) > 0 && !req.ValidOnly:
		out.Blocked = w.F("%s of %s elements have errors. Fix them first, or submit the valid ones and keep the invalid ones aside as a workbook.", w.Count(len(invalid)), w.Count(doc.count()))
	}
	if out.Blocked == "" && len(invalid) > 0 {
		only = report.ValidElements()
	}
	if out.Blocked == "" {
		out.Warnings = warningKinds(report, only, w)
	}
	return out, only
}

// requestRefused returns the first problem that refuses the request as a
// whole, except its size: a request over 10,000 elements is sent in
// chunks.
func requestRefused(r *schema.Report) string {
	for _, p := range r.Problems {
		if p.Element == schema.RequestLevel && p.Severity == schema.Error && p.Code != schema.TooManyElements {
			return wire.Sentence(p.Message)
		}
	}
	return ""
}

// asideWorkbook runs wire.JobAsideWorkbook: the invalid elements of a
// document with their errors, to fix and load again.
func (s *Server) asideWorkbook(c *runner.Call) (any, error) {
	var req wire.AsideWorkbook
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	doc, err := s.documents.Get(req.Document)
	if err != nil {
		return nil, err
	}
	w := s.language()
	report := doc.Report()
	if report == nil || doc.Kind == nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "%s", w.T("The file is not validated yet: finish its review first."))
	}
	invalid := report.InvalidElements()
	byElement := make(map[int][]string)
	for _, p := range report.Problems {
		if p.Element >= 0 && p.Severity == schema.Error {
			byElement[p.Element] = append(byElement[p.Element], p.Message)
		}
	}
	notes := make([]string, len(invalid))
	for n, i := range invalid {
		notes[n] = placeNote(doc, i, w) + strings.Join(byElement[i], "\n")
	}
	data, err := schema.CanonicalEach(doc.count(), doc.review.Element, invalid)
	if err != nil {
		return nil, err
	}
	return runner.Handoff{
		Job: handoff.ElementsWorkbookJob,
		Request: handoff.ElementsWorkbook{
			Kind: doc.Kind.ID, Fields: s.validator.Fields(doc.Kind), Notes: notes,
			Name: wire.FileStem(doc.FileName) + "-invalid.xlsx",
		},
		Data: data,
	}, nil
}

// placeNote names where an element was in the operator's file, first in
// its note: the workbook's own rows are numbered afresh.
func placeNote(doc *LoadedFile, i int, w lang.Tag) string {
	if sheet, row := doc.Origin(i); sheet != "" {
		return w.F("(was %s row %d) ", sheet, row)
	}
	return w.F("(was element %d) ", i)
}

// errorWorkbook hands the error workbook of a built document to the
// second worker, which writes it.
func errorWorkbook(d *LoadedFile, out wire.Exported, l lang.Tag) runner.Handoff {
	t, header, r := d.review.ErrorTable()
	return runner.Handoff{
		Job: handoff.ErrorWorkbookJob,
		Request: handoff.ErrorWorkbook{
			Table: t, Header: header, Kind: r.Kind, Elements: r.Elements, Problems: r.Problems, Exported: out,
			Lang: string(l),
		},
	}
}

// resultWorkbook runs wire.JobResultWorkbook: the second worker writes
// it, with the columns of the contract in use here.
func (s *Server) resultWorkbook(c *runner.Call) (any, error) {
	var req wire.ResultWorkbook
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	fields := make(map[string][]schema.Field)
	for _, k := range schema.Kinds() {
		fields[k.ID] = s.validator.Fields(k)
	}
	return runner.Handoff{Job: handoff.ResultWorkbookJob, Request: handoff.ResultWorkbook{Request: req, Fields: fields}}, nil
}
