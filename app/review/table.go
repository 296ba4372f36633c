package review

import (
	"fmt"
	"maps"
	"slices"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// FromImport returns the Document of a built import: its rows are the
// elements, its mapped columns the review table's columns. The Document
// takes the import over: edits go through it (Import.EditCell). Each
// element is also given to pass, if any, as the Document reads them.
func FromImport(im *ingest.Import, backOffice bool, fileName string, pass ...FirstPass) (*Document, error) {
	if im.Result() == nil {
		return nil, fmt.Errorf("the import of %s is not built", fileName)
	}
	return newDocument(im.Kind, backOffice, fileName, &tableSource{im: im}, im.Language(), pass...), nil
}

// tableSource reads a Document's elements from the rows of a table.
type tableSource struct {
	im *ingest.Import
}

func (s *tableSource) res() *ingest.Result { return s.im.Result() }

func (s *tableSource) count() int { return len(s.res().Elements) }

func (s *tableSource) value(i int) any { return s.res().Value(i) }

func (s *tableSource) eachValue(f func(i int, v any)) {
	s.res().EachValue(func(i int, v map[string]any) { f(i, v) })
}

func (s *tableSource) origin(i int) (string, int) {
	return s.im.Table.Sheet, s.res().Elements[i].Row
}

func (s *tableSource) report() *schema.Report { return s.res().Report }

func (s *tableSource) tabular() bool { return true }

func (s *tableSource) columns() []Column {
	required := make(map[string]bool)
	for _, t := range s.im.Targets() {
		required[t.Path] = t.Required
	}
	m := s.im.Mapping()
	var cols []Column
	for _, c := range m.Mapped() {
		cols = append(cols, Column{
			Letter:   s.im.Table.ColumnName(c.Column),
			Index:    c.Column,
			Header:   c.Header,
			Field:    c.Field,
			Required: required[c.Field],
		})
	}
	// The values set for every row follow, each a column of its own.
	for _, field := range slices.Sorted(maps.Keys(m.Values)) {
		cols = append(cols, Column{Index: -1, Header: field, Field: field, Required: required[field], Set: true, Value: m.Values[field]})
	}
	return cols
}

func (s *tableSource) cell(i int, c Column) string {
	if c.Set {
		return c.Value
	}
	t := s.im.Table
	ri := t.RowIndex(s.res().Elements[i].Row)
	if ri < 0 {
		return ""
	}
	return t.Display(t.Rows[ri].Cell(c.Index))
}

func (s *tableSource) edit(i int, c Column, text string) error {
	if done, err := s.editNumber(i, c, text); done {
		return err
	}
	_, err := s.im.EditCell(s.res().Elements[i].Row, c.Index, text)
	return err
}

// rebuildAll is how many changed rows make editMany build the whole table
// again rather than row by row: each row's rebuild also reassembles the
// report, which costs as much as the table has problems.
const rebuildAll = 64

func (s *tableSource) editMany(edits []cellEdit) error {
	if len(edits) <= rebuildAll {
		for _, e := range edits {
			if err := s.edit(e.element, e.column, e.text); err != nil {
				return err
			}
		}
		return nil
	}
	rows := make([]int, len(edits))
	for k, e := range edits {
		rows[k] = s.res().Elements[e.element].Row
	}
	for k, e := range edits {
		if !s.im.Table.SetCell(rows[k], e.column.Index, e.text) {
			return fmt.Errorf("the sheet has no cell %s%d", e.column.Letter, rows[k])
		}
	}
	s.im.Build(nil)
	return nil
}

func (s *tableSource) readAs() string {
	t, w := s.im.Table, s.im.Language()
	where := w.F("header row %d", s.im.Mapping().HeaderRow)
	if t.Sheet != "" && t.Format == ingest.XLSX {
		where = w.F("sheet %s, %s", t.Sheet, where)
	}
	return w.F("%s; %s", where, s.im.Settings().In(w))
}
