package jobs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// CodeUnreadable is the error code of a file that cannot be read at all;
// the message says why and what to do.
const CodeUnreadable = "unreadable"

// open runs wire.JobOpen, and starts the document's draft.
func (s *Server) open(c *runner.Call) (any, error) {
	var req wire.Open
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	s.beginPhases()
	d, p, err := s.openDocument(c, req, c.Data)
	if err != nil {
		s.endPhases()
		return nil, err
	}
	s.beginDraft(c.Context(), d, req, c.Data)
	p.Draft = s.draftOf(d)
	p.Phases = s.endPhases()
	if p.Summary != nil {
		p.Summary.Draft = p.Draft
	}
	return p, nil
}

// openDocument opens a file's bytes (or req.Text) as a new document and
// describes how it is read, built already when req.Auto allows.
func (s *Server) openDocument(c *runner.Call, req wire.Open, data []byte) (*LoadedFile, wire.Prepared, error) {
	d := &LoadedFile{FileName: req.FileName, data: data, text: req.Text, BackOffice: req.BackOffice}
	d.opts = ingest.Options{Encoding: req.Encoding, Delimiter: req.Delimiter, Lang: s.language()}
	if err := (ingest.Settings{TimeZone: req.TimeZone}).Check(); err != nil {
		return nil, wire.Prepared{}, s.failure(wire.CodeBadRequest, err)
	}
	d.timeZone = req.TimeZone
	if req.Text != "" && d.FileName == "" {
		d.FileName = s.language().T("Pasted rows")
	}
	if req.Kind != "" {
		k, err := s.lookupKind(req.Kind, req.BackOffice)
		if err != nil {
			return nil, wire.Prepared{}, err
		}
		d.Kind = k
	}
	if err := s.read(c, d); err != nil {
		return nil, wire.Prepared{}, err
	}
	s.documents.Add(d)
	if err := s.readTable(c, d, ""); err != nil {
		return nil, wire.Prepared{}, err
	}
	if err := s.chooseKind(c, d); err != nil {
		return nil, wire.Prepared{}, err
	}
	p, err := s.finish(c, d, req.Auto, false)
	if err != nil {
		return nil, p, err
	}
	return d, p, nil
}

// finish describes how a document is read and builds it when asked to
// (build), when it is a request body, which needs no more choices once
// its kind is known, or when asked to if nothing needs confirming (auto).
func (s *Server) finish(c *runner.Call, d *LoadedFile, auto, build bool) (wire.Prepared, error) {
	s.lap(partRead)
	p := s.prepared(d)
	request := d.file != nil && d.file.IsRequest()
	if d.review == nil && d.Kind != nil && (build || request || auto && p.Ready) {
		if err := s.buildDocument(c, d); err != nil {
			return p, err
		}
	}
	if d.review != nil {
		sum := s.firstSummary(d)
		p.Summary = &sum
		s.lap(partReview)
	}
	return p, nil
}

// prepare runs wire.JobPrepare, and adds it to the draft: even when it
// fails, since it may have changed the document before it did.
func (s *Server) prepare(c *runner.Call) (any, error) {
	var req wire.Prepare
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	d, err := s.documents.Get(req.Document)
	if err != nil {
		return nil, err
	}
	// Edits live in the table read from the file: they outlive a rebuild,
	// and go only when the table is read again.
	table := d.table
	s.beginPhases()
	p, err := s.prepareDocument(c, d, req)
	op := req
	if c.Context().Err() != nil {
		// Canceled, most often while building: what it changed before
		// stays, the build does not.
		op.Auto, op.Build = false, false
	}
	s.recordDraft(c.Context(), d, draft.Op{Prepare: draftPrepare(op)}, d.table != table)
	phases := s.endPhases()
	if err != nil {
		return nil, err
	}
	p.Draft = s.draftOf(d)
	p.Phases = phases
	if p.Summary != nil {
		p.Summary.Draft = p.Draft
	}
	return p, nil
}

// prepareDocument changes how d is read as req asks.
func (s *Server) prepareDocument(c *runner.Call, d *LoadedFile, req wire.Prepare) (wire.Prepared, error) {
	var saved *ingest.Mapping
	if req.SavedMapping != "" {
		m, err := ingest.UnmarshalMapping([]byte(req.SavedMapping))
		if err != nil {
			return wire.Prepared{}, s.failure(wire.CodeBadRequest, err)
		}
		saved = &m
		savedReading(d, &req, m)
	}
	backOffice := d.BackOffice
	if req.BackOffice != nil {
		backOffice = *req.BackOffice
	}
	if req.Kind != "" || backOffice != d.BackOffice {
		id := req.Kind
		if id == "" && d.Kind != nil {
			id = d.Kind.ID
		}
		k, err := s.lookupKind(id, backOffice)
		if err != nil {
			return wire.Prepared{}, err
		}
		changed := d.Kind != k
		d.Kind, d.BackOffice, d.KindSuggested = k, backOffice, false
		if changed {
			d.im, d.review = nil, nil
			if req.Sheet == "" && !reread(d, req) {
				// Another kind may fit another sheet better.
				if err := s.sheetForKind(c, d); err != nil {
					return wire.Prepared{}, err
				}
			}
		} else if d.review != nil {
			d.review.BackOffice = backOffice
		}
	}
	again := reread(d, req)
	if again {
		if req.Encoding != "" {
			d.opts.Encoding = req.Encoding
		}
		if req.Delimiter != "" {
			d.opts.Delimiter = req.Delimiter
		}
		if err := s.read(c, d); err != nil {
			return wire.Prepared{}, err
		}
	}
	if req.Sheet != "" && d.table != nil && req.Sheet == d.table.Sheet && !again {
		d.table.Reading.Sheet = reading.Decision{Value: req.Sheet, How: reading.Chosen}
	}
	if again || req.Sheet != "" && d.table != nil && req.Sheet != d.table.Sheet {
		// The mapping of the table read before is applied again to the new
		// one, matched by header, so the operator's choices are kept.
		var before *ingest.Mapping
		if d.im != nil {
			m := d.im.Mapping()
			before = &m
		}
		if err := s.readTable(c, d, req.Sheet); err != nil {
			return wire.Prepared{}, err
		}
		if before != nil && d.im != nil {
			_, _ = d.im.UseSavedMapping(*before)
		}
	}
	if d.im == nil && d.table != nil && d.Kind != nil {
		d.im = s.newImport(d, d.table)
	}
	if err := s.applyMapping(d, req, saved); err != nil {
		return wire.Prepared{}, s.failure(wire.CodeBadRequest, err)
	}
	return s.finish(c, d, req.Auto, req.Build)
}

// savedReading makes a saved mapping's sheet, encoding and delimiter part
// of the request, unless the request names its own: a mapping file
// restores how the file was read, not only its columns.
func savedReading(d *LoadedFile, req *wire.Prepare, saved ingest.Mapping) {
	if d.file == nil {
		return
	}
	switch d.file.Format {
	case ingest.XLSX:
		if req.Sheet != "" || saved.Sheet == "" {
			return
		}
		for _, sh := range d.file.Sheets() {
			if sh.Name == saved.Sheet {
				req.Sheet = saved.Sheet
			}
		}
	case ingest.CSV:
		if req.Encoding == "" {
			req.Encoding = saved.Encoding
		}
		if req.Delimiter == "" {
			req.Delimiter = saved.Delimiter
		}
	}
}

// reread reports whether a Prepare asks to read the file again with
// another encoding or delimiter.
func reread(d *LoadedFile, req wire.Prepare) bool {
	return req.Encoding != "" && req.Encoding != d.opts.Encoding || req.Delimiter != "" && req.Delimiter != d.opts.Delimiter
}

// applyMapping applies the header row, mapping and settings a Prepare
// asks for, and saved, the mapping file it carries, read; any of them
// makes the built document stale.
func (s *Server) applyMapping(d *LoadedFile, req wire.Prepare, saved *ingest.Mapping) error {
	if d.im == nil {
		if req.HeaderRow > 0 || len(req.Columns) > 0 || len(req.Values) > 0 || saved != nil || req.Settings != nil || len(req.Chosen) > 0 {
			return lang.Errorf("choose the kind before the columns")
		}
		return nil
	}
	stale := false
	if req.Automatic {
		d.im = s.newImport(d, d.table)
		stale = true
	}
	if req.HeaderRow > 0 && req.HeaderRow != d.im.Mapping().HeaderRow {
		if err := d.im.SetHeaderRow(req.HeaderRow); err != nil {
			return err
		}
		stale = true
	}
	if saved != nil {
		missing, err := d.im.UseSavedMapping(*saved)
		if err != nil {
			return lang.Errorf("the mapping file: %s", err)
		}
		if len(missing) > 0 {
			d.table.Notes = appendOnce(d.table.Notes, s.language().F("The mapping file names columns this file lacks: %s.", strings.Join(missing, ", ")))
		}
		stale = true
	}
	if len(req.Columns) > 0 || len(req.Values) > 0 {
		m := d.im.Mapping()
		for _, ch := range req.Columns {
			if err := m.Set(ch.Column, ch.Field); err != nil {
				return err
			}
		}
		for _, v := range req.Values {
			m.SetValue(v.Field, v.Value)
		}
		settings, detected := d.im.Settings(), d.im.DetectedSettings()
		if err := d.im.SetMapping(m); err != nil {
			return err
		}
		// The operator's settings outlive a change of columns; detection
		// only fills in what was never chosen.
		if settings != detected {
			_ = d.im.SetSettings(settings)
		}
		stale = true
	}
	if req.Settings != nil || len(req.Chosen) > 0 {
		settings := d.im.Settings()
		if req.Settings != nil {
			settings = fromWireSettings(*req.Settings)
		}
		for _, name := range req.Chosen {
			if !slices.Contains(settingNames, name) {
				return fmt.Errorf("%q is not a setting; the settings are %s", name, strings.Join(settingNames, ", "))
			}
		}
		if err := d.im.SetSettings(settings, req.Chosen...); err != nil {
			return err
		}
		if slices.Contains(req.Chosen, wire.SettingTimeZone) {
			d.timeZone = settings.TimeZone
		}
		stale = true
	}
	if stale {
		d.review = nil
	}
	return nil
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// lookupKind finds a kind and checks it has the variant asked for.
func (s *Server) lookupKind(id string, backOffice bool) (*schema.Kind, error) {
	k, err := schema.Lookup(id)
	if err != nil {
		return nil, s.failure(wire.CodeBadRequest, err)
	}
	if _, err := k.Endpoint(backOffice); err != nil {
		return nil, s.failure(wire.CodeBadRequest, err)
	}
	return k, nil
}

// read opens the document's bytes or text. A JSON file that does not
// parse becomes a request with one problem saying where; any other file
// that cannot be read is an error naming the place at fault.
func (s *Server) read(c *runner.Call, d *LoadedFile) error {
	var f *ingest.File
	var err error
	if d.text != "" {
		f, err = ingest.OpenText(d.text)
	} else {
		f, err = ingest.Open(d.FileName, d.data, d.opts)
	}
	d.file, d.table, d.im, d.review = nil, nil, nil, nil
	var syntax *schema.SyntaxError
	switch {
	case errors.As(err, &syntax):
		d.review = notJSON(d, syntax, s.validator, s.language())
		return nil
	case err != nil:
		return s.failure(CodeUnreadable, err)
	}
	d.file = f
	return nil
}

// notJSON is the document of a JSON file that does not parse.
func notJSON(d *LoadedFile, syntax *schema.SyntaxError, v *schema.Validator, w lang.Tag) *review.Document {
	k := d.Kind
	if k == nil {
		k = schema.Kinds()[0]
	}
	r := &schema.Report{Kind: k.ID}
	r.Add(schema.Problem{
		Element:  schema.RequestLevel,
		Code:     "not-json",
		Message:  w.F("%s is not a JSON request body: %s", displayName(d.FileName, w), syntax),
		Severity: schema.Error,
	})
	return review.FromRequest(k, d.BackOffice, d.FileName, nil, r, v)
}

// readTable reads a sheet of a table file, and prepares its import when
// the kind is known. sheet is the operator's pick; "" chooses the sheet
// whose headers best fit the kind when it is known, else reads the
// default sheet.
func (s *Server) readTable(c *runner.Call, d *LoadedFile, sheet string) error {
	if d.file == nil || d.file.IsRequest() {
		return nil
	}
	progress := func(done, total int) {
		c.Progress(wire.Progress{Phase: wire.PhaseReading, Done: done, Total: total})
	}
	var t *ingest.Table
	var err error
	if d.Kind != nil {
		t, err = d.file.TableFor(c.Context(), sheet, d.Kind, s.validator, progress)
	} else {
		t, err = d.file.TableContext(c.Context(), sheet, progress)
	}
	if err != nil {
		if c.Context().Err() != nil {
			return c.Context().Err()
		}
		return s.failure(CodeUnreadable, err)
	}
	d.table, d.im, d.review = t, nil, nil
	if d.Kind != nil {
		d.im = s.newImport(d, t)
	}
	return nil
}

// chooseKind suggests kinds from the file's headers or fields, and takes
// the best when the operator chose none.
func (s *Server) chooseKind(c *runner.Call, d *LoadedFile) error {
	switch {
	case d.table != nil:
		d.suggestions = suggestForTable(d.table, s.validator)
		if len(d.suggestions) == 0 || d.suggestions[0].Matched == 0 {
			d.suggestions = s.suggestFromOtherSheets(d, d.suggestions)
		}
	case d.file != nil && d.file.IsRequest():
		d.suggestions = suggestForRequest(requestHead(d.file), s.validator)
	}
	if k, backOffice := templateKind(d); k != nil {
		// A template names its kind: not a suggestion to check.
		d.Kind, d.BackOffice = k, backOffice
		return s.sheetForKind(c, d)
	}
	if d.Kind != nil || len(d.suggestions) == 0 {
		return nil
	}
	best := d.suggestions[0]
	if best.Matched == 0 || len(d.suggestions) > 1 && sameScore(best, d.suggestions[1]) {
		return nil
	}
	k, err := schema.Lookup(best.Kind)
	if err != nil {
		return err
	}
	d.Kind, d.KindSuggested, d.BackOffice = k, true, false
	if d.table != nil {
		return s.sheetForKind(c, d)
	}
	return nil
}

// suggestFromOtherSheets looks for the kind in the other visible sheets
// of a workbook whose first sheet tells none (a cover or a summary): the
// suggestions of the one sheet whose headers fit a kind best, or those
// given when no single sheet does.
func (s *Server) suggestFromOtherSheets(d *LoadedFile, given []wire.KindSuggestion) []wire.KindSuggestion {
	if d.file == nil || d.file.Format != ingest.XLSX || d.table.Reading.Sheet.How == reading.Chosen {
		return given
	}
	var best []wire.KindSuggestion
	tie := false
	for _, sh := range d.file.Sheets() {
		if sh.Hidden || sh.Empty || sh.Name == d.table.Sheet {
			continue
		}
		top, err := d.file.TopRows(sh.Name, suggestRows)
		if err != nil {
			continue
		}
		sug := suggestForTable(top, s.validator)
		if len(sug) == 0 || sug[0].Matched == 0 {
			continue
		}
		switch {
		case best == nil || sug[0].Matched > best[0].Matched:
			best, tie = sug, false
		case sug[0].Matched == best[0].Matched:
			tie = true
		}
	}
	if best == nil || tie {
		return given
	}
	return best
}

// sheetForKind reads again, once the kind is known, the sheet whose
// headers best fit it, unless the operator picked the sheet, and
// prepares the import.
func (s *Server) sheetForKind(c *runner.Call, d *LoadedFile) error {
	if d.table == nil || d.Kind == nil {
		return nil
	}
	if d.table.Reading.Sheet.How != reading.Chosen && d.file.Format == ingest.XLSX {
		name, decision := d.file.ChooseSheet(d.Kind, s.validator)
		if name != d.table.Sheet {
			t, err := d.file.TableContext(c.Context(), name, func(done, total int) {
				c.Progress(wire.Progress{Phase: wire.PhaseReading, Done: done, Total: total})
			})
			if err != nil {
				if c.Context().Err() != nil {
					return c.Context().Err()
				}
				return s.failure(CodeUnreadable, err)
			}
			d.table, d.review = t, nil
		}
		d.table.Reading.Sheet = decision
	}
	d.im = s.newImport(d, d.table)
	return nil
}

// buildDocument builds and validates the document's elements.
func (s *Server) buildDocument(c *runner.Call, d *LoadedFile) error {
	if d.file != nil && d.file.IsRequest() {
		return s.buildRequest(c, d)
	}
	if d.im == nil {
		return wire.Errorf(wire.CodeBadRequest, "%s", s.language().F("choose the bulk kind of %s first", displayName(d.FileName, s.language())))
	}
	d.im.SetAmountLimits(s.limits)
	_, err := d.im.BuildContext(c.Context(), func(done, total int) {
		c.Progress(wire.Progress{Phase: wire.PhaseValidating, Done: done, Total: total})
	})
	if err != nil {
		return err
	}
	s.lap(partValidate)
	times, pass := s.timesPass(d.Kind)
	rd, err := review.FromImport(d.im, d.BackOffice, d.FileName, pass)
	if err != nil {
		return err
	}
	d.review = rd
	times.made(rd)
	d.times = times
	return nil
}
