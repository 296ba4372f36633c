package ui

import "github.com/bulkdesk/bulkdesk/app/wire"

// A gridSource gives the review table rows the page holds itself, rather
// than a document of the worker's: the elements of a bulk read back for
// its checker (see bulkGrid). Its rows come at once and cannot be edited.
type gridSource interface {
	// rows answers a window of the view, as the worker's JobRows does.
	rows(req wire.RowsWindow) wire.Rows
	// nextProblem answers F8, as the worker's JobNextProblem does.
	nextProblem(req wire.NextProblem) wire.FoundProblem
	// words are what the table says around its rows.
	words() gridWords
}

// gridWords are what the review table says around its rows: the heading
// of the row labels and of the problems no column holds, and what it says
// when it shows no row, with every row and with errors only.
type gridWords struct {
	rowHead, problems, empty, noError string
}

// Source sets where the rows come from; nil, the default, is the worker's
// document.
func (g *reviewGrid) Source(s gridSource) *reviewGrid {
	g.Isource = s
	return g
}

// words are the source's words, or those of a file's rows.
func (g *reviewGrid) words() gridWords {
	if g.Isource != nil {
		return g.Isource.words()
	}
	return gridWords{rowHead: t("Row"), problems: t("Other problems"), empty: t("The file has no elements."), noError: t("No row has an error.")}
}

// findProblem asks the source, or the worker, for the next problem after
// element after (see nextProblem).
func (g *reviewGrid) findProblem(after int, col *int, back bool, found func(wire.FoundProblem)) {
	if g.Isource != nil {
		req := wire.NextProblem{After: after, AfterColumn: col, Back: back, ErrorsOnly: g.IerrorsOnly}
		found(g.Isource.nextProblem(req))
		return
	}
	nextProblem(g.ctx, g.Idoc, after, col, back, g.IerrorsOnly, found)
}
