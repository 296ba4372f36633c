package ui

import (
	"math"
	"sort"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// elementView is what the checker's grid shows of a bulk's elements: the
// ones a filter lets through, a row each, with the columns the kind and
// the checks call for. It is the grid's gridSource.
type elementView struct {
	all *bulkElements
	// shown are the indexes of the elements in view, in order.
	shown []int
	cols  []elementColumn
}

// What a column of the checker's grid shows.
type elementColumn int

const (
	colReceiver elementColumn = iota
	colAmount
	colReference
	colSource
	colValidity
	colRepeat
	colReceipt
)

func newElementView(all *bulkElements, f elementFilter) *elementView {
	v := &elementView{all: all, shown: all.view(f), cols: []elementColumn{colReceiver}}
	els := all.els
	if els.MovesMoney {
		v.cols = append(v.cols, colAmount)
	}
	if els.HasReference {
		v.cols = append(v.cols, colReference)
	}
	if els.Source != nil {
		v.cols = append(v.cols, colSource)
	}
	v.cols = append(v.cols, colValidity)
	if len(all.repeats) > 0 {
		v.cols = append(v.cols, colRepeat)
	}
	if len(all.differs) > 0 {
		v.cols = append(v.cols, colReceipt)
	}
	return v
}

// columns are the grid's columns.
func (v *elementView) columns() []wire.GridColumn {
	out := make([]wire.GridColumn, len(v.cols))
	for i, c := range v.cols {
		var h string
		switch c {
		case colReceiver:
			h = receiverHeading(v.all.els.MovesMoney, v.all.els.ReceiverType)
		case colAmount:
			h = t("Amount")
		case colReference:
			h = t("Reference")
		case colSource:
			h = t("Source")
		case colValidity:
			h = t("Valid")
		case colRepeat:
			h = t("In other bulks")
		case colReceipt:
			h = t("Receipt")
		}
		out[i] = wire.GridColumn{Header: h, Field: h, Pinned: c == colReceiver}
	}
	return out
}

func (v *elementView) words() gridWords {
	return gridWords{rowHead: t("Element"), problems: t("Problems"), empty: t("No element matches."), noError: t("No element matches.")}
}

func (v *elementView) rows(req wire.RowsWindow) wire.Rows {
	out := wire.Rows{Document: req.Document, Total: len(v.shown), Position: -1}
	limit := min(max(req.Limit, 0), 4*wire.FirstWindow)
	offset := req.Offset
	if req.Around != nil {
		if out.Position = v.position(*req.Around); out.Position >= 0 {
			offset = out.Position - limit/2
		}
	}
	offset = max(0, min(offset, out.Total-limit))
	out.Offset = offset
	for _, i := range v.shown[offset:min(offset+limit, out.Total)] {
		out.Rows = append(out.Rows, v.row(i))
	}
	return out
}

// position is element i's place in the view, or -1.
func (v *elementView) position(i int) int {
	p := sort.SearchInts(v.shown, i)
	if p < len(v.shown) && v.shown[p] == i {
		return p
	}
	return -1
}

// row is element i as the grid shows it: its key fields, whether it is
// valid, the bulks that hold it too and how it differs from the receipt,
// each marked with what there is to check.
func (v *elementView) row(i int) wire.GridRow {
	all := v.all
	f := all.els.Fields(i)
	p := all.problems[i]
	r := wire.GridRow{Element: i, Label: "#" + count(i), Cells: make([]string, len(v.cols))}
	r.Problems = append(append(r.Problems, p.Errors...), p.Warnings...)
	mark := func(col int, severity string, msgs ...string) {
		r.Marks = append(r.Marks, wire.CellMark{Column: col, Severity: severity, Messages: msgs})
		if r.Severity != wire.SeverityError {
			r.Severity = severity
		}
	}
	for c, what := range v.cols {
		switch what {
		case colReceiver:
			r.Cells[c] = counterpartyText(f.Counterparty)
		case colAmount:
			r.Cells[c] = keyAmountText(f.Amount)
		case colReference:
			r.Cells[c] = f.Reference
		case colSource:
			r.Cells[c] = f.Source
		case colValidity:
			switch {
			case len(p.Errors) > 0:
				r.Cells[c] = t("Invalid")
				mark(c, wire.SeverityError, p.Errors...)
			case len(p.Warnings) > 0:
				r.Cells[c] = t("Valid, to check")
				mark(c, wire.SeverityWarning, p.Warnings...)
			default:
				r.Cells[c] = t("Valid")
			}
		case colRepeat:
			if rp, ok := all.repeats[i]; ok {
				r.Cells[c] = repeatText(rp)
				mark(c, wire.SeverityWarning, tf("Also in bulk %s: executing this bulk would send it again.", rp.BulkID))
			}
		case colReceipt:
			if d, ok := all.differs[i]; ok {
				r.Cells[c] = receiptWords(d)
				mark(c, wire.SeverityError, d.Text)
			}
		}
	}
	return r
}

// repeatText names the bulk that holds an element too.
func repeatText(rp wire.ElementRepeat) string {
	if rp.Others > 0 {
		return tf("also in bulk %s and %s", rp.BulkID, plural(rp.Others, "other", "others"))
	}
	return tf("also in bulk %s", rp.BulkID)
}

// receiptWords says in a cell how an element differs from the receipt.
func receiptWords(d wire.Difference) string {
	switch d.What {
	case "extra":
		return t("not in the receipt")
	case "order":
		return t("elsewhere in the receipt")
	}
	return t("not what the receipt declares here")
}

// nextProblem finds the next element in view with something to check
// (an error, a warning, another bulk holding it, a difference from the
// receipt), after or, with Back, before element After, going round once.
func (v *elementView) nextProblem(req wire.NextProblem) wire.FoundProblem {
	n := len(v.shown)
	after := req.After
	if req.Back && after < 0 {
		after = math.MaxInt // from the end
	}
	// The element the search starts from comes last.
	start := sort.SearchInts(v.shown, after+1)
	if req.Back {
		start = sort.SearchInts(v.shown, after) - 1
	}
	for k := range n {
		p := start + k
		if req.Back {
			p = start - k
		}
		wrapped := p < 0 || p >= n
		p = (p%n + n) % n
		if !v.all.toCheck(v.shown[p]) {
			continue
		}
		r := v.row(v.shown[p])
		found := wire.FoundProblem{Found: true, Wrapped: wrapped, Element: r.Element, Column: -1, Position: p,
			Problem: wire.Problem{Element: r.Element, Severity: r.Severity}}
		if len(r.Marks) > 0 {
			m := r.Marks[0]
			found.Column, found.Problem.Message = m.Column, strings.Join(m.Messages, " · ")
		}
		return found
	}
	return wire.FoundProblem{Column: -1, Position: -1}
}
