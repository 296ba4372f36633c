package jobs

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/export"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// firstPage is how many problems a summary carries: the review table shows
// every problem at its cell, and the list starts short so that it renders
// at once; the page asks for more with wire.JobProblems.
const firstPage = 25

// maxWindow is the most rows one JobRows answer holds.
const maxWindow = 500

// build runs wire.JobBuild.
func (s *Server) build(c *runner.Call) (any, error) {
	var req wire.Build
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.Get(req.Document)
	if err != nil {
		return nil, err
	}
	if d.review == nil {
		if err := s.buildDocument(c, d); err != nil {
			return nil, err
		}
		s.recordDraft(c.Context(), d, draft.Op{Build: true}, false)
	}
	return s.firstSummary(d), nil
}

// firstSummary is the summary of a document the page has not shown yet,
// with the table's first window, so that the page draws both at once.
func (s *Server) firstSummary(d *LoadedFile) wire.Summary {
	out := s.summary(d)
	first := rowsWindow(d, wire.RowsWindow{Document: d.ID, Limit: wire.FirstWindow})
	out.FirstRows = &first
	return out
}

// summary returns the counts, totals, columns and first problems of a
// built document.
func (s *Server) summary(d *LoadedFile) wire.Summary {
	rd := d.review
	sum := rd.Summary()
	out := wire.Summary{
		Document:   d.ID,
		Kind:       rd.Kind.ID,
		BackOffice: rd.BackOffice,
		FileName:   d.FileName,
		ReadAs:     rd.ReadAs(),
		Version:    rd.Version(),
		Elements:   sum.Elements,
		Valid:      sum.Valid,
		Invalid:    sum.Invalid,
		Errors:     sum.Errors,
		Warnings:   sum.Warnings,
		Duplicates: sum.Duplicates,
		Totals:     wire.TotalsOf(sum.Totals),
		Problems:   problemPage(rd.Report().Problems, 0, firstPage),
	}
	if d.table != nil {
		out.Sheet = d.table.Sheet
		if d.file != nil && d.file.Encoding != "" && d.table.Sheet != "" {
			w := s.language()
			out.ReadAs = w.F("%s; %s, %s", out.ReadAs, d.file.Encoding, delimiterName(d.file.Delimiter, w))
		}
	}
	currencies := make([]string, len(out.Totals))
	for i, t := range out.Totals {
		currencies[i] = t.Currency
	}
	out.Reading = d.statements(currencies, s.language())
	out.Schedule = s.schedule(d, nil, s.language())
	out.Draft = s.draftOf(d)
	out.SourceCount = len(sum.Sources)
	for _, st := range sum.Sources[:min(len(sum.Sources), wire.MaxSources)] {
		out.Sources = append(out.Sources, wire.SourceTotal{Source: st.Source, Count: st.Count, Totals: wire.TotalsOf(st.Totals)})
	}
	out.Columns = gridColumns(d)
	out.Undoable = len(d.edits().steps)
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	out.WorkerMemory = mem.Sys
	return out
}

func delimiterName(d string, w lang.Tag) string {
	if d == "" {
		return ""
	}
	return w.F("delimiter %s", w.T(reading.DelimiterName(d)))
}

// rows runs wire.JobRows.
func (s *Server) rows(c *runner.Call) (any, error) {
	var req wire.RowsWindow
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	return rowsWindow(d, req), nil
}

// rowsWindow is the window of a built document's table that req asks for.
func rowsWindow(d *LoadedFile, req wire.RowsWindow) wire.Rows {
	rd := d.review
	out := wire.Rows{Document: d.ID, Version: rd.Version(), Total: rd.ViewLen(req.ErrorsOnly), Position: -1}
	limit := min(max(req.Limit, 0), maxWindow)
	offset := req.Offset
	if req.Around != nil {
		out.Position = rd.Position(*req.Around, req.ErrorsOnly)
		if out.Position >= 0 {
			offset = out.Position - limit/2
		}
	}
	offset = max(0, min(offset, out.Total-limit))
	out.Offset = offset
	for _, r := range rd.Rows(offset, limit, req.ErrorsOnly) {
		g := wireRow(r)
		markEdited(d, &g)
		out.Rows = append(out.Rows, g)
	}
	return out
}

func wireRow(r review.Row) wire.GridRow {
	g := wire.GridRow{Element: r.Element, Label: r.Label, Cells: r.Cells, Problems: r.Problems, Severity: string(r.Severity), Numbers: r.Numbers}
	for _, m := range r.Marks {
		g.Marks = append(g.Marks, wire.CellMark{Column: m.Column, Severity: string(m.Severity), Messages: m.Messages})
	}
	return g
}

// edit runs wire.JobEdit.
func (s *Server) edit(c *runner.Call) (any, error) {
	var req wire.Edit
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	change, err := d.review.EditCell(req.Element, req.Column, req.Text)
	if err != nil {
		return nil, s.failure(wire.CodeBadRequest, err)
	}
	// The edit is stored before the page hears of it.
	seq := s.recordDraft(c.Context(), d, draft.Op{Edit: &draft.Edit{Element: req.Element, Column: req.Column, Value: req.Text}}, false)
	d.edits().push(seq, change)
	row := wireRow(d.review.Row(req.Element))
	markEdited(d, &row)
	return wire.Edited{Row: row, Summary: s.summary(d)}, nil
}

// amountLimits runs wire.JobAmountLimits.
func (s *Server) amountLimits(c *runner.Call) (any, error) {
	var req wire.AmountLimits
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	var d *LoadedFile
	if req.Document != 0 {
		var err error
		if d, err = s.documents.built(req.Document); err != nil {
			return nil, err
		}
	}
	out, err := s.setLimits(req.Limits, req.Lang, d)
	if err != nil {
		return nil, err
	}
	// The limits apply to every document: they go into the draft of
	// whichever document has one.
	s.draft.mu.Lock()
	doc := s.draft.doc
	s.draft.mu.Unlock()
	if dd, err := s.documents.Get(doc); err == nil {
		s.recordDraft(c.Context(), dd, draft.Op{Limits: draftLimits(req)}, false)
	}
	if d != nil {
		sum := s.summary(d)
		out.Summary = &sum
	}
	return out, nil
}

// setLimits reads amount limits typed in the language typed (see
// wire.AmountLimits.Lang) and uses them, checking d again when it is
// not nil.
func (s *Server) setLimits(texts []string, typed string, d *LoadedFile) (wire.AmountLimitsSet, error) {
	l, _ := lang.Parse(typed)
	sep := l.Separators()
	limits := make(ingest.AmountLimits, len(texts))
	for _, text := range texts {
		if strings.TrimSpace(text) == "" {
			continue
		}
		cur, minor, err := ingest.ParseAmountLimit(text, sep)
		if err != nil {
			return wire.AmountLimitsSet{}, s.failure(wire.CodeBadRequest, err)
		}
		if old, dup := limits[cur]; dup && old != minor {
			return wire.AmountLimitsSet{}, s.failure(wire.CodeBadRequest, lang.Errorf("%q: %s already has a limit", text, cur))
		}
		limits[cur] = minor
	}
	s.limits = limits
	if d != nil && d.review != nil {
		d.review.SetAmountLimits(limits)
	}
	if typed == "" {
		return wire.AmountLimitsSet{Limits: limits.Texts()}, nil
	}
	return wire.AmountLimitsSet{Limits: limits.TextsIn(sep)}, nil
}

// replace runs wire.JobReplace.
func (s *Server) replace(c *runner.Call) (any, error) {
	var req wire.Replace
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	change, err := s.replaceIn(d, req)
	if err != nil {
		return nil, s.failure(wire.CodeBadRequest, err)
	}
	if change.Len() > 0 {
		// One change to undo, however many cells it changed.
		seq := s.recordDraft(c.Context(), d, draft.Op{Replace: draftReplace(req)}, false)
		d.edits().push(seq, change)
	}
	return wire.Replaced{Cells: change.Len(), Summary: s.summary(d)}, nil
}

// replaceIn runs a find-and-replace, or capitals, on a built document.
func (s *Server) replaceIn(d *LoadedFile, req wire.Replace) (review.Change, error) {
	if req.UpperCase {
		return d.review.UpperCase(req.Column)
	}
	return d.review.ReplaceCells(req.Column, req.Find, req.With, req.MatchCase, req.WholeCell)
}

// nextProblem runs wire.JobNextProblem.
func (s *Server) nextProblem(c *runner.Call) (any, error) {
	var req wire.NextProblem
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	from := review.Place{Element: req.After, Column: -1}
	switch {
	case req.AfterColumn != nil:
		from.Column = *req.AfterColumn
	case req.Back:
		from.Column = -2 // before every cell: the element is behind
	default:
		from.Column = 1 << 30 // past the row: the element is behind
	}
	// A row's cells in the order the table shows them.
	f, ok := d.review.NextShownProblem(wire.ShownOrder(gridColumns(d)), from, req.Back, req.ErrorsOnly)
	if !ok {
		return wire.FoundProblem{Column: -1, Position: -1}, nil
	}
	ps := problemPage([]schema.Problem{f.Problem}, 0, 1)
	return wire.FoundProblem{Found: true, Wrapped: f.Wrapped, Element: f.Element, Column: f.Column, Position: f.Position, Problem: ps[0]}, nil
}

// problems runs wire.JobProblems.
func (s *Server) problems(c *runner.Call) (any, error) {
	var req wire.ProblemsPage
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Offset < 0 || req.Limit <= 0 {
		return nil, s.Hidden(wire.CodeBadRequest, fmt.Sprintf("a page needs an offset of 0 or more and a positive limit, not %d and %d", req.Offset, req.Limit))
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	all := d.review.Report().Problems
	return wire.Problems{Total: len(all), Offset: req.Offset, Problems: problemPage(all, req.Offset, req.Limit)}, nil
}

// problemPage converts problems[offset:offset+limit] for the page.
func problemPage(problems []schema.Problem, offset, limit int) []wire.Problem {
	offset = min(offset, len(problems))
	end := min(offset+limit, len(problems))
	out := make([]wire.Problem, 0, end-offset)
	for _, p := range problems[offset:end] {
		out = append(out, wire.Problem{
			Element:  p.Element,
			Field:    p.Field,
			Code:     p.Code,
			Message:  p.Message,
			Severity: string(p.Severity),
			Value:    p.Value,
			Sheet:    p.Sheet,
			Row:      p.Row,
			Column:   p.Column,
		})
	}
	return out
}

// export runs wire.JobExport.
func (s *Server) export(c *runner.Call) (any, error) {
	var req wire.Export
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.What == wire.ExportMapping {
		return s.exportMapping(c, req.Document)
	}
	d, err := s.documents.built(req.Document)
	if err != nil {
		return nil, err
	}
	base := baseName(d.FileName)
	var data []byte
	var out wire.Exported
	switch req.What {
	case wire.ExportRequest:
		data, err = export.RequestBody(d.review)
		out = wire.Exported{FileName: base + ".request.json", MediaType: "application/json"}
	case wire.ExportErrorWorkbook:
		return errorWorkbook(d, wire.Exported{FileName: base + ".errors.xlsx", MediaType: wire.XLSXType}, s.language()), nil
	case wire.ExportErrorCSV:
		data, err = export.ErrorCSV(d.review, s.language())
		out = wire.Exported{FileName: base + ".errors.csv", MediaType: "text/csv"}
	case wire.ExportManifest:
		data, err = export.Manifest(d.review, time.Now())
		out = wire.Exported{FileName: base + ".manifest.csv", MediaType: "text/csv"}
	default:
		return nil, s.Hidden(wire.CodeBadRequest, fmt.Sprintf("there is no export %q", req.What))
	}
	if err != nil {
		return nil, err
	}
	out.Size = len(data)
	c.SetData(data)
	return out, nil
}

// exportMapping writes the mapping file of a table's import, with the
// settings it reads with and its sheet, or its encoding and delimiter,
// to reuse with the next file of the same shape.
func (s *Server) exportMapping(c *runner.Call, id int) (any, error) {
	d, err := s.documents.Get(id)
	if err != nil {
		return nil, err
	}
	if d.im == nil {
		return nil, s.Hidden(wire.CodeBadRequest, "only a spreadsheet or CSV file has a column mapping")
	}
	data, err := ingest.MarshalMapping(d.im.SavedMapping())
	if err != nil {
		return nil, err
	}
	c.SetData(data)
	return wire.Exported{FileName: baseName(d.FileName) + ".mapping.json", MediaType: "application/json", Size: len(data)}, nil
}

// baseName is a file's name without its extension, or "bulk".
func baseName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if name == "" {
		return "bulk"
	}
	return name
}

// displayName is how messages name a file the page did not name.
func displayName(name string, w lang.Tag) string {
	if name == "" {
		return w.T("the file")
	}
	return name
}

// pinIdentity pins the column of the kind's first identity field the table
// shows, if any.
func pinIdentity(k *schema.Kind, cols []wire.GridColumn) {
	if k == nil {
		return
	}
	for _, field := range k.Identity {
		for i := range cols {
			if cols[i].Field == field {
				cols[i].Pinned = true
				return
			}
		}
	}
}
