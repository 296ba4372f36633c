package jobs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestAmountLimitsJob(t *testing.T) {
	h := newHarness(t)
	s, _ := h.summary(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if s.Warnings != 0 {
		t.Fatalf("warnings before any limit: %+v", s.Problems)
	}
	var set wire.AmountLimitsSet
	h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Document: s.Document, Limits: []string{"EUR:10", "usd:2,500.5"}}, nil), &set)
	if !slices.Equal(set.Limits, []string{"EUR:10.00", "USD:2500.50"}) || set.Summary == nil || set.Summary.Warnings != 1 {
		t.Fatalf("limits set: %+v", set)
	}
	found := false
	for _, p := range set.Summary.Problems {
		if p.Code == "amount-above-limit" && p.Row == 2 && p.Column == "G" {
			found = true
		}
	}
	if !found {
		t.Errorf("problems %+v", set.Summary.Problems)
	}
	// The limits apply to the documents built afterwards.
	s2, _ := h.summary(h.send(wire.JobOpen, wire.Open{FileName: "pay2.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if s2.Warnings != 1 {
		t.Errorf("the next file: %d warnings", s2.Warnings)
	}
	body := []byte(`[{"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "2"}, "destinationAmount": {"currency": "EUR", "amount": 5000}}}]`)
	p := h.load(body)
	if p.Summary.Warnings != 1 {
		t.Errorf("a request body: %d warnings", p.Summary.Warnings)
	}
	// A bad limit is refused, naming it.
	e := h.failure(h.send(wire.JobAmountLimits, wire.AmountLimits{Limits: []string{"EURO:10"}}, nil))
	if e.Code != wire.CodeBadRequest || !strings.Contains(e.Message, "EURO:10") {
		t.Errorf("bad limit: %+v", e)
	}
	// Typed as the operator's language writes numbers, and written back
	// so; the plain form reads in every language.
	h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Document: p.Document, Limits: []string{"EUR:10,00", "USD:2.500,5", "GBP:1000.50"}, Lang: "de"}, nil), &set)
	if !slices.Equal(set.Limits, []string{"EUR:10,00", "GBP:1.000,50", "USD:2.500,50"}) || set.Summary.Warnings != 1 {
		t.Fatalf("limits in German: %+v", set)
	}
	h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Limits: []string{"EUR:10 000,00"}, Lang: "fr"}, nil), &set)
	if !slices.Equal(set.Limits, []string{"EUR:10\u202f000,00"}) {
		t.Fatalf("limits in French: %+v", set)
	}
	e = h.failure(h.send(wire.JobAmountLimits, wire.AmountLimits{Limits: []string{"EUR:1.500"}, Lang: "fr"}, nil))
	if e.Code != wire.CodeBadRequest || !strings.Contains(e.Message, "reads two ways") {
		t.Errorf("a limit that reads two ways: %+v", e)
	}
	// None removes them.
	h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Document: p.Document}, nil), &set)
	if len(set.Limits) != 0 || set.Summary.Warnings != 0 {
		t.Errorf("limits removed: %+v", set)
	}
}
