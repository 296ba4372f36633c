package wire

import "time"

// FourEyesRecord is what the console reads of the answer of its server's
// GET four-eyes/bulks/{id} (bulkdesk serve -four-eyes): who may execute
// the bulk, who submitted it and when, from which file, and, once another
// operator executed it, who approved it. The page reads it to offer
// Execute; JobServerReceipt reads it, with the receipt beside it.
type FourEyesRecord struct {
	// Rule says the server enforces four eyes; without it, only You is
	// set.
	Rule bool `json:"rule"`
	// Known says the server has a record of the bulk.
	Known       *bool      `json:"known,omitempty"`
	SubmittedBy string     `json:"submittedBy,omitempty"`
	SubmittedAt *time.Time `json:"submittedAt,omitempty"`
	// FileName is the file the console said it submitted; Kind the
	// bulk's kind; State "awaiting", "executed" or "cancelled".
	FileName string `json:"fileName,omitempty"`
	Kind     string `json:"kind,omitempty"`
	State    string `json:"state,omitempty"`
	// ExecutedBy and ExecutedAt say who approved the bulk by executing it
	// through the server, and when.
	ExecutedBy string     `json:"executedBy,omitempty"`
	ExecutedAt *time.Time `json:"executedAt,omitempty"`
	// You is the operator signed in; MayExecute whether they may execute
	// the bulk, and Message why not.
	You        string `json:"you,omitempty"`
	MayExecute *bool  `json:"mayExecute,omitempty"`
	Message    string `json:"message,omitempty"`
}
