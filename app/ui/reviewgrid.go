package ui

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A gridFocus asks the review table to show and focus one element's cell;
// a new Seq asks again.
type gridFocus struct {
	Element int
	Column  int
	Seq     int
}

// reviewGrid is the review table: one row per element, the cells as the
// file shows them, the invalid ones marked with their messages. It holds
// only the rows around the view, asked of the worker as the operator
// scrolls, and renders only those in view, so that 10,000 rows scroll as
// smoothly as ten. It is a grid for the keyboard: the arrow keys move
// between cells, Enter or F2 edits one, F8 and Shift+F8 go to the next
// and previous problem.
type reviewGrid struct {
	app.Compo

	Idoc        int
	Iversion    int
	Icolumns    []wire.GridColumn
	IerrorsOnly bool
	// IfirstRows is the first window of the document's rows, sent with
	// its summary: drawn at once, without asking the worker.
	IfirstRows *wire.Rows
	Ifocus     gridFocus
	// ImemoryNote is the worker's memory, recorded when the table first
	// shows a document's rows (see markMemory).
	ImemoryNote uint64
	IonEdited   func(ctx app.Context, e wire.Edited)
	IonAnnounce func(ctx app.Context, text string)
	// IonNoErrorLeft hears F8 find no error in the errors-only view.
	IonNoErrorLeft func(ctx app.Context, back bool)
	// IonSaving hears of each edit sent (+1) and answered (-1).
	IonSaving func(ctx app.Context, delta int)
	// IonEditSet is asked to change a value set for every row (its
	// field), which no cell edit changes.
	IonEditSet func(ctx app.Context, field string)
	// IonUndo is asked to undo the last change (Ctrl+Z, Cmd+Z on a Mac).
	IonUndo func(ctx app.Context)
	// Isource, when set, gives the rows instead of the worker (Source).
	Isource gridSource

	// The rows held: [offset, offset+len(rows)) of a view of total rows,
	// at version.
	total   int
	offset  int
	rows    []wire.GridRow
	version int
	loaded  bool
	// loading is the window asked for, while a request is out.
	loading bool
	again   bool
	seq     int

	scrollTop, viewport, headerHeight float64
	start, end                        int
	// restLeft is where the last sideways scroll came to rest.
	restLeft float64

	activePos, activeCol int
	// found is the last problem F8 went to.
	found *wire.FoundProblem
	// focusPending says the table holds the focus for the active cell,
	// whose row is on its way.
	focusPending bool
	editing      bool
	editText     string
	// refused says why the last text typed into a number cell was not
	// taken, until the next edit starts.
	refused string

	doc, docVersion, focusSeq int
	errorsOnly                bool
	// shownAtMount says the rows were taken before the first render, so
	// that the table is shown once it is mounted.
	shownAtMount bool
	// ctx is the table's own context, for the worker's answers: an event's
	// context is dropped once its element is gone (an edited cell's
	// input is, by the time the worker answers).
	ctx app.Context
}

func newReviewGrid() *reviewGrid {
	return &reviewGrid{viewport: 20 * rowHeight, headerHeight: 2 * rowHeight}
}

// Document sets the document shown and its version; a new version makes
// the table ask for its rows again.
func (g *reviewGrid) Document(id, version int) *reviewGrid {
	g.Idoc, g.Iversion = id, version
	return g
}

// Columns sets the columns.
func (g *reviewGrid) Columns(c []wire.GridColumn) *reviewGrid {
	g.Icolumns = c
	return g
}

// FirstRows sets the first window of rows the summary brought.
func (g *reviewGrid) FirstRows(r *wire.Rows) *reviewGrid {
	g.IfirstRows = r
	return g
}

// ErrorsOnly shows only the rows with errors.
func (g *reviewGrid) ErrorsOnly(v bool) *reviewGrid {
	g.IerrorsOnly = v
	return g
}

// MemoryNote sets the worker's memory, for the performance timeline.
func (g *reviewGrid) MemoryNote(bytes uint64) *reviewGrid {
	g.ImemoryNote = bytes
	return g
}

// Focus asks for an element's cell to be shown and focused.
func (g *reviewGrid) Focus(f gridFocus) *reviewGrid {
	g.Ifocus = f
	return g
}

// OnEdited sets what receives the result of an edit.
func (g *reviewGrid) OnEdited(f func(ctx app.Context, e wire.Edited)) *reviewGrid {
	g.IonEdited = f
	return g
}

// OnSaving sets what hears of the edits on their way to the worker: +1
// when one is sent, -1 when it is answered, stored or refused.
func (g *reviewGrid) OnSaving(f func(ctx app.Context, delta int)) *reviewGrid {
	g.IonSaving = f
	return g
}

// OnEditSet sets what changes a value set for every row when the
// operator edits one of its cells: the mapping step, where it is set.
func (g *reviewGrid) OnEditSet(f func(ctx app.Context, field string)) *reviewGrid {
	g.IonEditSet = f
	return g
}

// OnUndo sets what undoes the last change when the operator presses
// Ctrl+Z (Cmd+Z) in the table.
func (g *reviewGrid) OnUndo(f func(ctx app.Context)) *reviewGrid {
	g.IonUndo = f
	return g
}

// OnNoErrorLeft sets what F8 does when the errors-only view has no error
// left: the page shows every row again and goes on to the warnings.
func (g *reviewGrid) OnNoErrorLeft(f func(ctx app.Context, back bool)) *reviewGrid {
	g.IonNoErrorLeft = f
	return g
}

// OnAnnounce sets what reads the table's news to screen readers.
func (g *reviewGrid) OnAnnounce(f func(ctx app.Context, text string)) *reviewGrid {
	g.IonAnnounce = f
	return g
}

// OnInit takes the first rows the summary brought before the table's
// first render: it is drawn once, rows and all, in the frame that shows
// the review, rather than empty and again a frame later.
func (g *reviewGrid) OnInit() {
	if !g.firstRowsFit() {
		return
	}
	g.doc, g.docVersion, g.errorsOnly = g.Idoc, g.Iversion, g.IerrorsOnly
	g.activeCol = firstShown(g.Icolumns)
	g.hold(*g.IfirstRows)
	g.shownAtMount = true
}

func (g *reviewGrid) OnMount(ctx app.Context) {
	g.ctx = ctx
	g.measure()
	g.sync(ctx)
	if g.shownAtMount {
		// Mounted with the rows taken in OnInit: sized now, not a
		// frame later, and shown.
		g.shownAtMount = false
		g.window()
		sizeSpacers(g.start*rowHeight, max(0, g.total-g.end)*rowHeight)
		markMemory("table-shown", g.ImemoryNote)
		return
	}
	g.layout()
}

// firstRowsFit says whether the first rows the summary brought are the
// ones the table shows first: the document's top, in every row's view.
func (g *reviewGrid) firstRowsFit() bool {
	r := g.IfirstRows
	return r != nil && r.Document == g.Idoc && r.Version == g.Iversion && r.Offset == 0 && !g.IerrorsOnly
}

func (g *reviewGrid) OnUpdate(ctx app.Context) { g.sync(ctx) }

func (g *reviewGrid) OnResize(ctx app.Context) {
	g.measure()
	g.scrolled()
}

// sync reacts to new props: another document or view starts from the top,
// a new version asks for the rows again, a new focus goes to its cell.
func (g *reviewGrid) sync(ctx app.Context) {
	switch {
	case g.Idoc != g.doc || g.IerrorsOnly != g.errorsOnly:
		g.doc, g.docVersion, g.errorsOnly = g.Idoc, g.Iversion, g.IerrorsOnly
		g.rows, g.loaded, g.total, g.offset = nil, false, 0, 0
		g.activePos, g.activeCol, g.editing = 0, firstShown(g.Icolumns), false
		g.setScroll(0)
		if g.firstRowsFit() {
			g.seq++ // an answer to an earlier request is stale
			g.loading = false
			g.take(*g.IfirstRows, nil)
		} else {
			g.fetch(0, wire.FirstWindow, nil, true)
		}
	case g.Iversion != g.docVersion:
		g.docVersion = g.Iversion
		g.fetch(g.offset, max(len(g.rows), 2*fetchAhead), nil, true)
	}
	if g.Ifocus.Seq != g.focusSeq {
		g.focusSeq = g.Ifocus.Seq
		el := g.Ifocus.Element
		g.activeCol = g.Ifocus.Column
		g.fetch(0, wire.FirstWindow, &el, true)
	}
}

// measure reads the table's viewport and header heights.
func (g *reviewGrid) measure() {
	if el := app.Window().GetElementByID("grid"); el.Truthy() {
		g.viewport = el.Get("clientHeight").Float()
		g.scrollTop = el.Get("scrollTop").Float()
		if th := el.Call("querySelector", "thead"); th.Truthy() {
			g.headerHeight = th.Get("offsetHeight").Float()
		}
	}
}

func (g *reviewGrid) setScroll(top float64) {
	g.scrollTop = top
	if el := app.Window().GetElementByID("grid"); el.Truthy() {
		el.Set("scrollTop", top)
	}
}

// fetch asks the worker for rows; around, when set, moves the window to
// that element and makes its cell the active one. While a request is out,
// a scroll waits for its answer; anything else (another view, a new
// version, a cell to show) asks at once, and the older answer is dropped.
func (g *reviewGrid) fetch(offset, limit int, around *int, force bool) {
	if background() == nil {
		return
	}
	if g.loading && !force && around == nil {
		g.again = true
		return
	}
	g.loading = true
	g.seq++
	seq := g.seq
	req := wire.RowsWindow{Document: g.Idoc, Offset: offset, Limit: limit, ErrorsOnly: g.IerrorsOnly, Around: around}
	if g.Isource != nil {
		g.loading = false
		g.take(g.Isource.rows(req), around)
		return
	}
	runJob(g.ctx, wire.JobRows, req, nil, func(r wire.Rows, _ app.Value, err error) {
		if seq != g.seq {
			return // a newer request is out
		}
		g.loading = false
		if err != nil {
			return
		}
		g.take(r, around)
	})
}

// take holds a window of rows the worker sent; around is the element a
// request asked to show, if any.
func (g *reviewGrid) take(r wire.Rows, around *int) {
	if !g.loaded {
		memory := g.ImemoryNote
		g.ctx.Defer(func(app.Context) { markMemory("table-shown", memory) })
	}
	g.hold(r)
	if g.again {
		g.again = false
		g.scrolled()
	}
	g.layout()
	// Revealed last: the cell is shown once the rows around it are sized.
	if around != nil && r.Position >= 0 {
		g.activePos = r.Position
		g.reveal()
		return
	}
	// The active cell's row has come: it takes the focus the table held
	// for it, unless the operator has gone elsewhere since.
	if g.focusPending {
		g.ctx.Defer(func(app.Context) {
			if active := app.Window().Get("document").Get("activeElement"); active.Truthy() && active.Get("id").String() == "grid" {
				g.focusActive()
			}
		})
	}
}

// hold keeps a window of rows as the ones the table shows.
func (g *reviewGrid) hold(r wire.Rows) {
	g.total, g.offset, g.rows, g.version, g.loaded = r.Total, r.Offset, r.Rows, r.Version, true
	g.activePos = min(g.activePos, max(0, g.total-1))
}

// window recomputes the rows to render from the scroll position.
func (g *reviewGrid) window() {
	g.start, g.end = visibleRange(g.scrollTop, g.viewport-g.headerHeight, g.total)
}

// layout recomputes the window and, once rendered, sizes the empty rows
// that stand for the rows above and below it. Their heights are set
// through the DOM: the content security policy refuses style attributes.
func (g *reviewGrid) layout() {
	g.window()
	above, below := g.start*rowHeight, max(0, g.total-g.end)*rowHeight
	g.ctx.Defer(func(app.Context) { sizeSpacers(above, below) })
}

// sizeSpacers gives the empty rows that stand for those out of view their
// heights, and pins the pinned columns.
func sizeSpacers(above, below int) {
	for id, h := range map[string]int{"grid-above": above, "grid-below": below} {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Get("style").Set("height", px(h))
		}
	}
	if grid := app.Window().GetElementByID("grid"); grid.Truthy() {
		pinColumns(grid)
	}
}

func (g *reviewGrid) onScroll(ctx app.Context, e app.Event) {
	g.scrollTop = ctx.JSSrc().Get("scrollTop").Float()
	start, end := g.start, g.end
	g.scrolled()
	if start == g.start && end == g.end {
		ctx.PreventUpdate()
	}
}

// scrolled renders the rows now in view, asking the worker for those it
// lacks.
func (g *reviewGrid) scrolled() {
	g.layout()
	if off, lim, need := fetchFor(g.start, g.end, g.total, g.offset, len(g.rows)); need && g.loaded {
		g.fetch(off, lim, nil, false)
	}
}

// reveal scrolls the active cell into view and gives it the focus.
func (g *reviewGrid) reveal() {
	if top, moved := scrollToShow(g.activePos, g.scrollTop, g.viewport, g.headerHeight); moved {
		g.setScroll(top)
		g.scrolled()
	}
	g.layout()
	g.ctx.Defer(func(app.Context) { g.focusActive() })
}

// focusActive gives the active cell the focus and shows it whole, below
// the sticky header and right of the pinned row numbers, with the line
// that reads its problems. A cell whose row is still on its way from the
// worker (a jump to the end of 10,000 rows) cannot take the focus: the
// table holds it meanwhile, so that the keys still reach the table, and
// the cell takes it when its row comes (see take).
func (g *reviewGrid) focusActive() {
	win := app.Window()
	grid := win.GetElementByID("grid")
	if !grid.Truthy() {
		return
	}
	if th := grid.Call("querySelector", "thead"); th.Truthy() {
		grid.Get("style").Set("scrollPaddingTop", px(th.Get("offsetHeight").Int()))
	}
	pins := pinColumns(grid)
	noScroll := win.Get("Object").New()
	noScroll.Set("preventScroll", true)
	cell := win.GetElementByID(cellID(g.activePos, g.activeCol))
	if !cell.Truthy() {
		g.focusPending = true
		grid.Call("focus", noScroll)
		return
	}
	g.focusPending = false
	cell.Call("focus", noScroll)
	nearest := win.Get("Object").New()
	nearest.Set("block", "nearest")
	nearest.Set("inline", "nearest")
	if g.activeCol < len(g.Icolumns) && g.Icolumns[g.activeCol].Pinned {
		// Always in sight sideways: only its row is brought into view,
		// the table's sideways snap left as it is.
		grid.Get("style").Set("scrollPaddingLeft", pxf(pins.left))
		cell.Call("scrollIntoView", nearest)
		grid.Get("style").Set("scrollPaddingLeft", "")
	} else {
		showSideways(grid, cell, pins.edge)
		cell.Call("scrollIntoView", nearest)
	}
	if box := grid.Get("parentElement"); box.Truthy() {
		box.Call("scrollIntoView", nearest)
	}
}

func cellID(pos, col int) string { return "cell-" + strconv.Itoa(pos) + "-" + strconv.Itoa(col) }

// row returns the row held at position pos of the view.
func (g *reviewGrid) row(pos int) (wire.GridRow, bool) {
	i := pos - g.offset
	if i < 0 || i >= len(g.rows) {
		return wire.GridRow{}, false
	}
	return g.rows[i], true
}

func (g *reviewGrid) Render() app.UI {
	cols := g.Icolumns
	g.window()
	words := g.words()
	label := t("Elements")
	if g.IerrorsOnly {
		label = t("Elements with errors")
	}
	var rows []int
	for pos := g.start; pos < g.end; pos++ {
		rows = append(rows, pos)
	}
	order := gridOrder(cols)
	return app.Div().Class("grid-box").Body(
		app.Div().ID("grid").Class("grid-scroll").TabIndex(-1).
			OnScroll(g.onScroll).On("scrollend", g.onScrollEnd).OnKeyDown(g.onKey).
			OnClick(g.onClick).OnDblClick(g.onDblClick).Body(
			app.Table().Class("grid").Role("grid").
				Aria("label", label).
				Aria("rowcount", g.total+1).
				Aria("colcount", len(cols)+2).
				Body(
					app.THead().Body(app.Tr().Aria("rowindex", 1).Body(
						app.Th().Scope("col").Class("grid-rowhead").Text(words.rowHead),
						app.Range(order).Slice(func(i int) app.UI {
							c := cols[order[i]]
							th := app.Th().Scope("col").Aria("colindex", i+2).Class(columnClasses(c)...)
							if c.Pinned {
								th = th.Class("grid-pinned")
							}
							if c.Set {
								return th.Class("grid-set").Body(
									app.Span().Class("grid-head").Text(fieldLabel(c.Field)),
									app.Span().Class("grid-set-badge").Text(t("Same for every row")),
								)
							}
							head := c.Header
							if c.Letter != "" {
								head = c.Letter + " · " + c.Header
							}
							// Under the file's header, the field in the
							// operator's words; its path, which support
							// and the API use, on a pointer's hover.
							body := []app.UI{app.Span().Class("grid-head").Text(head)}
							if name := fieldName(c.Field); name != c.Header {
								body = append(body, app.Span().Class("grid-field").Text(name))
							}
							return th.Title(head + "\n" + fieldLabel(c.Field)).Body(body...)
						}),
						app.Th().Scope("col").Aria("colindex", len(cols)+2).Text(words.problems),
					)),
					// The empty rows that stand for those out of view have
					// bodies of their own: go-app matches children by
					// position, and would otherwise turn a spacer, with
					// its height, into a row as the window moves.
					app.TBody().Body(app.Tr().ID("grid-above").Class("grid-spacer").Aria("hidden", "true")),
					app.TBody().Body(
						app.Range(rows).Slice(func(i int) app.UI { return g.renderRow(rows[i]) }),
					),
					app.TBody().Body(app.Tr().ID("grid-below").Class("grid-spacer").Aria("hidden", "true")),
				),
		),
		app.If(g.loaded && g.total == 0, func() app.UI {
			if g.IerrorsOnly {
				return app.P().Class("all-clear").Text(words.noError)
			}
			return app.P().Class("note").Text(words.empty)
		}),
		app.P().ID("cell-detail").Class("cell-detail").Aria("live", "polite").Text(g.detail()),
	)
}

func px(n int) string { return strconv.Itoa(n) + "px" }

func (g *reviewGrid) renderRow(pos int) app.UI {
	cols := g.Icolumns
	r, ok := g.row(pos)
	tr := app.Tr().Attr("aria-rowindex", strconv.Itoa(pos+2))
	if !ok {
		return tr.Class("grid-loading").Body(
			app.Th().Scope("row").Class("grid-rowhead").Text("…"),
			app.Td().ColSpan(len(cols)+1).Text(t("Loading…")),
		)
	}
	if r.Severity != "" {
		tr = tr.Class("row-" + r.Severity)
	}
	marks := make(map[int]cellMark, len(r.Marks)+len(r.Edited))
	for _, m := range r.Marks {
		marks[m.Column] = cellMark{CellMark: m}
	}
	for _, e := range r.Edited {
		m := marks[e.Column]
		m.Column, m.Edited, m.Was = e.Column, true, g.shownWas(r, e)
		marks[e.Column] = m
	}
	cells := make([]app.UI, 0, len(cols)+2)
	cells = append(cells, app.Th().Scope("row").Class("grid-rowhead").Text(r.Label))
	for shown, c := range gridOrder(cols) {
		cells = append(cells, g.renderCell(pos, c, shown, r, marks))
	}
	other := app.Td().Role("gridcell").Attr("aria-colindex", strconv.Itoa(len(cols)+2)).Class("grid-other")
	if len(r.Problems) > 0 {
		other = other.Class("cell-" + r.Severity).Title(strings.Join(r.Problems, "\n")).Text(strings.Join(r.Problems, " · "))
	}
	cells = append(cells, other)
	return tr.Body(cells...)
}

// renderCell renders the cell of column c, shown as the table's column
// shown (see gridOrder).
func (g *reviewGrid) renderCell(pos, c, shown int, r wire.GridRow, marks map[int]cellMark) app.UI {
	active := pos == g.activePos && c == g.activeCol
	// Numbers are set as text: go-app formats an Aria or DataSet value
	// with fmt, which, for the hundreds of cells of a window, took a
	// fifth of the table's first render.
	td := app.Td().ID(cellID(pos, c)).Role("gridcell").Attr("aria-colindex", strconv.Itoa(shown+2)).
		Attr("data-pos", strconv.Itoa(pos)).Attr("data-col", strconv.Itoa(c)).Class(columnClasses(g.Icolumns[c])...)
	if active {
		td = td.TabIndex(0).Class("cell-active")
	} else {
		td = td.TabIndex(-1)
	}
	if g.Icolumns[c].Pinned {
		td = td.Class("grid-pinned")
	}
	if g.Icolumns[c].Set {
		// The same value in every row, changed only where the columns
		// are mapped.
		td = td.Class("grid-set").Aria("readonly", "true")
	}
	m, noted := marks[c]
	marked := noted && m.Severity != ""
	if marked {
		td = td.Class("cell-"+m.Severity).Aria("invalid", m.Severity == wire.SeverityError)
	}
	if noted {
		td = td.Title(m.title())
	}
	if m.Edited {
		// Marked in its corner, and said to screen readers with the
		// value it had.
		td = td.Class("cell-edited").Aria("description", m.editedWords())
	}
	if active && g.editing {
		return td.Class("cell-editing").Body(
			app.Input().ID("cell-editor").Class("cell-input").Value(g.editText).
				Aria("label", tf("New value of %s", g.Icolumns[c].Field)).
				OnInput(func(ctx app.Context, e app.Event) {
					g.editText = ctx.JSSrc().Get("value").String()
					ctx.PreventUpdate()
				}).
				OnKeyDown(g.onEditKey).
				OnBlur(func(ctx app.Context, e app.Event) {
					if g.editing {
						g.commit(ctx, 0)
					}
				}),
		)
	}
	text := g.shownText(r, c)
	if !marked {
		return td.Text(text)
	}
	// Screen readers hear the severity with the value; the messages are
	// read from the detail line below the table.
	return td.Body(
		app.Span().Text(text),
		app.Span().Class("visually-hidden").Text(", "+gridSeverityWord(m.Severity)),
	)
}

// detail describes the active cell for the line under the table: its row
// and field, and its problems.
func (g *reviewGrid) detail() string {
	if g.refused != "" {
		return g.refused
	}
	text := g.cellDetail()
	if r, ok := g.row(g.activePos); ok {
		for _, e := range r.Edited {
			if e.Column == g.activeCol {
				text += " " + cellMark{Edited: true, Was: g.shownWas(r, e)}.editedSentence()
			}
		}
	}
	return text
}

// cellDetail describes the active cell's place and problems.
func (g *reviewGrid) cellDetail() string {
	r, ok := g.row(g.activePos)
	if !ok || g.activeCol >= len(g.Icolumns) {
		return ""
	}
	col := g.Icolumns[g.activeCol]
	// The field in the operator's words, then its path.
	field := fieldLabel(col.Field)
	element, isElement := strings.CutPrefix(r.Label, "#")
	if col.Set {
		// Said of the value rather than of the row: it is every row's.
		msg := tf("%s, the same in every row: %s. Press Enter to change it in “Check how it is read”.", fieldLabel(col.Field), r.Cells[g.activeCol])
		for _, m := range r.Marks {
			if m.Column == g.activeCol {
				msg += " " + strings.Join(m.Messages, " · ")
			}
		}
		return msg
	}
	for _, m := range r.Marks {
		if m.Column == g.activeCol {
			if isElement {
				return tf("Element %s, %s: %s", element, field, strings.Join(m.Messages, " · "))
			}
			return tf("Row %s, %s: %s", r.Label, field, strings.Join(m.Messages, " · "))
		}
	}
	if len(r.Problems) > 0 {
		if isElement {
			return tf("Element %s, %s. The row: %s", element, field, strings.Join(r.Problems, " · "))
		}
		return tf("Row %s, %s. The row: %s", r.Label, field, strings.Join(r.Problems, " · "))
	}
	if isElement {
		return tf("Element %s, %s.", element, field)
	}
	return tf("Row %s, %s.", r.Label, field)
}

// cellOf returns the position and column of the cell an event happened
// in. The table listens for clicks once, for all its cells: go-app keeps
// an element's first handler when a newer one comes from the same code,
// so a handler of each cell would remember the row it was first made for.
func cellOf(e app.Event) (pos, col int, ok bool) {
	td := e.Get("target").Call("closest", "td[data-pos]")
	if !td.Truthy() {
		return 0, 0, false
	}
	ds := td.Get("dataset")
	pos, err1 := strconv.Atoi(ds.Get("pos").String())
	col, err2 := strconv.Atoi(ds.Get("col").String())
	return pos, col, err1 == nil && err2 == nil
}

func (g *reviewGrid) onClick(ctx app.Context, e app.Event) {
	if pos, col, ok := cellOf(e); ok && !(g.editing && pos == g.activePos && col == g.activeCol) {
		g.activate(ctx, pos, col)
	}
}

func (g *reviewGrid) onDblClick(ctx app.Context, e app.Event) {
	if pos, col, ok := cellOf(e); ok && !g.editing {
		g.activate(ctx, pos, col)
		g.startEdit(ctx)
	}
}

func (g *reviewGrid) activate(ctx app.Context, pos, col int) {
	if g.editing && (pos != g.activePos || col != g.activeCol) {
		g.commit(ctx, 0)
	}
	g.activePos, g.activeCol = pos, col
	g.reveal()
}

// onKey moves between cells and starts edits.
func (g *reviewGrid) onKey(ctx app.Context, e app.Event) {
	if g.editing {
		return
	}
	key := e.Get("key").String()
	if (key == "z" || key == "Z") && !e.Get("shiftKey").Bool() && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
		e.PreventDefault()
		if g.IonUndo != nil {
			g.IonUndo(ctx)
		}
		return
	}
	if key == "F8" {
		// Also in a view the last error fixed left empty: F8 goes on
		// to the warnings (OnNoErrorLeft).
		e.PreventDefault()
		g.next(ctx, e.Get("shiftKey").Bool())
		return
	}
	if g.total == 0 {
		return
	}
	ctrl := e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()
	page := max(1, int((g.viewport-g.headerHeight)/rowHeight)-1)
	// Sideways, the keys go through the columns as they are shown.
	order := gridOrder(g.Icolumns)
	last := len(order) - 1
	pos, col := g.activePos, max(0, shownAt(order, g.activeCol))
	switch key {
	case "ArrowDown":
		pos++
	case "ArrowUp":
		pos--
	case "ArrowRight":
		col++
	case "ArrowLeft":
		col--
	case "PageDown":
		pos += page
	case "PageUp":
		pos -= page
	case "Home":
		col = 0
		if ctrl {
			pos = 0
		}
	case "End":
		col = last
		if ctrl {
			pos = g.total - 1
		}
	case "Enter", "F2":
		e.PreventDefault()
		g.startEdit(ctx)
		return
	default:
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	g.refused = ""
	g.activePos = max(0, min(pos, g.total-1))
	if last >= 0 {
		g.activeCol = order[max(0, min(col, last))]
	}
	g.reveal()
}

// next goes to the next (or previous) problem in row order, from the
// active cell: the row's other marked cells first.
func (g *reviewGrid) next(ctx app.Context, back bool) {
	after, col := -1, g.activeCol
	if r, ok := g.row(g.activePos); ok {
		after = r.Element
		// A problem of the row as a whole was the last stop: the cells
		// are behind it.
		if f := g.found; f != nil && f.Element == after && f.Column < 0 {
			col = -1
		}
	}
	g.findProblem(after, &col, back, func(f wire.FoundProblem) {
		if !f.Found && g.IerrorsOnly && g.IonNoErrorLeft != nil {
			g.IonNoErrorLeft(g.ctx, back)
			return
		}
		g.announceFound(g.ctx, f)
		if !f.Found {
			return
		}
		g.found = &f
		el := f.Element
		if f.Column >= 0 {
			g.activeCol = f.Column
		}
		g.fetch(0, wire.FirstWindow, &el, true)
	})
}

func (g *reviewGrid) announceFound(ctx app.Context, f wire.FoundProblem) {
	if g.IonAnnounce == nil {
		return
	}
	if !f.Found {
		g.IonAnnounce(ctx, t("No problem left."))
		return
	}
	msg := tf("%s: %s", problemPlace(f.Problem), f.Problem.Message)
	if f.Wrapped {
		msg = tf("From the top again. %s", msg)
	}
	g.IonAnnounce(ctx, msg)
}

// nextProblem asks the worker for the next problem after element after
// and, when set, its cell in column col (see wire.NextProblem).
func nextProblem(ctx app.Context, doc, after int, col *int, back, errorsOnly bool, found func(wire.FoundProblem)) {
	if background() == nil {
		return
	}
	if back && after < 0 {
		after, col = 1<<30, nil
	}
	req := wire.NextProblem{Document: doc, After: after, AfterColumn: col, Back: back, ErrorsOnly: errorsOnly}
	runJob(ctx, wire.JobNextProblem, req, nil, func(f wire.FoundProblem, _ app.Value, err error) {
		if err == nil {
			found(f)
		}
	})
}

func (g *reviewGrid) startEdit(ctx app.Context) {
	r, ok := g.row(g.activePos)
	if !ok || g.activeCol >= len(g.Icolumns) || g.Isource != nil {
		return
	}
	if c := g.Icolumns[g.activeCol]; c.Set {
		if g.IonEditSet != nil {
			g.IonEditSet(ctx, c.Field)
		}
		return
	}
	g.editing, g.refused = true, ""
	g.editText = g.shownText(r, g.activeCol)
	g.ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID("cell-editor"); el.Truthy() {
			el.Call("focus")
			el.Call("select")
		}
	})
}

func (g *reviewGrid) onEditKey(ctx app.Context, e app.Event) {
	e.StopImmediatePropagation()
	switch e.Get("key").String() {
	case "Enter":
		e.PreventDefault()
		g.editText = ctx.JSSrc().Get("value").String()
		g.commit(ctx, 1)
	case "Tab":
		g.editText = ctx.JSSrc().Get("value").String()
		g.commit(ctx, 0)
	case "Escape":
		e.PreventDefault()
		g.editing = false
		g.reveal()
	default:
		ctx.PreventUpdate()
	}
}

// commit sends the edit to the worker, then moves down by move rows.
func (g *reviewGrid) commit(ctx app.Context, move int) {
	g.editing = false
	r, ok := g.row(g.activePos)
	if !ok || background() == nil {
		return
	}
	col := g.activeCol
	text, changed, err := g.editedValue(r, col, g.editText)
	if err != nil {
		// Nothing changes; Enter leaves the text to correct.
		g.refused = tf("The change was not made: %s", consoleLang.Say(err))
		if g.IonAnnounce != nil {
			g.IonAnnounce(g.ctx, g.refused)
		}
		g.editing = move != 0
		g.reveal()
		if g.editing {
			g.ctx.Defer(func(app.Context) {
				if el := app.Window().GetElementByID("cell-editor"); el.Truthy() {
					el.Call("focus")
				}
			})
		}
		return
	}
	g.refused = ""
	if !changed {
		g.activePos = max(0, min(g.activePos+move, g.total-1))
		g.reveal()
		return
	}
	pos := g.activePos
	// Show the new value at once; the worker's answer brings its problems.
	if i := pos - g.offset; i >= 0 && i < len(g.rows) {
		cells := append([]string(nil), r.Cells...)
		cells[col] = text
		g.rows[i].Cells = cells
	}
	req := wire.Edit{Document: g.Idoc, Element: r.Element, Column: col, Text: text}
	if g.IonSaving != nil {
		g.IonSaving(g.ctx, 1)
	}
	runJob(g.ctx, wire.JobEdit, req, nil, func(ed wire.Edited, _ app.Value, err error) {
		if g.IonSaving != nil {
			g.IonSaving(g.ctx, -1)
		}
		if err != nil {
			if g.IonAnnounce != nil {
				g.IonAnnounce(g.ctx, tf("The change was not made: %s", errorText(err)))
			}
			return
		}
		if i := pos - g.offset; i >= 0 && i < len(g.rows) && g.rows[i].Element == ed.Row.Element {
			g.rows[i] = ed.Row
		}
		if g.IonAnnounce != nil {
			g.IonAnnounce(g.ctx, editNews(ed))
		}
		if g.IonEdited != nil {
			g.IonEdited(g.ctx, ed)
		}
	})
	g.activePos = max(0, min(g.activePos+move, g.total-1))
	g.reveal()
}

// editNews says what an edit did, for screen readers.
func editNews(ed wire.Edited) string {
	element, isElement := strings.CutPrefix(ed.Row.Label, "#")
	left := plural(ed.Summary.Errors, "error", "errors")
	var msgs []string
	for _, m := range ed.Row.Marks {
		if m.Severity == wire.SeverityError {
			msgs = append(msgs, m.Messages...)
		}
	}
	if ed.Row.Severity == wire.SeverityWarning {
		// Valid, with something to check: the warnings are said too.
		var warns []string
		for _, m := range ed.Row.Marks {
			warns = append(warns, m.Messages...)
		}
		warns = append(warns, ed.Row.Problems...)
		if isElement {
			return tf("Element %s has no error; to check: %s. %s left in the file.", element, strings.Join(warns, " · "), left)
		}
		return tf("Row %s has no error; to check: %s. %s left in the file.", ed.Row.Label, strings.Join(warns, " · "), left)
	}
	if ed.Row.Severity != wire.SeverityError {
		if isElement {
			return tf("Element %s is valid. %s left in the file.", element, left)
		}
		return tf("Row %s is valid. %s left in the file.", ed.Row.Label, left)
	}
	if len(msgs) == 0 {
		msgs = ed.Row.Problems
	}
	if isElement {
		return tf("Element %s still has errors: %s. %s left in the file.", element, strings.Join(msgs, " · "), left)
	}
	return tf("Row %s still has errors: %s. %s left in the file.", ed.Row.Label, strings.Join(msgs, " · "), left)
}

// gridSeverityWord names a cell's severity for screen readers.
func gridSeverityWord(s string) string {
	switch s {
	case wire.SeverityError:
		return t("error")
	case wire.SeverityWarning:
		return t("warning")
	}
	return s
}
