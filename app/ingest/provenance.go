package ingest

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// locate fills in where a problem of the element built from row n lies:
// the sheet, the row, and the column whose field the problem is about.
func (rd *reader) locate(p *schema.Problem, row int) {
	p.Sheet, p.Row = rd.Table.Sheet, row
	if col, ok := rd.columnOf(p.Pointer); ok {
		p.Column = rd.Table.ColumnName(col)
		return
	}
	if p.Code == "required" && p.Pointer != "" {
		p.Message = rd.v.Language().F("%s (no column of the file is mapped to it)", p.Message)
	}
}

// cellSubject names the field of a cell's problem as the operator sees
// it: the column's header and letter, "Betrag (column F)", or the field's
// path where the file has no header of its own for it (a value set for
// every row, a header that is the path itself, a JSON table's key).
func (rd *reader) cellSubject(col *column) string {
	if col.set || col.index < 0 || rd.Table.Keyed {
		return col.target.Path
	}
	for _, c := range rd.mapping.Columns {
		if c.Column != col.index {
			continue
		}
		// A template marks its required columns with a star.
		if h := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.Header), "*")); h != "" && h != col.target.Path {
			return rd.v.Language().F("%s (column %s)", h, c.Letter)
		}
		break
	}
	return col.target.Path
}

// columnOf returns the column that holds the value at a pointer: the one
// mapped to it, to a list holding it, or else the first one mapped inside
// it (for a problem about a whole object).
func (rd *reader) columnOf(ptr string) (int, bool) {
	if ptr == "" {
		return 0, false
	}
	best, bestLen := -1, -1
	for _, col := range rd.cols {
		if col.set {
			continue // a value set for every row has no column in the file
		}
		cp := col.target.Pointer()
		if cp == ptr {
			return col.index, true
		}
		if strings.HasPrefix(ptr, cp+"/") && len(cp) > bestLen {
			best, bestLen = col.index, len(cp)
		}
	}
	if best >= 0 {
		return best, true
	}
	first := -1
	for _, col := range rd.cols {
		if !col.set && strings.HasPrefix(col.target.Pointer(), ptr+"/") && (first < 0 || col.index < first) {
			first = col.index
		}
	}
	return first, first >= 0
}

// fileProblems are the warnings about the file and the mapping: notes
// from reading, a hidden sheet, formulas, columns not imported.
func (rd *reader) fileProblems() []schema.Problem {
	t := rd.Table
	w := rd.v.Language()
	var out []schema.Problem
	file := func(code, msg string) schema.Problem {
		return schema.Problem{Element: schema.RequestLevel, Code: code, Message: msg, Severity: schema.Warning, Sheet: t.Sheet}
	}
	for _, n := range t.Notes {
		out = append(out, file("file", n))
	}
	if t.HiddenSheet {
		out = append(out, file("hidden-sheet", w.F("sheet %q is hidden in the workbook", t.Sheet)))
	}
	for _, c := range rd.mapping.Unmapped() {
		p := file("unmapped-column", "")
		p.Column, p.Row = c.Letter, rd.mapping.HeaderRow
		what := w.F("column %s (%q)", c.Letter, c.Header)
		if c.Header == "" {
			what = w.F("column %s, which has no header,", c.Letter)
		}
		if t.Keyed {
			what = w.F("key %q", c.Header)
		}
		p.Message = w.F("%s is not imported: map it to a field if it holds one", what)
		if len(c.Suggestions) > 0 {
			p.Message = w.F("%s is not imported: map it to a field if it holds one (perhaps %s)", what, strings.Join(c.Suggestions, ", "))
		}
		out = append(out, p)
	}
	totals := rd.totalRowsFrom()
	for _, col := range rd.cols {
		n := 0
		for i := range t.Rows[:totals] {
			r := &t.Rows[i]
			if r.Number > rd.mapping.HeaderRow && r.Cell(col.index).Flags&(Formula|NoCachedValue) == Formula {
				n++
			}
		}
		if n > 0 {
			p := file("formula", w.F("column %s (%s) holds formulas in %s: their last calculated values are used, as the file saved them", t.ColumnName(col.index), col.target.Path, w.Plural(n, "cell", "cells")))
			p.Column = t.ColumnName(col.index)
			out = append(out, p)
		}
	}
	return out
}

// requestProblems are the problems of the request as a whole: no
// elements, or more than one bulk holds.
func (rd *reader) requestProblems(n int) []schema.Problem {
	req := func(code, msg string) schema.Problem {
		return schema.Problem{Element: schema.RequestLevel, Code: code, Message: msg, Severity: schema.Error, Sheet: rd.Table.Sheet}
	}
	w := rd.v.Language()
	switch {
	case n == 0 && len(rd.cols) == 0:
		return []schema.Problem{req("empty", w.F("no column of the file is mapped to a field of %s: map the columns, or check the header row", rd.Kind.ID))}
	case n == 0:
		return []schema.Problem{req("empty", w.F("there are no rows of values below the header (row %d): a bulk needs 1 to %s elements", rd.mapping.HeaderRow, w.Count(schema.MaxElements)))}
	case n > schema.MaxElements:
		parts := (n + schema.MaxElements - 1) / schema.MaxElements
		return []schema.Problem{req(schema.TooManyElements, w.F("the file holds %s elements; a bulk takes at most %s: split it into %d bulks", w.Count(n), w.Count(schema.MaxElements), parts))}
	}
	return nil
}

// Where names a problem's place for people: "Transfers!F14" for a cell,
// "'Pay run'!F14" for a sheet name with spaces, "row 14" or "column F"
// when only one is known, "item 3, amount" in a JSON table, "" when the
// problem has no place in the file.
func Where(p schema.Problem) string { return WhereIn(p, lang.English) }

// WhereIn is Where in w's words: "Transfers!F14", "Zeile 14".
func WhereIn(p schema.Problem, w lang.Tag) string {
	sheet := p.Sheet
	if sheet != "" && strings.IndexFunc(sheet, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) >= 0 {
		sheet = "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
	}
	letters := p.Column != "" && strings.IndexFunc(p.Column, func(r rune) bool { return r < 'A' || r > 'Z' }) < 0
	switch {
	case sheet == "" && p.Row > 0 && p.Column != "":
		return w.F("item %d, %s", p.Row, p.Column)
	case sheet == "" && p.Row > 0:
		return w.F("item %d", p.Row)
	case sheet == "" && p.Column != "":
		return p.Column
	case p.Row > 0 && letters:
		return fmt.Sprintf("%s!%s%d", sheet, p.Column, p.Row)
	case p.Row > 0:
		return w.F("%s row %d", sheet, p.Row)
	case letters:
		return w.F("%s column %s", sheet, p.Column)
	}
	return ""
}
