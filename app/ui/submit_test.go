package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestTheConfirmationOffersWhatThePriorsAllow(t *testing.T) {
	chunks := []wire.ChunkInfo{{Index: 0}, {Index: 1}}
	for _, tc := range []struct {
		name                string
		prepared            wire.Confirmation
		interrupted, before bool
	}{
		{"first time", wire.Confirmation{Chunks: chunks}, false, false},
		{"submitted before", wire.Confirmation{Chunks: chunks, Priors: []wire.PriorInfo{{Chunk: 0, SameRef: true, State: "submitted"}, {Chunk: 1, SameRef: true, State: "submitted"}}}, false, true},
		{"one chunk sent without an answer", wire.Confirmation{Chunks: chunks, Priors: []wire.PriorInfo{{Chunk: 0, SameRef: true, State: "submitted"}, {Chunk: 1, SameRef: true, State: "sending"}}}, true, false},
		{"part of the file submitted before", wire.Confirmation{Chunks: chunks, Priors: []wire.PriorInfo{{Chunk: 0, SameRef: true, State: "submitted"}}}, false, false},
		{"again as new bulks", wire.Confirmation{Chunks: chunks, NewBulk: true, Priors: []wire.PriorInfo{{Chunk: 0, State: "submitted"}, {Chunk: 1, State: "submitted"}}}, false, false},
	} {
		p := &submitPage{prepared: tc.prepared}
		if p.interrupted() != tc.interrupted || p.submittedBefore() != tc.before {
			t.Errorf("%s: interrupted %t, submitted before %t; want %t, %t", tc.name, p.interrupted(), p.submittedBefore(), tc.interrupted, tc.before)
		}
	}
}

func TestPlacesAndStatesReadAsAnOperatorSaysThem(t *testing.T) {
	for got, want := range map[string]string{
		placeOf(7, "", 0):                                         "element 7",
		placeOf(1200, "Payroll", 1202):                            "Payroll row 1202",
		placeOf(-1, "", 0):                                        "—",
		statusWord("PARTIALLY_COMPLETED"):                         "Partially completed",
		statusWord("RUNNING"):                                     "Running",
		chunkState(wire.ChunkInfo{State: "sending", Attempts: 2}): "sent without an answer (2 attempts)",
		fieldPlace(wire.FieldFailure{Element: 14, Sheet: "Pay", Row: 16, Field: "destinationAmount.amount"}): "Sheet Pay, row 16 (element 14) · destinationAmount.amount",
		fieldPlace(wire.FieldFailure{Element: wire.RequestLevel, Field: "profileId"}):                        "Whole request · profileId",
		bulkHref("42", true): "/bulk?id=42&api=backoffice",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestRepeatsNeedAnAnswerBeforeSubmitting(t *testing.T) {
	p := &submitPage{step: submitConfirm, prepared: wire.Confirmation{Plan: "p", Chunks: []wire.ChunkInfo{{Index: 0}}}}
	if p.hasRepeats() || p.renderRepeats() != nil {
		t.Fatal("repeats shown without any")
	}
	p.prepared.Repeats = &wire.RepeatsInfo{RecordError: "No connection is set."}
	if p.hasRepeats() || p.renderRepeats() == nil {
		t.Error("the record's failure is not said")
	}
	p.prepared.Repeats = &wire.RepeatsInfo{Count: 2, ToSend: 5, Bulks: []string{"7"}, Elements: []wire.RepeatInfo{{Element: 1, BulkID: "7", Text: "Element 1 was submitted before in bulk 7."}, {Element: 3, BulkID: "7"}}}
	if !p.hasRepeats() || p.renderRepeats() == nil {
		t.Error("repeats are not asked about")
	}
}
