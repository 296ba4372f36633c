package jobs_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A request body is kept as the file's bytes and each element decoded
// when it is read; what the operator changes must stay changed through
// another kind and back, reach the request as it would be sent, and the
// key written twice must be reported once, the last value kept, as when
// the whole body was decoded at once.
func TestARequestBodysEditsSurviveAnotherKind(t *testing.T) {
	h := newHarness(t)
	body := bytes.Replace(fixture.Plain.Body(3, 1), []byte(`"profileId":`), []byte(`"profileId":"1","profileId":`), 1)
	p := h.load(body)
	s := p.Summary
	// Element 1's currency is in lower case, element 0 repeats a key.
	if s.Elements != 3 || s.Invalid != 2 {
		t.Fatalf("opened: %d elements, %d invalid", s.Elements, s.Invalid)
	}
	if !slices.ContainsFunc(s.Problems, func(p wire.Problem) bool { return p.Code == "duplicate-key" }) {
		t.Errorf("the key written twice is not reported: %+v", s.Problems)
	}
	currency := slices.IndexFunc(s.Columns, func(c wire.GridColumn) bool { return c.Field == "destinationAmount.currency" })
	if currency < 0 {
		t.Fatalf("no currency column in %+v", s.Columns)
	}
	was := h.cell(p.Document, 1, currency)
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: p.Document, Element: 1, Column: currency, Text: "EUR"}, nil), &edited)
	if edited.Summary.Invalid != 1 || was == "EUR" {
		t.Fatalf("after the edit of %q: %d invalid", was, edited.Summary.Invalid)
	}
	for _, kind := range []string{"sends", "transfers"} {
		var again wire.Prepared
		h.result(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Kind: kind}, nil), &again)
		if again.Summary == nil || again.Summary.Kind != kind {
			t.Fatalf("as %s: %+v", kind, again)
		}
		if got := h.cell(p.Document, 1, currency); got != "EUR" {
			t.Errorf("as %s, the edited currency reads %q", kind, got)
		}
		// The repeated key is reported by the first check only, which
		// reads the file; the lower-case currency would be invalid.
		if kind == "transfers" && again.Summary.Invalid != 0 {
			t.Errorf("back as transfers, %d invalid: the edit was lost", again.Summary.Invalid)
		}
	}
	_, m := h.wait(h.send(wire.JobExport, wire.Export{Document: p.Document, What: wire.ExportRequest}, nil))
	var sent []map[string]map[string]any
	if err := json.Unmarshal(m.Data, &sent); err != nil || len(sent) != 3 {
		t.Fatalf("the request as sent: %s (%v)", m.Data, err)
	}
	if got := sent[1]["requestBody"]["destinationAmount"].(map[string]any)["currency"]; got != "EUR" {
		t.Errorf("element 1 is sent with currency %v", got)
	}
	if got := sent[0]["requestBody"]["profileId"]; got == "1" || strings.Count(string(m.Data), `"profileId"`) != 3 {
		t.Errorf("element 0 is sent with profileId %v: %s", got, m.Data)
	}
}
