package ui

import "math"

// The review table shows only the rows in view: a full render of 10,000
// rows takes seconds, a window of a few dozen milliseconds. These are the
// window's sums, kept apart from the component so that they are tested
// without a browser.

const (
	// rowHeight is the height of a review table row in CSS pixels; the
	// stylesheet fixes it (.grid td).
	rowHeight = 36
	// overscan is how many rows are rendered above and below the view, so
	// that a short scroll shows rows at once.
	overscan = 8
	// fetchAhead is how many rows around the view are asked of the
	// worker, so that scrolling needs few round trips.
	fetchAhead = 60
)

// visibleRange returns the rows [start, end) to render for a scroll
// position and a viewport height, in a view of total rows.
func visibleRange(scrollTop, viewport float64, total int) (start, end int) {
	if total <= 0 {
		return 0, 0
	}
	first := int(math.Floor(max(scrollTop, 0) / rowHeight))
	shown := int(math.Ceil(max(viewport, rowHeight)/rowHeight)) + 1
	// A position past the end (the view shrank under it) shows the last
	// rows.
	first = min(first, max(0, total-shown))
	start = max(0, first-overscan)
	end = min(total, first+shown+overscan)
	return start, end
}

// fetchFor returns the rows to ask the worker for so that [start, end) is
// covered with some to spare, and whether the rows held, [have,
// have+held), already cover it.
func fetchFor(start, end, total, have, held int) (offset, limit int, need bool) {
	if start >= have && end <= have+held {
		return 0, 0, false
	}
	offset = max(0, start-fetchAhead)
	limit = end - start + 2*fetchAhead
	if offset+limit > total {
		offset = max(0, total-limit)
	}
	return offset, limit, true
}

// scrollToShow returns the scroll position that brings row pos into a
// viewport below a header of headerHeight pixels, moving as little as
// possible, and whether it moved.
func scrollToShow(pos int, scrollTop, viewport, headerHeight float64) (float64, bool) {
	top := float64(pos * rowHeight)
	bottom := top + rowHeight
	visible := viewport - headerHeight
	switch {
	case top < scrollTop:
		return top, true
	case bottom > scrollTop+visible:
		return bottom - visible, true
	}
	return scrollTop, false
}
