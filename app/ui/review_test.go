package ui

import (
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestVisibleRangeRendersTheViewAndAMargin(t *testing.T) {
	for _, tc := range []struct {
		top, viewport float64
		total         int
		start, end    int
	}{
		{0, 360, 10000, 0, 11 + overscan}, // 10 rows in view, one partly
		{3600, 360, 10000, 100 - overscan, 111 + overscan},
		{3618, 360, 10000, 100 - overscan, 111 + overscan}, // half a row further
		{0, 360, 5, 0, 5},
		{360000, 360, 10000, 10000 - 11 - overscan, 10000}, // past the end: the last rows
		{-50, 360, 100, 0, 11 + overscan},
		{0, 0, 100, 0, 2 + overscan},
		{0, 360, 0, 0, 0},
	} {
		start, end := visibleRange(tc.top, tc.viewport, tc.total)
		if start != tc.start || end != tc.end {
			t.Errorf("visibleRange(%v, %v, %d) = %d, %d; want %d, %d", tc.top, tc.viewport, tc.total, start, end, tc.start, tc.end)
		}
	}
}

func TestTheWindowStaysSmallWhateverTheFile(t *testing.T) {
	for _, total := range []int{10, 10000, 100000} {
		for _, top := range []float64{0, 1e3, 1e5, float64(total * rowHeight / 2)} {
			start, end := visibleRange(top, 600, total)
			if end-start > 40 || start < 0 || end > total {
				t.Errorf("total %d, top %v: rows %d to %d", total, top, start, end)
			}
		}
	}
}

func TestFetchForAsksOnlyForMissingRows(t *testing.T) {
	if _, _, need := fetchFor(100, 130, 10000, 50, 200); need {
		t.Error("asked for rows already held")
	}
	off, lim, need := fetchFor(300, 330, 10000, 50, 200)
	if !need || off != 300-fetchAhead || lim != 30+2*fetchAhead {
		t.Errorf("fetchFor = %d, %d, %v", off, lim, need)
	}
	// Near the end the window slides back, so it stays full.
	off, lim, _ = fetchFor(9980, 10000, 10000, 0, 0)
	if off+lim != 10000 || off < 0 {
		t.Errorf("at the end: offset %d limit %d", off, lim)
	}
	off, _, _ = fetchFor(0, 20, 30, 0, 0)
	if off != 0 {
		t.Errorf("a short view starts at %d", off)
	}
}

func TestScrollToShowMovesAsLittleAsPossible(t *testing.T) {
	const header = 40
	for _, tc := range []struct {
		pos      int
		top      float64
		want     float64
		wantMove bool
	}{
		{5, 0, 0, false},  // in view
		{0, 360, 0, true}, // above: to the top
		{20, 0, 21*rowHeight - (400 - header), true}, // below: to the bottom edge
		{9, 0, 0, false},
	} {
		got, moved := scrollToShow(tc.pos, tc.top, 400, header)
		if got != tc.want || moved != tc.wantMove {
			t.Errorf("scrollToShow(%d, %v) = %v, %v; want %v, %v", tc.pos, tc.top, got, moved, tc.want, tc.wantMove)
		}
	}
}

func TestMappingState(t *testing.T) {
	cols := []wire.ColumnView{
		{Column: 0, Letter: "A", Header: "profileId", Field: "profileId", Match: wire.MatchExact, Samples: []string{"1"}},
		{Column: 1, Letter: "B", Header: "Betrag", Suggestions: []string{"destinationAmount.amount"}, Samples: []string{"12,50"}},
		{Column: 2, Letter: "C", Header: "amount", Field: "destinationAmount.amount", Match: wire.MatchAlias, Samples: []string{"1"}},
		{Column: 3, Letter: "D", Header: "Notes"},
		{Column: 4, Letter: "E", Header: "Errors", Match: wire.MatchIgnored},
		{Column: 5, Letter: "F", Header: "Extra", Samples: []string{"x"}},
	}
	var got []string
	for _, c := range cols {
		label, tone := columnStatus(c)
		got = append(got, label+"/"+tone)
	}
	want := "[Matched/ok Suggestion: destinationAmount.amount/warn Matched/ok Empty, not imported/muted Left out by design/muted Not imported/warn]"
	if fmt.Sprint(got) != want {
		t.Errorf("statuses:\n got %v\nwant %s", got, want)
	}
	// Giving B the field C has waits until C gives it up.
	pending := pendingMapping{1: "destinationAmount.amount"}
	if c := pending.conflicts(cols); fmt.Sprint(c) != "map[destinationAmount.amount:[B C]]" {
		t.Errorf("conflicts = %v", c)
	}
	pending[2] = ""
	if c := pending.conflicts(cols); len(c) != 0 {
		t.Errorf("conflicts after unmapping C = %v", c)
	}
	if ch := pending.choices(cols); fmt.Sprint(ch) != "[{1 destinationAmount.amount} {2 }]" {
		t.Errorf("choices = %v", ch)
	}
	// A choice back to what the worker has is no change.
	if ch := (pendingMapping{0: "profileId"}).choices(cols); len(ch) != 0 {
		t.Errorf("choices = %v", ch)
	}
	if s := mappingSummary(cols); s != "2 columns matched by their headers, 2 with values not imported." {
		t.Errorf("summary = %q", s)
	}
}

func TestGridColumnOfAProblem(t *testing.T) {
	table := []wire.GridColumn{{Letter: "A", Field: "profileId"}, {Letter: "F", Field: "destinationAmount.currency"}}
	if c := gridColumnOf(table, wire.Problem{Column: "F", Field: "destinationAmount.currency"}); c != 1 {
		t.Errorf("by letter: %d", c)
	}
	request := []wire.GridColumn{{Field: "tags"}, {Field: "spendLimit[0].value.amount"}}
	if c := gridColumnOf(request, wire.Problem{Field: "tags[2]"}); c != 0 {
		t.Errorf("a list item: %d", c)
	}
	if c := gridColumnOf(request, wire.Problem{Field: "spendLimit[0].value.amount"}); c != 1 {
		t.Errorf("by field: %d", c)
	}
	if c := gridColumnOf(request, wire.Problem{Field: "unknown"}); c != 0 {
		t.Errorf("unknown: %d", c)
	}
}
