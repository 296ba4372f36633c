package jobs_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The confirmation lists the warnings an operator accepts by sending, by
// sort, with the first few at their cells; those of the elements left
// out are not among them.
func TestTheConfirmationListsTheWarningsToAccept(t *testing.T) {
	h := newHarness(t)
	ts := fixture.Run{}.List(12, 3)
	for _, i := range []int{1, 3, 5, 7, 9} {
		ts[i].Currency = "EUD"
	}
	ts[3].Currency = "eur" // invalid, and left out with -valid-only
	doc := h.load(fixture.Body(fixture.Lines, ts))

	p := h.prepare(wire.PrepareSubmission{Document: doc.Document, ValidOnly: true})
	if p.Plan == "" || p.Sending != 11 {
		t.Fatalf("not planned: %+v", p)
	}
	if len(p.Warnings) != 1 {
		t.Fatalf("warnings %+v, want one sort", p.Warnings)
	}
	w := p.Warnings[0]
	if w.Code != schema.CurrencyCode || w.Title != "Currencies that are not ISO 4217 codes" || w.Count != 4 || len(w.First) != 3 {
		t.Fatalf("warnings %+v, want 4 of %s with the first 3", w, schema.CurrencyCode)
	}
	for n, el := range []int{1, 5, 7} {
		if f := w.First[n]; f.Element != el || f.Field != "destinationAmount.currency" || f.Severity != wire.SeverityWarning || f.Message == "" {
			t.Errorf("warning %d = %+v, want element %d's currency", n, f, el)
		}
	}

	clean := h.load(fixture.Run{}.Body(3))
	if p := h.prepare(wire.PrepareSubmission{Document: clean.Document}); p.Plan == "" || len(p.Warnings) != 0 {
		t.Errorf("a file without warnings: %+v", p)
	}
	// The parts a large file goes in are said by the plan, not accepted.
	large := h.load(fixture.Run{}.Body(schema.MaxElements + 1))
	if p := h.prepare(wire.PrepareSubmission{Document: large.Document}); len(p.Chunks) != 2 || len(p.Warnings) != 0 {
		t.Errorf("a file of two parts: %d parts, warnings %+v", len(p.Chunks), p.Warnings)
	}
}

// Under the console's strict setting the same currency is an error: the
// element is invalid and nothing is sent without the valid-only choice.
func TestStrictMakesACurrencyThatDoesNotExistAnError(t *testing.T) {
	h := newHarness(t)
	var cs wire.ContractState
	h.result(h.send(wire.JobContract, wire.SetContract{Strict: true}, nil), &cs)
	ts := fixture.Run{}.List(3)
	ts[1].Currency = "EUD"
	doc := h.load(fixture.Body(fixture.Lines, ts))
	if s := doc.Summary; s.Invalid != 1 || s.Errors != 1 || s.Warnings != 0 {
		t.Errorf("summary: %d invalid, %d errors, %d warnings", s.Invalid, s.Errors, s.Warnings)
	}
	if p := h.prepare(wire.PrepareSubmission{Document: doc.Document}); p.Plan != "" || p.Blocked == "" {
		t.Errorf("planned under strict: %+v", p)
	}
}
