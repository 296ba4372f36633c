package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// withDrafts makes a server keep its drafts in store, as the browser's
// worker keeps them in IndexedDB: a second server on the same store is
// the worker after a reload.
func withDrafts(store draft.Store) func(*workers) {
	return func(w *workers) {
		w.reader.OpenDrafts = func(context.Context) (draft.Store, error) { return store, nil }
	}
}

func (h *harness) restore() wire.Restored {
	h.t.Helper()
	var r wire.Restored
	h.result(h.send(wire.JobRestoreDraft, wire.RestoreDraft{}, nil), &r)
	return r
}

func (h *harness) cell(doc, element, column int) string {
	h.t.Helper()
	var rows wire.Rows
	h.result(h.send(wire.JobRows, wire.RowsWindow{Document: doc, Offset: element, Limit: 1}, nil), &rows)
	if len(rows.Rows) != 1 || rows.Rows[0].Element != element {
		h.t.Fatalf("no element %d: %+v", element, rows)
	}
	return rows.Rows[0].Cells[column]
}

// comparable leaves out of a Prepared what differs between two workers
// holding the same draft: the document numbers, the version of the
// elements and the worker's memory.
func comparable(t *testing.T, p wire.Prepared) string {
	t.Helper()
	p.Document = 0
	if p.Summary != nil {
		s := *p.Summary
		s.Document, s.Version, s.WorkerMemory = 0, 0, 0
		p.Summary = &s
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestADraftIsReplayedExactlyInANewWorker(t *testing.T) {
	store := draft.NewMemory()
	h := newHarness(t, withDrafts(store))
	if r := h.restore(); r.Found {
		t.Fatalf("a draft before any file: %+v", r)
	}
	// The headers suggest the kind; the operator confirms it, reads the
	// amounts as major units, unmaps a column and maps it again, and
	// validates.
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Auto: true}, []byte(payCSV)))
	doc := p.Document
	h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Kind: "transfers"}, nil))
	h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Settings: &wire.Settings{Amounts: "major", Decimal: "."}, Chosen: []string{"amounts"}}, nil))
	h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Columns: []wire.ColumnChoice{{Column: 4, Field: ""}}}, nil))
	first := h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Columns: []wire.ColumnChoice{{Column: 4, Field: "destination.id"}}, Build: true}, nil))
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 0, Column: 6, Text: "99"}, nil), &edited)
	if edited.Summary.Draft.Edits != 1 || !edited.Summary.Draft.Kept || first.Summary.Draft.Edits != 0 {
		t.Fatalf("after an edit the draft is %+v", edited.Summary.Draft)
	}
	// An edit outlives a rebuild with other settings.
	built := h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Settings: &wire.Settings{Amounts: "major", Decimal: "."}, Chosen: []string{"amounts", "decimal"}, Build: true}, nil))
	if built.Summary == nil || built.Summary.Draft.Edits != 1 {
		t.Fatalf("after a rebuild: %+v", built.Summary)
	}
	// The fixes: one cell, then the rest of a column, and a limit.
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 1, Column: 5, Text: "EUR"}, nil), &edited)
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 2, Column: 4, Text: "2999"}, nil), &edited)
	var replaced wire.Replaced
	h.result(h.send(wire.JobReplace, wire.Replace{Document: doc, Column: 6, Find: "300", With: "3", WholeCell: true}, nil), &replaced)
	var limits wire.AmountLimitsSet
	h.result(h.send(wire.JobAmountLimits, wire.AmountLimits{Document: doc, Limits: []string{"EUR:15"}}, nil), &limits)
	if replaced.Cells != 1 || limits.Summary.Draft.Edits != 4 {
		t.Fatalf("replaced %d cells; draft %+v", replaced.Cells, limits.Summary.Draft)
	}
	// The same worker answers from the document it holds.
	same := h.restore()
	if !same.Found || same.Prepared.Document != doc || same.Edits != 4 {
		t.Fatalf("restored in the same worker: %+v", same)
	}
	want := comparable(t, *same.Prepared)

	// A reload: a new worker on the same store replays the draft.
	h2 := newHarness(t, withDrafts(store))
	r := h2.restore()
	if !r.Found || r.Prepared == nil || r.Prepared.Summary == nil || r.Edits != 4 || len(r.Limits) != 1 || r.Limits[0] != "EUR:15.00" {
		t.Fatalf("restored = %+v", r)
	}
	if got := comparable(t, *r.Prepared); got != want {
		t.Errorf("the restored document differs:\n got %s\nwant %s", got, want)
	}
	doc2 := r.Prepared.Document
	for _, c := range []struct {
		element, column int
		want            string
	}{{1, 5, "EUR"}, {2, 4, "2999"}, {0, 6, "99"}, {2, 6, "3"}, {0, 4, "2001"}} {
		if got := h2.cell(doc2, c.element, c.column); got != c.want {
			t.Errorf("element %d column %d = %q, want %q", c.element, c.column, got, c.want)
		}
	}
	// More edits go on in the new worker, after the replayed ones.
	h2.result(h2.send(wire.JobEdit, wire.Edit{Document: doc2, Element: 0, Column: 0, Text: "110322"}, nil), &edited)
	if edited.Summary.Draft.Edits != 5 {
		t.Errorf("draft after a fourth edit: %+v", edited.Summary.Draft)
	}
	h3 := newHarness(t, withDrafts(store))
	if r := h3.restore(); r.Edits != 5 || h3.cell(r.Prepared.Document, 0, 0) != "110322" {
		t.Errorf("the fourth edit was not kept: %+v", r)
	}

	// "Start over".
	h3.result(h3.send(wire.JobDiscardDraft, wire.DiscardDraft{}, nil), &wire.DiscardDraft{})
	if r := newHarness(t, withDrafts(store)).restore(); r.Found {
		t.Errorf("a discarded draft came back: %+v", r)
	}
}

func TestADraftOfPastedRowsAndOfAFileNotYetRead(t *testing.T) {
	store := draft.NewMemory()
	h := newHarness(t, withDrafts(store))
	pasted := "profileId\tsource.type\tsource.id\tdestination.type\tdestination.id\tdestinationAmount.currency\tdestinationAmount.amount\n110321\tmanaged_accounts\t1001\tmanaged_cards\t2001\tEUR\t1050\n"
	p := h.prepared(h.send(wire.JobOpen, wire.Open{Text: pasted, Kind: "transfers", Auto: true}, nil))
	if p.Summary == nil {
		t.Fatalf("not built: %+v", p)
	}
	r := newHarness(t, withDrafts(store)).restore()
	if !r.Found || r.Prepared.FileName != "Pasted rows" || r.Prepared.Summary == nil || r.Prepared.Summary.Elements != 1 {
		t.Errorf("pasted rows restored = %+v", r)
	}
	// A file waiting for its kind comes back waiting.
	h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Auto: true}, []byte(payCSV)))
	r = newHarness(t, withDrafts(store)).restore()
	if !r.Found || r.Prepared.Summary != nil || r.Prepared.Kind != "transfers" || !r.Prepared.KindSuggested {
		t.Errorf("file restored = %+v", r.Prepared)
	}
}

func TestReadingTheFileAgainDropsTheEditsFromTheDraft(t *testing.T) {
	store := draft.NewMemory()
	h := newHarness(t, withDrafts(store))
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	doc := p.Summary.Document
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 1, Column: 5, Text: "EUR"}, nil), &edited)
	again := h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Delimiter: ";", Auto: true}, nil))
	if again.Summary != nil && again.Summary.Draft.Edits != 0 {
		t.Errorf("edits counted after reading again: %+v", again.Summary.Draft)
	}
	d, ok, err := store.Load(context.Background())
	if !ok || err != nil || d.Edits() != 0 || len(d.Ops) != 1 {
		t.Fatalf("draft after reading again: %+v %v", d, err)
	}
	r := newHarness(t, withDrafts(store)).restore()
	if !r.Found || r.Prepared.Delimiter != ";" {
		t.Errorf("restored = %+v", r.Prepared)
	}
}

func TestASubmissionTakesTheDraftAwayButAFailedOneKeepsIt(t *testing.T) {
	store := draft.NewMemory()
	api := fakeapi.New()
	h := newHarness(t, withDrafts(store), withAPI(api))
	doc := h.load(fixture.Transfers(5))
	p := h.prepare(wire.PrepareSubmission{Document: doc.Document})
	// Without credentials the API refuses: the draft stays.
	if got, _ := h.submit(p.Plan, wire.Connection{APIURL: conn.APIURL}); got.Failure == nil {
		t.Fatalf("submitted without credentials: %+v", got)
	}
	if _, ok, _ := store.Load(context.Background()); !ok {
		t.Fatal("a failed submission took the draft away")
	}
	d, _, _ := store.Load(context.Background())
	if raw, _ := json.Marshal(d); json.Valid(raw) && (contains(raw, conn.APIKey) || contains(raw, conn.Token)) {
		t.Errorf("the draft holds credentials: %s", raw)
	}
	if got, _ := h.submit(p.Plan, conn); got.Failure != nil {
		t.Fatalf("submission failed: %+v", got.Failure)
	}
	if _, ok, _ := store.Load(context.Background()); ok {
		t.Error("the draft outlived its submission")
	}
	if r := h.restore(); r.Found {
		t.Errorf("restored after the submission: %+v", r)
	}
}

func contains(b []byte, s string) bool { return len(s) > 0 && strings.Contains(string(b), `"`+s+`"`) }

func TestADraftOfAWorkbookKeepsTheSheetChosen(t *testing.T) {
	store := draft.NewMemory()
	h := newHarness(t, withDrafts(store))
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "book.xlsx", Kind: "transfers", Auto: true}, twoSheets(t)))
	doc := p.Document
	// The hidden sheet, then back to the transfers, chosen this time, and
	// one amount changed.
	h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Sheet: "Notes"}, nil))
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: doc, Sheet: "Transfers", Build: true}, nil))
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: doc, Element: 1, Column: 6, Text: "275"}, nil), &edited)
	want := comparable(t, *h.restore().Prepared)

	h2 := newHarness(t, withDrafts(store))
	r := h2.restore()
	if got := comparable(t, *r.Prepared); got != want {
		t.Errorf("the restored workbook differs:\n got %s\nwant %s", got, want)
	}
	if r.Prepared.Sheet != "Transfers" || r.Prepared.Reading.Sheet.How != reading.Chosen || r.Prepared.Summary.Totals[0].Minor != "1325" {
		t.Errorf("restored: sheet %q (%s), totals %+v", r.Prepared.Sheet, r.Prepared.Reading.Sheet.How, r.Prepared.Summary.Totals)
	}
	if got := h2.cell(r.Prepared.Document, 1, 6); got != "275" {
		t.Errorf("the edited amount is %q", got)
	}
}

// failingStore refuses ops, as a full IndexedDB does.
type failingStore struct{ *draft.Memory }

func (failingStore) Append(context.Context, draft.Op) error { return errors.New("QuotaExceededError") }

func TestAChangeThatCannotBeStoredEndsTheDraftButNotTheDocument(t *testing.T) {
	store := failingStore{draft.NewMemory()}
	h := newHarness(t, withDrafts(store))
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if !p.Draft.Kept {
		t.Fatalf("the file is not kept: %+v", p.Draft)
	}
	var edited wire.Edited
	h.result(h.send(wire.JobEdit, wire.Edit{Document: p.Document, Element: 1, Column: 5, Text: "EUR"}, nil), &edited)
	// The browser's own words go to the log, under the reference the
	// sentence gives.
	if d := edited.Summary.Draft; d.Kept || d.Edits != 1 || !strings.Contains(d.Error, "no longer kept") || !strings.Contains(d.Error, "reference") || strings.Contains(d.Error, "QuotaExceededError") {
		t.Errorf("after a change not stored: %+v", d)
	}
	// The worker still holds it for the page; a reload would not.
	if r := h.restore(); !r.Found || r.Prepared.Summary.Invalid != 0 {
		t.Errorf("restored from the worker: %+v", r)
	}
	if r := newHarness(t, withDrafts(store)).restore(); r.Found {
		t.Errorf("a partial draft was replayed: %+v", r)
	}
}

// A page that asks for the draft and goes away before the browser's store
// has opened cancels its job, not the store: the next file is kept.
func TestACanceledRestoreDoesNotLeaveTheWorkerWithoutItsStore(t *testing.T) {
	store := draft.NewMemory()
	opening, release := make(chan struct{}), make(chan struct{})
	h := newHarness(t, func(w *workers) {
		w.reader.OpenDrafts = func(ctx context.Context) (draft.Store, error) {
			close(opening)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-release:
				return store, nil
			}
		}
	})
	id := h.send(wire.JobRestoreDraft, wire.RestoreDraft{}, nil)
	<-opening
	h.server.Receive(wire.Message{ID: id, Type: wire.TypeCancel})
	close(release)
	h.wait(id)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	if p.Draft.Kept != true || p.Draft.Error != "" {
		t.Errorf("after a canceled restore the file is not kept: %+v", p.Draft)
	}
}
