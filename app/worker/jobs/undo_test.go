package jobs_test

import (
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

func (h *harness) undo(doc int) wire.Undone {
	h.t.Helper()
	var u wire.Undone
	h.result(h.send(wire.JobUndo, wire.Undo{Document: doc}, nil), &u)
	return u
}

// edited reads the edited cells of element i: column → what it held.
func (h *harness) edited(doc, element int) map[int]string {
	h.t.Helper()
	var rows wire.Rows
	h.result(h.send(wire.JobRows, wire.RowsWindow{Document: doc, Offset: element, Limit: 1}, nil), &rows)
	out := make(map[int]string)
	for _, e := range rows.Rows[0].Edited {
		out[e.Column] = e.Was
	}
	return out
}

// Changes are undone last first, each taking its op out of the draft, so
// that a reload brings back the document as it stands and the changes
// still to undo; a find-and-replace and capitals are one change each.
func TestUndoTakesTheLastChangeBackAndOutOfTheDraft(t *testing.T) {
	store := draft.NewMemory()
	h := newHarness(t, withDrafts(store))
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if p.Summary == nil || p.Summary.Invalid != 1 || p.Summary.Undoable != 0 {
		t.Fatalf("opened: %+v", p.Summary)
	}
	doc := p.Document
	if u := h.undo(doc); u.Cells != 0 || u.Summary.Invalid != 1 {
		t.Fatalf("nothing to undo, yet %+v", u)
	}
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 1, Column: 5, Text: "EUR"}, nil), &edited)
	if want := []wire.EditedCell{{Column: 5, Was: "eur"}}; !reflect.DeepEqual(edited.Row.Edited, want) || edited.Summary.Invalid != 0 {
		t.Errorf("the edited row is marked %+v, %d invalid", edited.Row.Edited, edited.Summary.Invalid)
	}
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 0, Column: 0, Text: "110322"}, nil), &edited)
	var replaced wire.Replaced
	h.result(h.send(wire.JobReplace, wire.Replace{Document: doc, Column: 6, Find: "0", With: ""}, nil), &replaced)
	if replaced.Cells != 3 || replaced.Summary.Undoable != 3 || replaced.Summary.Draft.Edits != 3 {
		t.Fatalf("replaced %d cells; %d to undo, draft %+v", replaced.Cells, replaced.Summary.Undoable, replaced.Summary.Draft)
	}
	if got := h.edited(doc, 0); !reflect.DeepEqual(got, map[int]string{0: "110321", 6: "1050"}) {
		t.Errorf("element 0's edited cells: %v", got)
	}

	// The replacement, in one.
	u := h.undo(doc)
	if u.Cells != 3 || u.Element != 0 || u.Column != 6 || u.Text != "1050" || u.Summary.Undoable != 2 || u.Summary.Draft.Edits != 2 {
		t.Fatalf("undone: %+v", u)
	}
	for i, want := range []string{"1050", "2000", "300"} {
		if got := h.cell(doc, i, 6); got != want {
			t.Errorf("amount %d = %q, want %q", i, got, want)
		}
	}
	if got := h.edited(doc, 0); !reflect.DeepEqual(got, map[int]string{0: "110321"}) {
		t.Errorf("after the undo, element 0's edited cells: %v", got)
	}

	// A reload: the draft replays the two edits left, which can still be
	// undone, one at a time, each leaving the draft.
	h2 := newHarness(t, withDrafts(store))
	r := h2.restore()
	if !r.Found || r.Edits != 2 || r.Prepared.Summary == nil || r.Prepared.Summary.Undoable != 2 {
		t.Fatalf("restored: %+v", r)
	}
	doc2 := r.Prepared.Document
	if h2.cell(doc2, 0, 6) != "1050" || h2.cell(doc2, 0, 0) != "110322" || h2.cell(doc2, 1, 5) != "EUR" {
		t.Errorf("restored cells: %q %q %q", h2.cell(doc2, 0, 6), h2.cell(doc2, 0, 0), h2.cell(doc2, 1, 5))
	}
	if got := h2.edited(doc2, 0); !reflect.DeepEqual(got, map[int]string{0: "110321"}) {
		t.Errorf("restored, element 0's edited cells: %v", got)
	}
	if u := h2.undo(doc2); u.Cells != 1 || u.Element != 0 || u.Column != 0 || u.Text != "110321" || u.Summary.Draft.Edits != 1 {
		t.Fatalf("undone after a reload: %+v", u)
	}
	h3 := newHarness(t, withDrafts(store))
	r = h3.restore()
	if r.Edits != 1 || r.Prepared.Summary.Undoable != 1 || h3.cell(r.Prepared.Document, 0, 0) != "110321" {
		t.Fatalf("after undoing and reloading: %+v", r)
	}
	doc3 := r.Prepared.Document
	if u := h3.undo(doc3); u.Cells != 1 || u.Summary.Invalid != 1 || u.Summary.Undoable != 0 || u.Summary.Draft.Edits != 0 {
		t.Fatalf("the first edit undone: %+v", u)
	}
	if got := h3.edited(doc3, 1); len(got) != 0 {
		t.Errorf("nothing is edited, yet %v", got)
	}

	// Capitals are one change too; reading the file again throws the
	// edits away, and what there was to undo with them.
	h3.result(h3.send(wire.JobReplace, wire.Replace{Document: doc3, Column: 5, UpperCase: true}, nil), &replaced)
	if replaced.Cells != 1 || replaced.Summary.Undoable != 1 {
		t.Fatalf("capitals: %+v", replaced)
	}
	again := h3.prepared(h3.send(wire.JobPrepare, wire.Prepare{Document: doc3, Delimiter: ";"}, nil))
	again = h3.prepared(h3.send(wire.JobPrepare, wire.Prepare{Document: doc3, Delimiter: ",", Build: true}, nil))
	if again.Summary == nil || again.Summary.Undoable != 0 || again.Summary.Invalid != 1 {
		t.Errorf("read again: %+v", again.Summary)
	}
}
