package apijobs

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/keyfields"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// reviewElements writes every element of a reviewed bulk for the
// checker's grid (wire.ReviewElements, as the review's Data): its key
// fields and its problems, in the validator's language.
func reviewElements(rv *bulkreview.Review) ([]byte, error) {
	els := rv.ElementList(nil)
	out := wire.NewReviewElements(len(els), func(i int) keyfields.Fields { return els[i].Fields })
	out.MovesMoney, out.HasReference, out.ReceiverType = rv.Kind.MovesMoney(), rv.Kind.Reference != "", rv.Kind.ReceiverType
	for _, e := range els {
		if len(e.Problems) == 0 && len(e.Warnings) == 0 {
			continue
		}
		out.Problems = append(out.Problems, wire.ElementProblems{Element: e.Index, Errors: sentences(e.Problems), Warnings: sentences(e.Warnings)})
	}
	data, err := out.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("writing the elements of bulk %s: %w", rv.BulkID, err)
	}
	return data, nil
}

// sentences writes messages as sentences.
func sentences(msgs []string) []string {
	if len(msgs) == 0 {
		return nil
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = wire.Sentence(m)
	}
	return out
}

// differencesOf writes the differences bulkreview found for the page,
// each with the index of the element it is about.
func differencesOf(ds []bulkreview.Difference) []wire.Difference {
	out := make([]wire.Difference, len(ds))
	for i, d := range ds {
		out[i] = wire.Difference{What: d.What, Text: wire.Sentence(d.Text), Index: d.Index}
	}
	return out
}
