package workbook

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/xuri/excelize/v2"
)

// quotedText writes text into a workbook so that no spreadsheet program
// takes it for a formula: a value that begins like one (see app/inert) is
// a string cell whose style has quotePrefix set, as a cell typed with a
// leading apostrophe is. The value itself is unchanged, so it reads back
// exactly. Every string cell of every workbook goes through it.
//
// excelize's Style has no quotePrefix: a quoted style is a copy of the
// cell's style in the workbook's cellXfs with the attribute set. The copy
// comes after its original, so excelize, which looks styles up from the
// first, never hands it out for a NewStyle of the same look.
type quotedText struct {
	f *excelize.File
	// styles maps a style to its quoted copy; quoted holds the copies.
	styles map[int]int
	quoted map[int]bool
}

func newQuotedText(f *excelize.File) *quotedText {
	return &quotedText{f: f, styles: map[int]int{}, quoted: map[int]bool{}}
}

// quotedStyle returns the style base with quotePrefix set.
func (q *quotedText) quotedStyle(base int) (int, error) {
	if q.quoted[base] {
		return base, nil
	}
	if id, ok := q.styles[base]; ok {
		return id, nil
	}
	if q.f.Styles == nil || q.f.Styles.CellXfs == nil || base < 0 || base >= len(q.f.Styles.CellXfs.Xf) {
		return 0, fmt.Errorf("no cell style %d to quote", base)
	}
	xfs := q.f.Styles.CellXfs
	xf := xfs.Xf[base]
	on := true
	xf.QuotePrefix = &on
	xfs.Xf = append(xfs.Xf, xf)
	xfs.Count = len(xfs.Xf)
	id := len(xfs.Xf) - 1
	q.styles[base], q.quoted[id] = id, true
	return id, nil
}

// setStr writes text v into a cell, quoted when it begins like a formula.
func (q *quotedText) setStr(sheet, cell, v string) error {
	if err := q.f.SetCellStr(sheet, cell, v); err != nil {
		return err
	}
	if !inert.Formula(v) {
		return nil
	}
	base, err := q.f.GetCellStyle(sheet, cell)
	if err != nil {
		return err
	}
	id, err := q.quotedStyle(base)
	if err != nil {
		return err
	}
	return q.f.SetCellStyle(sheet, cell, cell, id)
}

// setStyle gives a cell a style, keeping quotePrefix on a quoted cell.
func (q *quotedText) setStyle(sheet, cell string, style int) error {
	cur, err := q.f.GetCellStyle(sheet, cell)
	if err != nil {
		return err
	}
	if q.quoted[cur] {
		if style, err = q.quotedStyle(style); err != nil {
			return err
		}
	}
	return q.f.SetCellStyle(sheet, cell, cell, style)
}

// setRow writes values in a row from column A, as SetSheetRow does, the
// text quoted where it begins like a formula.
func (q *quotedText) setRow(sheet string, row int, values []any) error {
	for i, v := range values {
		cell, err := excelize.CoordinatesToCellName(i+1, row)
		if err != nil {
			return err
		}
		if s, ok := v.(string); ok {
			err = q.setStr(sheet, cell, s)
		} else {
			err = q.f.SetCellValue(sheet, cell, v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rowValues returns values for a stream writer's row whose cells have
// style base: text that begins like a formula becomes a Cell with the
// quoted style.
func (q *quotedText) rowValues(values []any, base int) ([]any, error) {
	var out []any
	for i, v := range values {
		s, ok := v.(string)
		if !ok || !inert.Formula(s) {
			continue
		}
		id, err := q.quotedStyle(base)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = append([]any(nil), values...)
		}
		out[i] = excelize.Cell{StyleID: id, Value: s}
	}
	if out == nil {
		return values, nil
	}
	return out, nil
}
