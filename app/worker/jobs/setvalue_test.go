package jobs_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// bankCSV is a bank's export of transfers: it lacks the profile and the
// source's type, which every transfer needs.
const bankCSV = `source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount
1001,managed_cards,2001,EUR,1050
1002,managed_cards,2002,EUR,300
`

// TestValuesSetForEveryRowFillWhatTheFileLacks: the fields no column
// fills are offered with their names and choices in the console's
// language; once given a value they are missing no more, the value is
// read at once, the review shows each as a column marked as set, and a
// reload brings them back.
func TestValuesSetForEveryRowFillWhatTheFileLacks(t *testing.T) {
	store := draft.NewMemory()
	h := newHarness(t, withDrafts(store))
	h.contract(wire.SetContract{Lang: "de"})
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "bank.csv", Kind: "transfers", Auto: true}, []byte(bankCSV)))
	if strings.Join(p.Missing, " ") != "profileId source.type" || p.Ready {
		t.Fatalf("missing %q, ready %v", p.Missing, p.Ready)
	}
	var source wire.Target
	for _, tg := range p.Targets {
		if tg.Path == "source.type" {
			source = tg
		}
	}
	if source.Title != "Instrumenttyp" || len(source.Choices) != 2 || source.Choices[1] != (wire.Choice{Value: "managed_accounts", Words: "Verwaltetes Konto"}) {
		t.Errorf("source.type offered as %+v", source)
	}
	doc := p.Document
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Values: []wire.FieldValue{{Field: "profileId", Value: "11O321"}, {Field: "source.type", Value: "managed_accounts"}}}, nil))
	if len(p.Missing) != 0 || len(p.Values) != 2 || p.Values[0].Field != "profileId" || !strings.Contains(p.Values[0].Error, "11O321") || p.Values[1].Parsed != "managed_accounts" || p.Ready {
		t.Fatalf("missing %q, values %+v, ready %v", p.Missing, p.Values, p.Ready)
	}
	// Corrected: one value changes, the other stays.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Values: []wire.FieldValue{{Field: "profileId", Value: "110321"}}, Build: true}, nil))
	if len(p.Values) != 2 || p.Values[0].Error != "" || !p.Ready || p.Summary == nil {
		t.Fatalf("values %+v, ready %v", p.Values, p.Ready)
	}
	s := p.Summary
	if s.Valid != 2 || len(s.Columns) != 7 || !s.Columns[5].Set || s.Columns[5].Field != "profileId" || s.Columns[6].Field != "source.type" || s.Columns[4].Set {
		t.Fatalf("summary %d valid, columns %+v", s.Valid, s.Columns)
	}
	if got := h.cell(doc, 1, 6); got != "managed_accounts" {
		t.Errorf("row 3's source.type shows %q", got)
	}
	// A reload replays them.
	r := newHarness(t, withDrafts(store)).restore()
	if !r.Found || r.Prepared == nil || len(r.Prepared.Values) != 2 || r.Prepared.Summary == nil || r.Prepared.Summary.Valid != 2 {
		t.Fatalf("restored %+v", r.Prepared)
	}
	// Mapping a column to the field takes the place of its value.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Columns: []wire.ColumnChoice{{Column: 1, Field: "source.type"}}}, nil))
	if len(p.Values) != 1 || p.Values[0].Field != "profileId" {
		t.Errorf("values after mapping column B to source.type: %+v", p.Values)
	}
	// The mapping file keeps the value.
	_, final := h.wait(h.send(wire.JobExport, wire.Export{Document: doc, What: wire.ExportMapping}, nil))
	if !strings.Contains(string(final.Data), `"profileId": "110321"`) {
		t.Errorf("the mapping file: %s", final.Data)
	}
}
