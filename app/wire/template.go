package wire

// JobTemplate writes the template of a bulk kind for the operator to fill
// in: its data sheet headed in their language, amounts, dates and choices
// typed as people type them, and a mark that reads it back without a
// question. Request: TemplateRequest. Result: File, with the workbook as
// Data.
const JobTemplate = "template"

// TemplateRequest is the request of JobTemplate.
type TemplateRequest struct {
	Kind       string `json:"kind"`
	BackOffice bool   `json:"backOffice,omitempty"`
	// Lang is the language of the template's words: the console's.
	Lang string `json:"lang,omitempty"`
	// TimeZone, when the operator chose one, is the IANA time zone the
	// template's dates and times are in.
	TimeZone string `json:"timeZone,omitempty"`
}
