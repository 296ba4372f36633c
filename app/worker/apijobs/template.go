package apijobs

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/app/worker/handoff"
	"github.com/bulkdesk/bulkdesk/app/worker/runner"
	"github.com/bulkdesk/bulkdesk/schema"
)

// template runs handoff.TemplateJob (the page's wire.JobTemplate): the
// kind's template in the operator's language, named for the kind.
func (s *Server) template(c *runner.Call) (any, error) {
	var ho handoff.Template
	if err := c.Decode(&ho); err != nil {
		return nil, err
	}
	req := ho.Request
	k, err := schema.Lookup(req.Kind)
	if err != nil {
		return nil, s.Failure(wire.CodeBadRequest, err)
	}
	l, _ := lang.Parse(req.Lang)
	data, err := workbook.WriteTemplate(k, ho.Fields, workbook.Template{Lang: l, TimeZone: req.TimeZone, BackOffice: req.BackOffice})
	if err != nil {
		return nil, fmt.Errorf("writing the template: %w", err)
	}
	c.SetData(data)
	return wire.File{Name: l.F("%s-template.xlsx", k.ID), Type: wire.XLSXType}, nil
}
