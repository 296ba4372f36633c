package bulkreview

import (
	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// An Element is one element of a reviewed bulk as a checker reads it: its
// place, whether it is valid and why not, its key fields (who receives,
// the amount, the reference, the source: the kind's KeyFields), and the
// earlier bulk that holds it too, when the repeat check found one.
type Element struct {
	// Index is the element's place in the bulk, from 0: its operation's
	// sequence.
	Index int  `json:"index"`
	Valid bool `json:"valid"`
	// Problems are the messages of its errors, Warnings of its warnings,
	// in the validator's language.
	Problems []string `json:"problems,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	keyfields.Fields
	// RepeatOf names the latest earlier bulk holding the same element,
	// and RepeatOthers how many more do.
	RepeatOf     []string `json:"repeatOf,omitempty"`
	RepeatOthers int      `json:"repeatOthers,omitempty"`
}

// ElementList returns every element of the bulk, in order, with the
// repeats Repeats found (nil when the check was not made).
func (r *Review) ElementList(repeats []submission.Repeat) []Element {
	out := make([]Element, len(r.Elements))
	for i, el := range r.Elements {
		e := Element{Index: i, Valid: true, Fields: r.Kind.KeyFields(el)}
		for _, p := range r.Problems(i) {
			if p.Severity == schema.Error {
				e.Valid = false
				e.Problems = append(e.Problems, p.Message)
			} else {
				e.Warnings = append(e.Warnings, p.Message)
			}
		}
		out[i] = e
	}
	for _, rp := range repeats {
		if rp.Element >= 0 && rp.Element < len(out) {
			out[rp.Element].RepeatOf = []string{rp.Earlier.BulkID}
			out[rp.Element].RepeatOthers = rp.Others
		}
	}
	return out
}
