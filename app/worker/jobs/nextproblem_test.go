package jobs_test

import (
	"slices"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// F8 goes through a row's marked cells as the table shows them, left to
// right: the payee (pinned), the amount, the currency, then the file's
// other columns, and on to the next row; Shift+F8 the other way.
func TestNextProblemFollowsTheShownColumns(t *testing.T) {
	h := newHarness(t)
	const file = `profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount
110321,managed_accounts,x1,managed_cards,y2,eur,ten
110321,managed_accounts,1001,managed_cards,2002,EUR,2000
110321,managed_accounts,1002,managed_cards,2003,usd,300
`
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(file)))
	var sum wire.Summary
	h.result(h.send(wire.JobBuild, wire.Build{Document: p.Document}, nil), &sum)
	doc, cols := sum.Document, sum.Columns
	shown := wire.ShownOrder(cols)
	place := func(f wire.FoundProblem) [2]int { return [2]int{f.Element, slices.Index(shown, f.Column)} }
	var forward [][2]int
	after, col := -1, (*int)(nil)
	for range 6 {
		var f wire.FoundProblem
		h.result(h.send(wire.JobNextProblem, wire.NextProblem{Document: doc, After: after, AfterColumn: col}, nil), &f)
		if !f.Found {
			t.Fatalf("F8 after %v found nothing", forward)
		}
		forward = append(forward, place(f))
		after, col = f.Element, &f.Column
	}
	// Element 0: payee y2, amount "ten", currency "eur", source x1 (shown
	// at 0, 1, 2 and later); element 2: currency; then round again.
	src := slices.Index(shown, 2)
	want := [][2]int{{0, 0}, {0, 1}, {0, 2}, {0, src}, {2, 2}, {0, 0}}
	if !slices.Equal(forward, want) {
		t.Errorf("F8 went %v (element, place shown), want %v; columns shown %v", forward, want, shown)
	}
	var back [][2]int
	after, col = 3, nil // from the end
	for range 5 {
		var f wire.FoundProblem
		h.result(h.send(wire.JobNextProblem, wire.NextProblem{Document: doc, After: after, AfterColumn: col, Back: true}, nil), &f)
		back = append(back, place(f))
		after, col = f.Element, &f.Column
	}
	if want := [][2]int{{2, 2}, {0, src}, {0, 2}, {0, 1}, {0, 0}}; !slices.Equal(back, want) {
		t.Errorf("Shift+F8 went %v, want %v", back, want)
	}
}
