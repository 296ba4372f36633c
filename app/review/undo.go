package review

import (
	"fmt"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
)

// Undoing a change: EditCell, ReplaceCells and UpperCase each return the
// cells they overwrote as they were (a Change), and Undo puts them back
// and validates their elements again. A table's cell comes back as the
// file gave it (a number cell stays a number, a date cell a date), a
// request's field as it was, or absent again; so that undoing a change
// leaves the document as if it had never been made.
//
// A Change names its cells by CellKey, which outlives a rebuild of the
// review table (another mapping, other settings, another kind): a table's
// row and file column, a request's element and field. It does not outlive
// reading the file again, which throws the edits away.

// A CellKey names a cell of the file under review: a table's row number
// and 0-based column (Element -1), or a request element's index and the
// path of its field.
type CellKey struct {
	Row, Column int
	Element     int
	Field       string
}

// A Change holds the cells one change overwrote, as they were.
type Change struct {
	cells []saved
}

// Len counts the cells the change changed.
func (c Change) Len() int { return len(c.cells) }

// A Before is a cell as it read before a change.
type Before struct {
	Key  CellKey
	Text string
}

// Before lists the cells the change overwrote, with their text before it.
func (c Change) Before() []Before {
	out := make([]Before, len(c.cells))
	for k, s := range c.cells {
		out[k] = Before{Key: s.key, Text: s.text}
	}
	return out
}

// saved is a cell as it was: its text as the table showed it, and what
// puts it back.
type saved struct {
	key  CellKey
	text string
	// cell is a table's cell.
	cell ingest.Cell
	// value is a request's field, present says it was there, and from,
	// when the field's objects were made by the change, is how many steps
	// of its path there were before it.
	value   any
	present bool
	from    int
}

// CellKey returns the key of the cell of element i in column col; false
// for a value set for every row, which no edit changes.
func (d *Document) CellKey(i, col int) (CellKey, bool) {
	if i < 0 || i >= d.src.count() || col < 0 || col >= len(d.cols) || d.cols[col].Set {
		return CellKey{}, false
	}
	return d.src.key(i, d.cols[col]), true
}

// EditCell is Edit, returning what it overwrote.
func (d *Document) EditCell(i, col int, text string) (Change, error) {
	var before []saved
	if i >= 0 && i < d.src.count() && col >= 0 && col < len(d.cols) && !d.cols[col].Set {
		before = []saved{d.src.save(i, d.cols[col])}
	}
	if err := d.Edit(i, col, text); err != nil {
		return Change{}, err
	}
	return Change{cells: before}, nil
}

// UpperCase writes every cell of column col in capital letters (the fix of
// currency codes written in lower case) as one change, and validates the
// elements it changed.
func (d *Document) UpperCase(col int) (Change, error) {
	if col < 0 || col >= len(d.cols) {
		return Change{}, fmt.Errorf("there is no column %d", col)
	}
	c := d.cols[col]
	if c.Set {
		return Change{}, ErrSetForEveryRow
	}
	var edits []cellEdit
	for i := range d.src.count() {
		if v := d.src.cell(i, c); strings.ToUpper(v) != v {
			edits = append(edits, cellEdit{element: i, column: c, text: strings.ToUpper(v)})
		}
	}
	return d.change(edits)
}

// change makes edits, saving the cells first, and validates the elements
// they changed.
func (d *Document) change(edits []cellEdit) (Change, error) {
	if len(edits) == 0 {
		return Change{}, nil
	}
	before := make([]saved, len(edits))
	for k, e := range edits {
		before[k] = d.src.save(e.element, e.column)
	}
	if err := d.src.editMany(edits); err != nil {
		return Change{}, err
	}
	changed := make([]int, len(edits))
	for k, e := range edits {
		changed[k] = e.element
	}
	if len(d.facts) != d.src.count() {
		changed = nil
	}
	d.refresh(changed)
	return Change{cells: before}, nil
}

// Undo puts back the cells a change overwrote and validates their
// elements again. It returns the elements changed back, in the change's
// order. Changes are undone last first: a change undone before those made
// after it would put back cells they changed since.
func (d *Document) Undo(c Change) ([]int, error) {
	if len(c.cells) == 0 {
		return nil, nil
	}
	if err := d.src.restore(c.cells); err != nil {
		return nil, err
	}
	changed := make([]int, 0, len(c.cells))
	for _, s := range c.cells {
		if i, ok := d.src.elementOf(s.key); ok {
			changed = append(changed, i)
		}
	}
	if len(d.facts) != d.src.count() {
		d.refresh(nil)
	} else {
		d.refresh(changed)
	}
	return changed, nil
}

func (s *tableSource) key(i int, c Column) CellKey {
	return CellKey{Row: s.res().Elements[i].Row, Column: c.Index, Element: -1}
}

func (s *tableSource) save(i int, c Column) saved {
	k := s.key(i, c)
	t := s.im.Table
	var cell ingest.Cell
	if ri := t.RowIndex(k.Row); ri >= 0 {
		cell = t.Rows[ri].Cell(k.Column)
	}
	return saved{key: k, text: t.Display(cell), cell: cell}
}

func (s *tableSource) elementOf(k CellKey) (int, bool) {
	return s.res().ElementOfRow(k.Row)
}

// restore puts cells back as the file gave them and builds their rows
// again, or the whole table when they are many (see editMany).
func (s *tableSource) restore(cells []saved) error {
	t := s.im.Table
	for _, c := range cells {
		ri := t.RowIndex(c.key.Row)
		if ri < 0 || c.key.Column < 0 {
			return fmt.Errorf("the sheet has no cell %s%d", t.ColumnName(c.key.Column), c.key.Row)
		}
		r := &t.Rows[ri]
		for len(r.Cells) <= c.key.Column {
			r.Cells = append(r.Cells, ingest.Cell{})
		}
		r.Cells[c.key.Column] = c.cell
		if len(cells) <= rebuildAll {
			if _, err := s.im.RebuildRow(c.key.Row); err != nil {
				return err
			}
		}
	}
	if len(cells) > rebuildAll {
		s.im.Build(nil)
	}
	return nil
}

func (s *requestSource) key(i int, c Column) CellKey {
	return CellKey{Element: i, Field: c.Field}
}

func (s *requestSource) save(i int, c Column) saved {
	tokens := tokensOf(c.Field)
	out := saved{key: s.key(i, c), text: s.cell(i, c), from: len(tokens)}
	v := s.elements.At(i)
	for k, tok := range tokens {
		next, ok := step(v, tok)
		if !ok {
			out.from = k
			return out
		}
		v = next
	}
	out.value, out.present = v, true
	return out
}

// step is the value one token below v, and whether it is there.
func step(v any, tok any) (any, bool) {
	switch tok := tok.(type) {
	case string:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		next, ok := obj[tok]
		return next, ok
	case int:
		list, ok := v.([]any)
		if !ok || tok >= len(list) {
			return nil, false
		}
		return list[tok], true
	}
	return nil, false
}

func (s *requestSource) elementOf(k CellKey) (int, bool) {
	return k.Element, k.Element >= 0 && k.Element < s.elements.Len()
}

// restore puts fields back as they were: their value, or absent, with
// the objects an edit made for them gone again.
func (s *requestSource) restore(cells []saved) error {
	changed := make([]int, 0, len(cells))
	for _, c := range cells {
		obj, ok := s.elements.Own(c.key.Element).(map[string]any)
		if !ok {
			continue
		}
		tokens := tokensOf(c.key.Field)
		switch {
		case c.present:
			if err := put(obj, tokens, c.value); err != nil {
				return fmt.Errorf("%s: %w", c.key.Field, err)
			}
		case c.from < len(tokens):
			remove(obj, tokens[:c.from+1])
		}
		changed = append(changed, c.key.Element)
	}
	s.revalidate(changed)
	return nil
}
