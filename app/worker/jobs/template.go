package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// template runs wire.JobTemplate: the second worker writes it, with the
// kind's fields in the contract in use here.
func (s *Server) template(c *runner.Call) (any, error) {
	var req wire.TemplateRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	k, err := s.lookupKind(req.Kind, req.BackOffice)
	if err != nil {
		return nil, err
	}
	if err := s.validator.Has(k); err != nil {
		return nil, s.failure(wire.CodeBadRequest, err)
	}
	return runner.Handoff{Job: handoff.TemplateJob, Request: handoff.Template{Request: req, Fields: s.validator.Fields(k)}}, nil
}

// templateKind returns the kind a template names, and whether for its
// back-office variant, when the operator chose none: the file says what
// it is for.
func templateKind(d *LoadedFile) (*schema.Kind, bool) {
	if d.Kind != nil || d.file == nil {
		return nil, false
	}
	k := d.file.TemplateKind()
	if k == nil {
		return nil, false
	}
	_, err := k.Endpoint(d.file.Template().BackOffice)
	return k, err == nil && d.file.Template().BackOffice
}
