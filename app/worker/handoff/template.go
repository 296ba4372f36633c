package handoff

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TemplateJob writes the template of a kind (the page's
// wire.JobTemplate). Body: Template. Result: wire.File, with the
// workbook in Data.
const TemplateJob = "write-template"

// Template is the body of TemplateJob: the page's request and the
// kind's fields in the contract in use, which the template's columns are.
type Template struct {
	Request wire.TemplateRequest `json:"request"`
	Fields  []schema.Field       `json:"fields"`
}
