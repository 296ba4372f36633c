package ui

import "testing"

// Sideways, a cell in focus is brought whole between the pinned columns
// (edge 280 px) and the table's right edge (a view of 900 px), at a
// column's start, where the table's snap keeps it.
func TestTheFocusedCellStandsWholeBesideThePinnedColumns(t *testing.T) {
	// Columns that scroll start at 280 (the amount, 140 wide), 420, 560,
	// 880, 1200, 1520; the last ends at 1840.
	starts := []float64{280, 420, 560, 880, 1200, 1520}
	for _, tc := range []struct {
		name               string
		scroll, start, end float64
		want               float64
	}{
		{"in sight: no move", 0, 420, 560, 0},
		// Scrolled 23 px: the amount half under the payee.
		{"half under the pinned ones: to its start", 23, 280, 420, 0},
		{"left of the view: to its start", 700, 560, 880, 280},
		// 880–1200 ends past 0+900: the stop at 280 (the column at 560
		// at the edge) shows up to 1180, too little; 600 shows it.
		{"right of the view: the nearest stop that shows it", 0, 880, 1200, 600},
		{"right of the view, a stop before its own", 0, 560, 1000, 140},
		{"the last: at its own start", 0, 1520, 1840, 1240},
		// Wider than the view: its start at the edge.
		{"wider than the view", 0, 880, 2000, 600},
	} {
		if got := sidewaysTo(tc.scroll, starts, tc.start, tc.end, 280, 900); got != tc.want {
			t.Errorf("%s: scrolls to %v, want %v", tc.name, got, tc.want)
		}
	}
	// 1840 px in a view of 1000: the scroll ends at 840, the column at
	// 1080 (1120-280) half under the pinned ones; 80 px more bring the
	// column at 1200 to the edge.
	if got := gridTail(1840, 1000, 280, starts); got != 80 {
		t.Errorf("tail %v, want 80", got)
	}
	// In a view of 900 the scroll ends at 940: the last column (1520) at
	// 1240 is the first stop past it.
	if got := gridTail(1840, 900, 280, starts); got != 300 {
		t.Errorf("tail %v, want 300", got)
	}
	if got := gridTail(1840, 1240, 280, starts); got != 0 {
		t.Errorf("a scroll that ends at a column's start (600: 880-280) gets a tail of %v", got)
	}
	if got := gridTail(800, 900, 280, starts); got != 0 {
		t.Errorf("a table that does not scroll sideways gets a tail of %v", got)
	}
}

// A scroll the browser left between two columns' starts (a turn of the
// wheel) comes to rest at the next start in its direction.
func TestASidewaysScrollComesToRestAtAColumnsStart(t *testing.T) {
	starts := []float64{280, 420, 560, 880, 1200, 1520}
	for _, tc := range []struct {
		name               string
		scroll, rest, want float64
	}{
		{"a notch to the right", 53, 0, 140},
		{"a notch to the left", 87, 140, 0},
		{"past two starts", 300, 0, 600},
		{"at a start: stays", 280.4, 0, 280.4},
		{"the end", 930, 920, 940},
	} {
		if got := sidewaysStop(tc.scroll, tc.rest, starts, 280, 940); got != tc.want {
			t.Errorf("%s: rests at %v, want %v", tc.name, got, tc.want)
		}
	}
}
