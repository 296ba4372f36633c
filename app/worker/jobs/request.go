package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// buildRequest validates a JSON request body: the file's elements from
// its bytes the first time, with the keys written twice, and as edited
// when the operator changes the kind afterwards. An element found clean
// is never decoded; the review decodes each when it is read.
func (s *Server) buildRequest(c *runner.Call, d *LoadedFile) error {
	progress := func(done, total int) {
		c.Progress(wire.Progress{Phase: wire.PhaseValidating, Done: done, Total: total})
	}
	var report *schema.Report
	var err error
	elements, ok := d.file.RequestElements()
	var body *schema.Body
	if ok {
		body, _ = elements.Body()
	}
	switch {
	case body == nil:
		// Not an array of elements: a request-level problem, no elements.
		doc, dups, _ := d.file.Request()
		elements = ingest.NewRequestElements(nil)
		report, err = s.validator.CheckDocumentContext(c.Context(), d.Kind, doc, dups, progress)
	case !d.checked:
		report, err = s.validator.CheckBodyContext(c.Context(), d.Kind, body, progress)
	default:
		report, err = s.validator.ValidateBodyContext(c.Context(), d.Kind, body, elements.Edited, func(done int) { progress(done, elements.Len()) })
	}
	if err != nil {
		return err
	}
	s.lap(partValidate)
	d.checked = true
	times, pass := s.timesPass(d.Kind)
	d.review = review.FromRequestElements(d.Kind, d.BackOffice, d.FileName, elements, report, s.validator, pass)
	if len(s.limits) > 0 {
		d.review.SetAmountLimits(s.limits)
	}
	times.made(d.review)
	d.times = times
	return nil
}

// requestHead returns the first elements of a request body file, enough
// to suggest its kind (suggestRows), decoded; the document itself when
// it is not an array.
func requestHead(f *ingest.File) any {
	elements, ok := f.RequestElements()
	if !ok {
		doc, _, _ := f.Request()
		return doc
	}
	head := make([]any, min(elements.Len(), suggestRows))
	for i := range head {
		head[i] = elements.At(i)
	}
	return head
}
