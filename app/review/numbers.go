package review

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
)

// A numberSource knows which of its cells are a spreadsheet's numbers,
// kept as the spreadsheet stores them (1234.56) whatever its language.
type numberSource interface {
	number(i int, c Column) bool
}

// number reports whether element i's cell of column c is a number cell
// shown as stored: not a date, not padded with zeros by its format.
func (s *tableSource) number(i int, c Column) bool {
	cell, ok := s.cellOf(i, c)
	return ok && storedNumber(s.im.Table, cell)
}

func (s *tableSource) cellOf(i int, c Column) (ingest.Cell, bool) {
	if c.Set {
		return ingest.Cell{}, false
	}
	t := s.im.Table
	ri := t.RowIndex(s.res().Elements[i].Row)
	if ri < 0 {
		return ingest.Cell{}, false
	}
	return t.Rows[ri].Cell(c.Index), true
}

func storedNumber(t *ingest.Table, c ingest.Cell) bool {
	return c.Kind == ingest.Number && !t.IsDate(c) && t.Display(c) == c.Value
}

// editNumber types a number over a number cell: it stays a number cell,
// read as the file's other numbers are, with its format. It reports false,
// leaving the edit to EditCell, for any other cell or text.
func (s *tableSource) editNumber(i int, c Column, text string) (bool, error) {
	cell, ok := s.cellOf(i, c)
	if !ok || !storedNumber(s.im.Table, cell) || !storedForm(text) {
		return false, nil
	}
	row := s.res().Elements[i].Row
	r := &s.im.Table.Rows[s.im.Table.RowIndex(row)]
	for len(r.Cells) <= c.Index {
		r.Cells = append(r.Cells, ingest.Cell{})
	}
	r.Cells[c.Index] = ingest.Cell{Kind: ingest.Number, Value: text, Format: cell.Format}
	_, err := s.im.RebuildRow(row)
	return true, err
}

// storedForm reports whether text is a number as a spreadsheet stores
// it: 1234.56, -5, 12500 (no groups, no exponent).
func storedForm(text string) bool {
	if strings.Trim(text, "-.0123456789") != "" {
		return false
	}
	_, err := strconv.ParseFloat(text, 64)
	return err == nil && !strings.HasPrefix(text, ".") && !strings.HasSuffix(text, ".")
}
