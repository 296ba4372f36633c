package jobs_test

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The schedule of a document's first summary is counted in the review's
// own pass over its elements, from a request body's bytes read flat; it
// must say what a count over the elements decoded says, as it is made
// again once the document changes (here its amount limits): times in
// lists, written as numbers, as digits with escapes, left out, and in an
// element the flat reader leaves to the decoder (a key written twice).
func TestTheFirstScheduleOfABodyIsTheScheduleOfItsElementsDecoded(t *testing.T) {
	h := newHarness(t)
	body := []byte(`[
{"requestBody":{"spendLimit":[{"startTimestamp":1767225600000,"interval":"DAILY"},{"startTimestamp":"1767312000000"}]}},
{"requestBody":{"spendLimit":[{"startTimestamp":"\u0031767225600000"}]}},
{"requestBody":{"spendLimit":[{"interval":"DAILY"}]}},
{"requestBody":{"spendLimit":{"startTimestamp":1767225600000}}},
{"requestBody":{"spendLimit":[{"startTimestamp":1767398400000}],"spendLimit":[{"startTimestamp":1767484800000}]}},
{"requestBody":{}}
]`)
	var p wire.Prepared
	h.result(h.send(wire.JobOpen, wire.Open{FileName: "rules.json", Kind: "card_spend_rules", Auto: true}, body), &p)
	if p.Summary == nil {
		t.Fatalf("no summary: %+v", p)
	}
	first := p.Summary.Schedule
	if len(first) != 1 {
		t.Fatalf("schedule %q, want one line", first)
	}
	var set wire.AmountLimitsSet
	h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Document: p.Summary.Document, Limits: []string{"EUR:10"}}, nil), &set)
	if set.Summary == nil {
		t.Fatalf("no summary after the limits: %+v", set)
	}
	if !slices.Equal(first, set.Summary.Schedule) {
		t.Errorf("the first schedule %q, counted again %q", first, set.Summary.Schedule)
	}
}
