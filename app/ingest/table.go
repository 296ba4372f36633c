package ingest

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// CellKind is what a cell holds, as its file stores it.
type CellKind uint8

const (
	// Blank is an empty cell.
	Blank CellKind = iota
	// Text is text: every CSV cell, and spreadsheet cells stored as text.
	Text
	// Number is a number as the file writes it: "1050", "12.34",
	// "1.2345678901234568E+18". A spreadsheet date is a Number whose
	// format is a date format.
	Number
	// Bool is a spreadsheet or JSON boolean: Value is "TRUE" or "FALSE".
	Bool
	// ErrorValue is a spreadsheet error such as "#N/A".
	ErrorValue
	// DateText is an ISO 8601 date the spreadsheet stores as such.
	DateText
)

// CellFlags say how a cell came to hold its value.
type CellFlags uint8

const (
	// Formula marks a computed cell; Value is its last computed result.
	Formula CellFlags = 1 << iota
	// NoCachedValue marks a formula whose result the file does not carry.
	NoCachedValue
	// MergedPart marks a cell covered by a merged range other than its
	// top-left cell: it shows the range's value but holds none.
	MergedPart
	// NumberText marks a text cell that its file stores as a number.
	NumberText
)

// A Cell is one cell of a table. Its fields are ordered to keep it at 24
// bytes: a sheet of 10,000 rows holds hundreds of thousands of them.
type Cell struct {
	Value string
	// Format indexes Table.Formats: the number format of a spreadsheet
	// cell, 0 for General.
	Format uint16
	Kind   CellKind
	Flags  CellFlags
}

// Empty reports whether the cell holds nothing an operator would see.
func (c Cell) Empty() bool { return c.Kind == Blank || strings.TrimSpace(c.Value) == "" }

// A Row is one row of a table.
type Row struct {
	// Number is the row's 1-based number in its file: the spreadsheet row,
	// the CSV record, or the item of a JSON array. Rows of a table are in
	// increasing order; empty rows may be missing.
	Number int
	Hidden bool
	Cells  []Cell
}

// Cell returns the cell in column col (0-based), blank when there is none.
func (r *Row) Cell(col int) Cell {
	if col < 0 || col >= len(r.Cells) {
		return Cell{}
	}
	return r.Cells[col]
}

// A Table is the grid of one sheet: a spreadsheet's worksheet, a CSV file,
// or a JSON array of flat objects.
//
// A table read from a file keeps its memory to a few large blocks: the
// rows' cells are slices of shared blocks of cells (each with no room to
// grow, so that a row that grows moves out), and their values share the
// text of a CSV file or blocks of a spreadsheet's strings. A value kept
// after the table is dropped keeps its block alive.
type Table struct {
	// File is the name of the file the table was read from.
	File string
	// Sheet names the table in locations: the worksheet's name, or for
	// CSV the file's name without its extension (as spreadsheets name the
	// sheet of a CSV file they open). JSON tables have none.
	Sheet  string
	Format Format
	Rows   []Row
	// Formats are the number format codes cells refer to; Formats[0] is
	// General ("").
	Formats  []string
	Date1904 bool
	// Merged lists merged ranges of a spreadsheet.
	Merged []xlsx.Range
	// Keyed is set for JSON tables: the first row holds the objects' keys,
	// and columns are named by key rather than by letter.
	Keyed bool
	// HiddenSheet is set when the sheet is hidden in its workbook.
	HiddenSheet bool
	// Notes are warnings about the file as a whole ("the .xlsx file is
	// really CSV text").
	Notes []string
	// Reading holds the decisions taken to read the file itself: its
	// encoding and delimiter, and the sheet chosen.
	Reading reading.Reading

	keys []string
	// w is the operator's language, in which what the table's reading
	// finds is said (the file's Options.Lang).
	w lang.Tag
	// template is the mark of the template the table was read from, if
	// it was (see templateFor).
	template *TemplateMark
}

// Width returns the number of columns of the widest row.
func (t *Table) Width() int {
	w := 0
	for i := range t.Rows {
		w = max(w, len(t.Rows[i].Cells))
	}
	return w
}

// ColumnName names column col (0-based) in locations: its letters, or for
// a JSON table its key.
func (t *Table) ColumnName(col int) string {
	if t.Keyed {
		if col >= 0 && col < len(t.keys) {
			return t.keys[col]
		}
		return "?"
	}
	return xlsx.ColumnName(col)
}

// RowIndex returns the index in Rows of the row numbered n, or -1.
func (t *Table) RowIndex(n int) int {
	lo, hi := 0, len(t.Rows)
	for lo < hi {
		m := (lo + hi) / 2
		if t.Rows[m].Number < n {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.Rows) && t.Rows[lo].Number == n {
		return lo
	}
	return -1
}

// NumberFormat returns the number format code of a cell.
func (t *Table) NumberFormat(c Cell) string {
	if int(c.Format) < len(t.Formats) {
		return t.Formats[c.Format]
	}
	return ""
}

// IsDate reports whether a number cell is shown as a date.
func (t *Table) IsDate(c Cell) bool {
	return c.Kind == Number && xlsx.IsDateFormat(t.NumberFormat(c))
}

// Display returns a cell's value as an operator recognises it: text as
// written, a date cell as YYYY-MM-DD (and HH:MM when it holds a time of
// day), a number padded as its format pads
// it ("000123"), other numbers as stored.
func (t *Table) Display(c Cell) string {
	if c.Kind != Number {
		return c.Value
	}
	if t.IsDate(c) {
		if w, err := serialMoment(c.Value, t.Date1904); err == nil {
			return w.String()
		}
		return c.Value
	}
	if n := zeroPad(t.NumberFormat(c)); n > len(c.Value) && allDigits(c.Value) {
		return strings.Repeat("0", n-len(c.Value)) + c.Value
	}
	return c.Value
}

// DisplayIn is Display for a message said in l: a date cell is written
// as l writes dates, "15.06.2027, 09:00" in German; Display keeps ISO
// 8601, which the review's table shows and reads back after an edit.
func (t *Table) DisplayIn(c Cell, l lang.Tag) string {
	if c.Kind == Number && t.IsDate(c) {
		if w, err := serialMoment(c.Value, t.Date1904); err == nil {
			return l.Date(w.utc(), w.hasTime)
		}
	}
	return t.Display(c)
}

// SetCell changes the cell at row number n, column col, to text typed by
// an operator, growing the row as needed. It reports false when the table
// has no row n.
func (t *Table) SetCell(n, col int, text string) bool {
	i := t.RowIndex(n)
	if i < 0 || col < 0 || col >= xlsx.MaxColumns {
		return false
	}
	r := &t.Rows[i]
	for len(r.Cells) <= col {
		r.Cells = append(r.Cells, Cell{})
	}
	kind := Text
	if text == "" {
		kind = Blank
	}
	r.Cells[col] = Cell{Kind: kind, Value: text}
	return true
}

// mergedRange returns the merged range that covers a cell, if any.
func (t *Table) mergedRange(col, row int) (xlsx.Range, bool) {
	for _, m := range t.Merged {
		if col >= m.FirstCol && col <= m.LastCol && row >= m.FirstRow && row <= m.LastRow {
			return m, true
		}
	}
	return xlsx.Range{}, false
}

// RangeName writes a merged range as "B4:B6".
func RangeName(m xlsx.Range) string {
	return xlsx.ColumnName(m.FirstCol) + itoa(m.FirstRow) + ":" + xlsx.ColumnName(m.LastCol) + itoa(m.LastRow)
}
