package jobs

import (
	"errors"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/schema"
)

// firstPage is how many problems a validation result carries; the page asks
// for more with worker.JobProblems.
const firstPage = 100

// validateJSON runs worker.JobValidateJSON.
func (s *Server) validateJSON(c *Call) (any, error) {
	var req worker.ValidateJSON
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	kind, err := schema.Lookup(req.Kind)
	if err != nil {
		return nil, worker.Errorf(worker.CodeBadRequest, "%v", err)
	}
	if _, err := kind.Endpoint(req.BackOffice); err != nil {
		return nil, worker.Errorf(worker.CodeBadRequest, "%v", err)
	}

	report, err := s.validator.CheckRequestContext(c.Context(), kind, c.Data, func(done, total int) {
		c.Progress(worker.Progress{Phase: "validating", Done: done, Total: total})
	})
	var syntax *schema.SyntaxError
	switch {
	case errors.As(err, &syntax):
		report = &schema.Report{Kind: kind.ID}
		report.Add(schema.Problem{
			Element:  schema.RequestLevel,
			Code:     "not-json",
			Message:  fmt.Sprintf("%s is not a JSON request body: %v", displayName(req.FileName), syntax),
			Severity: schema.Error,
		})
	case err != nil:
		return nil, err
	}

	// The report came from a decoding of its own; the elements are kept
	// for submission. A body that is not an array has none.
	var elements []any
	if syntax == nil {
		if v, _, err := schema.DecodeJSON(c.Data); err == nil {
			elements, _ = v.([]any)
		}
	}
	doc := NewDocument(kind, req.BackOffice, req.FileName, elements, report, nil)
	c.Documents().Add(doc)
	return summarize(doc), nil
}

// summarize returns a document's counts and first page of problems.
func summarize(d *Document) worker.Validated {
	r := d.Report()
	invalid := len(r.InvalidElements())
	return worker.Validated{
		Document: d.ID,
		Kind:     d.Kind.ID,
		FileName: d.FileName,
		Elements: r.Elements,
		Valid:    r.Elements - invalid,
		Invalid:  invalid,
		Errors:   len(r.Errors()),
		Warnings: len(r.Warnings()),
		Problems: problemPage(r.Problems, 0, firstPage),
	}
}

// problems runs worker.JobProblems.
func (s *Server) problems(c *Call) (any, error) {
	var req worker.ProblemsPage
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Offset < 0 || req.Limit <= 0 {
		return nil, worker.Errorf(worker.CodeBadRequest, "a page needs an offset of 0 or more and a positive limit, not %d and %d", req.Offset, req.Limit)
	}
	d, err := c.Documents().Get(req.Document)
	if err != nil {
		return nil, err
	}
	all := d.Report().Problems
	return worker.Problems{Total: len(all), Offset: req.Offset, Problems: problemPage(all, req.Offset, req.Limit)}, nil
}

// problemPage converts problems[offset:offset+limit] for the page.
func problemPage(problems []schema.Problem, offset, limit int) []worker.Problem {
	offset = min(offset, len(problems))
	end := min(offset+limit, len(problems))
	out := make([]worker.Problem, 0, end-offset)
	for _, p := range problems[offset:end] {
		out = append(out, worker.Problem{
			Element:  p.Element,
			Field:    p.Field,
			Code:     p.Code,
			Message:  p.Message,
			Severity: string(p.Severity),
			Sheet:    p.Sheet,
			Row:      p.Row,
			Column:   p.Column,
		})
	}
	return out
}

// displayName is how messages name a file the page did not name.
func displayName(name string) string {
	if name == "" {
		return "the file"
	}
	return name
}
