package jobs_test

import (
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A mapping applied from a file (or remembered) is undone by reading the
// table as it was first opened: every column, the header row and every
// setting back to what the file shows, none of them chosen.
func TestAutomaticUndoesASavedMapping(t *testing.T) {
	h := newHarness(t)
	csv := "profileId;source.type;source.id;destination.type;destination.id;Währung;Betrag;Notiz\n" +
		"110321;managed_accounts;1001;managed_cards;2001;EUR;1050;Miete\n" +
		"110321;managed_accounts;1002;managed_cards;2002;EUR;250;Strom\n"
	first := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "run.csv", Kind: "transfers"}, []byte(csv)))
	auto := fmt.Sprint(first.HeaderRow, first.Columns, first.Settings)
	saved := `{"kind":"transfers","headerRow":1,"columns":[{"column":"G","header":"Betrag","field":"destinationAmount.amount"},` +
		`{"column":"H","header":"Notiz","field":"description"}],"settings":{"amounts":"major","decimal":","}}`
	p := h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: first.Document, SavedMapping: saved}, nil))
	if p.Columns[7].Field != "description" || p.Settings.Amounts != "major" || p.Reading.Units.How != reading.Chosen {
		t.Fatalf("the saved mapping was not applied: %+v", p)
	}
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: first.Document, Automatic: true, Auto: true}, nil))
	if got := fmt.Sprint(p.HeaderRow, p.Columns, p.Settings); got != auto {
		t.Errorf("after undoing:\n%s\nwant\n%s", got, auto)
	}
	for _, name := range reading.Names {
		if d := p.Reading.Get(name); d.How == reading.Chosen {
			t.Errorf("the %s is still the mapping's choice: %+v", name, d)
		}
	}
	if p.Ready != first.Ready || len(p.Missing) != len(first.Missing) {
		t.Errorf("read as first opened, ready %v and missing %q, want %v and %q", p.Ready, p.Missing, first.Ready, first.Missing)
	}
}
