package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The row numbers and the column that tells the rows apart stay in sight
// as the table scrolls sideways, and every other column stands whole
// beside them or not at all: an amount half under the payee would read
// "2500" for 12.500,00. The stylesheet snaps the table's sideways scroll
// to the columns' starts, right of the pinned ones (scroll-snap-type,
// scroll-padding-left: --pin-edge), whether the operator drags the
// scroll bar, turns the wheel or moves with the keys (showSideways); the
// page measures the pinned columns for it (pinColumns), and brings a
// scroll the browser left between two starts to the next one
// (onScrollEnd).

// pinning is where the pinned columns stand, in pixels from the table's
// left edge: the pinned column sticks at left, right of the row numbers,
// and the columns that scroll start at edge.
type pinning struct {
	left, edge float64
}

// pinColumns measures the pinned columns and tells the stylesheet:
// --pin-left, where the pinned column sticks; --pin-edge, where the
// others start; and --grid-tail, the room after the last column that
// makes the end of the scroll a column's start at that edge too.
func pinColumns(grid app.Value) pinning {
	width := func(selector string) float64 {
		if el := grid.Call("querySelector", selector); el.Truthy() {
			return el.Call("getBoundingClientRect").Get("width").Float()
		}
		return 0
	}
	p := pinning{left: width("thead .grid-rowhead")}
	p.edge = p.left + width("thead .grid-pinned")
	style := grid.Get("style")
	style.Call("setProperty", "--pin-left", pxf(p.left))
	style.Call("setProperty", "--pin-edge", pxf(p.edge))
	tail := 0.0
	if table := grid.Call("querySelector", "table"); table.Truthy() {
		box := table.Call("getBoundingClientRect")
		natural := box.Get("width").Float() - cssPixels(style.Call("getPropertyValue", "--grid-tail").String())
		tail = gridTail(natural, grid.Get("clientWidth").Float(), p.edge, columnStarts(grid, box.Get("left").Float()))
	}
	style.Call("setProperty", "--grid-tail", pxf(tail))
	return p
}

// gridTail is the room after the last column of a table width wide
// (without it), in a view of view pixels whose columns start at edge, so
// that the end of the table's sideways scroll, too, is a column's start
// at the edge: none when it is already, or when the table does not
// scroll sideways, or its last column is wider than the view.
func gridTail(width, view, edge float64, starts []float64) float64 {
	end := width - view
	if end <= 0 {
		return 0
	}
	for _, s := range starts {
		if to := s - edge; to >= end-0.5 {
			return max(0, to-end)
		}
	}
	return 0
}

// columnStarts are where the columns that scroll start, in pixels from
// the table's left edge (left, on the screen), in the order shown.
func columnStarts(grid app.Value, left float64) []float64 {
	heads := grid.Call("querySelectorAll", "thead th:not(.grid-rowhead):not(.grid-pinned)")
	starts := make([]float64, 0, heads.Length())
	for i := range heads.Length() {
		starts = append(starts, heads.Index(i).Call("getBoundingClientRect").Get("left").Float()-left)
	}
	return starts
}

// showSideways scrolls the table sideways, if need be, so that cell
// stands whole between the pinned columns and the table's right edge, at
// a column's start, where the snap keeps it.
func showSideways(grid, cell app.Value, edge float64) {
	box := grid.Call("getBoundingClientRect")
	origin := box.Get("left").Float() + grid.Get("clientLeft").Float()
	scroll := grid.Get("scrollLeft").Float()
	// In the table's own coordinates, which do not move as it scrolls.
	at := func(el app.Value) (float64, float64) {
		r := el.Call("getBoundingClientRect")
		left := r.Get("left").Float() - origin + scroll
		return left, left + r.Get("width").Float()
	}
	start, end := at(cell)
	starts := columnStarts(grid, origin-scroll)
	if to := sidewaysTo(scroll, starts, start, end, edge, grid.Get("clientWidth").Float()); to != scroll {
		grid.Set("scrollLeft", to)
	}
}

// sidewaysTo is where a table scrolled sideways to scroll, whose columns
// start at starts (ascending, in the table's coordinates), scrolls to
// show a column from start to end whole in a view of view pixels whose
// left edge pixels the pinned columns cover: scroll itself when it shows
// it already, else the nearest position that brings a column's start to
// the edge and the column in sight.
func sidewaysTo(scroll float64, starts []float64, start, end, edge, view float64) float64 {
	const slack = 1 // a pixel's rounding
	own := start - edge
	switch {
	case start < scroll+edge-slack:
		return own
	case end > scroll+view+slack:
		// The least scroll to its right end, at a column's start.
		need := end - view
		for _, s := range starts {
			if to := s - edge; to >= need-slack && to <= own {
				return to
			}
		}
		return own
	}
	return scroll
}

func pxf(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "px" }

// cssPixels reads a length in pixels the page set ("12.50px"), 0 for
// anything else.
func cssPixels(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "px"), 64)
	if err != nil {
		return 0
	}
	return v
}

// onScrollEnd brings the table, when a scroll left it between two
// columns' starts (a wheel's, which a browser may not snap), to the next
// start in the scroll's direction.
func (g *reviewGrid) onScrollEnd(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	grid := ctx.JSSrc()
	p := pinColumns(grid)
	table := grid.Call("querySelector", "table")
	if !table.Truthy() {
		return
	}
	scroll := grid.Get("scrollLeft").Float()
	end := grid.Get("scrollWidth").Float() - grid.Get("clientWidth").Float()
	starts := columnStarts(grid, table.Call("getBoundingClientRect").Get("left").Float())
	to := sidewaysStop(scroll, g.restLeft, starts, p.edge, end)
	g.restLeft = to
	if to != scroll {
		grid.Set("scrollLeft", to)
	}
}

// sidewaysStop is where a table scrolled sideways to scroll, from rest
// where it stood before, comes to rest: scroll itself at a column's start
// at the edge, else the next start in the direction it went, within
// [0, end].
func sidewaysStop(scroll, rest float64, starts []float64, edge, end float64) float64 {
	const slack = 1 // a pixel's rounding
	stops := []float64{0, end}
	for _, s := range starts {
		if to := s - edge; to > 0 && to < end {
			stops = append(stops, to)
		}
	}
	slices.Sort(stops)
	for _, s := range stops {
		if math.Abs(s-scroll) <= slack {
			return scroll
		}
	}
	if scroll > rest {
		for _, s := range stops {
			if s > scroll {
				return s
			}
		}
		return end
	}
	for i := len(stops) - 1; i >= 0; i-- {
		if stops[i] < scroll {
			return stops[i]
		}
	}
	return 0
}
