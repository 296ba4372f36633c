package xlsx

import (
	"errors"
	"fmt"
	"strconv"
)

// CellType is what a cell holds, as the file stores it.
type CellType uint8

const (
	// Number cells hold a decimal number as the file writes it ("1050",
	// "12.34", "1.2345678901234568E+18"); dates are numbers too, told apart
	// by their number format.
	Number CellType = iota
	// String cells hold text (shared, inline or a formula's text result).
	String
	// Bool cells hold "1" or "0".
	Bool
	// Error cells hold an error value such as "#N/A" or "#DIV/0!".
	Error
	// Date cells hold an ISO 8601 date or time (rare: "t=d" cells).
	Date
)

// A Cell is one non-empty cell of a row, or a formula cell without a value.
type Cell struct {
	// Col is the 0-based column index (A is 0).
	Col   int
	Type  CellType
	Value string
	// Style indexes the workbook's cell styles; see Workbook.NumberFormat.
	Style int
	// Formula is set when the cell is computed; Cached tells whether the
	// file carries the last computed value.
	Formula bool
	Cached  bool
	// FormulaText is the formula as written, when the cell has its own.
	FormulaText string
}

// A Row is one row of a sheet with its non-empty cells in column order.
type Row struct {
	// Number is the 1-based row number.
	Number int
	Hidden bool
	Cells  []Cell
}

// A Range is a rectangle of cells, 0-based and inclusive.
type Range struct{ FirstCol, FirstRow, LastCol, LastRow int }

// SheetExtras is what a sheet says about its cells besides their values.
type SheetExtras struct {
	// Merged lists the merged ranges; only their top-left cell holds a value.
	Merged []Range
	// HiddenCols lists hidden columns, 0-based.
	HiddenCols []int
}

// Limits of one sheet, as Excel has them.
const (
	MaxRows    = 1 << 20
	MaxColumns = 1 << 14
)

// errStop ends a sheet scan early without error.
var errStop = errors.New("stop")

// ReadSheet streams the rows of sheet i to visit, in file order. The Row
// and its Cells are reused between calls: copy what must outlive the call.
// visit may return an error to stop reading, which ReadSheet returns.
func (w *Workbook) ReadSheet(i int, visit func(*Row) error) (*SheetExtras, error) {
	if i < 0 || i >= len(w.Sheets) {
		return nil, fmt.Errorf("no sheet %d", i)
	}
	sh := w.Sheets[i]
	if sh.Chart {
		return &SheetExtras{}, nil
	}
	rc, err := w.open(sh.part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := sheetReader{w: w, s: newScanner(rc), visit: visit}
	if err := r.run(); err != nil {
		if err == errStop {
			return &r.extras, nil
		}
		return nil, fmt.Errorf("sheet %q: %w", sh.Name, err)
	}
	return &r.extras, nil
}

// HasCells reports whether sheet i holds at least one value, reading only
// as far as the first one.
func (w *Workbook) HasCells(i int) (bool, error) {
	found := false
	_, err := w.ReadSheet(i, func(r *Row) error {
		for _, c := range r.Cells {
			if c.Value != "" {
				found = true
				return errStop
			}
		}
		return nil
	})
	return found, err
}

type sheetReader struct {
	w      *Workbook
	s      *scanner
	visit  func(*Row) error
	row    Row
	extras SheetExtras

	inData, inRow, inCell bool
	cell                  Cell
	cellType              []byte
	// in names the element whose text is being collected: 'v' for <v>,
	// 't' for <t> inside <is>, 'f' for <f>.
	in       byte
	inIS     bool
	phonetic int
	hasValue bool
	text     []byte
	lastCol  int
}

func (r *sheetReader) run() error {
	s := r.s
	for {
		if err := s.next(); err != nil {
			return err
		}
		switch s.kind {
		case tokEOF:
			if r.inData {
				return errors.New("the sheet's XML ends in the middle of its cells")
			}
			return nil
		case tokStart:
			if err := r.start(); err != nil {
				return err
			}
		case tokEnd:
			if err := r.end(); err != nil {
				return err
			}
		case tokText:
			if r.in != 0 && r.phonetic == 0 {
				r.text = appendDecoded(r.text, s.text)
			}
		}
	}
}

func (r *sheetReader) start() error {
	s := r.s
	name := string(s.name)
	switch {
	case name == "sheetData":
		r.inData = !s.selfClosing
	case name == "row" && r.inData:
		n := r.row.Number + 1
		if v, ok := attr(s.attrs, "r"); ok {
			var err error
			if n, err = strconv.Atoi(string(v)); err != nil || n < 1 || n > MaxRows {
				return fmt.Errorf("row %d: bad row number %q", r.row.Number+1, v)
			}
		}
		if n <= r.row.Number {
			return fmt.Errorf("row %d comes after row %d: the sheet's rows are out of order", n, r.row.Number)
		}
		r.row.Number = n
		h, _ := attr(s.attrs, "hidden")
		r.row.Hidden = string(h) == "1" || string(h) == "true"
		r.row.Cells = r.row.Cells[:0]
		r.lastCol = -1
		r.inRow = true
		if s.selfClosing {
			return r.endRow()
		}
	case name == "c" && r.inRow:
		col := r.lastCol + 1
		if v, ok := attr(s.attrs, "r"); ok {
			c, _, err := ParseRef(string(v))
			if err != nil {
				return fmt.Errorf("row %d: bad cell reference %q", r.row.Number, v)
			}
			col = c
		}
		if col <= r.lastCol || col >= MaxColumns {
			return fmt.Errorf("row %d: cell %s is out of order", r.row.Number, ColumnName(col))
		}
		r.lastCol = col
		r.cell = Cell{Col: col}
		if v, ok := attr(s.attrs, "s"); ok {
			r.cell.Style, _ = strconv.Atoi(string(v))
		}
		t, _ := attr(s.attrs, "t")
		r.cellType = append(r.cellType[:0], t...)
		r.hasValue, r.inIS, r.text = false, false, r.text[:0]
		r.inCell = true
		if s.selfClosing {
			return r.endCell()
		}
	case !r.inCell:
		if name == "mergeCell" {
			if rg, err := parseRange(attrString(s.attrs, "ref")); err == nil {
				r.extras.Merged = append(r.extras.Merged, rg)
			}
		} else if name == "col" {
			r.hiddenCols()
		}
	case name == "v":
		r.hasValue = true
		if !s.selfClosing {
			r.in, r.text = 'v', r.text[:0]
		}
	case name == "f":
		r.cell.Formula = true
		if !s.selfClosing {
			r.in, r.text = 'f', r.text[:0]
		}
	case name == "is":
		r.inIS, r.hasValue, r.text = true, true, r.text[:0]
	case name == "t" && r.inIS && !s.selfClosing:
		r.in = 't'
	case name == "rPh":
		r.phonetic++
	}
	return nil
}

func (r *sheetReader) end() error {
	switch string(r.s.name) {
	case "sheetData":
		r.inData = false
	case "row":
		if r.inRow {
			return r.endRow()
		}
	case "c":
		if r.inCell {
			return r.endCell()
		}
	case "v":
		if r.in == 'v' {
			r.cell.Value = string(r.text)
			r.in = 0
		}
	case "f":
		if r.in == 'f' {
			r.cell.FormulaText = string(r.text)
			r.text = r.text[:0]
			r.in = 0
		}
	case "t":
		if r.in == 't' {
			r.in = 0 // keep collecting runs of the inline string
		}
	case "is":
		r.inIS = false
		r.cell.Value = unescapeOOXML(string(r.text))
	case "rPh":
		r.phonetic--
	}
	return nil
}

func (r *sheetReader) endCell() error {
	r.inCell, r.in = false, 0
	c := &r.cell
	c.Cached = r.hasValue
	switch string(r.cellType) {
	case "s":
		idx, err := strconv.Atoi(c.Value)
		if err != nil || idx < 0 || idx >= len(r.w.strings) {
			if !r.hasValue {
				break
			}
			return fmt.Errorf("cell %s%d: shared string %q does not exist", ColumnName(c.Col), r.row.Number, c.Value)
		}
		c.Type, c.Value = String, r.w.strings[idx]
	case "inlineStr", "str":
		c.Type = String
		c.Value = unescapeOOXML(c.Value)
	case "b":
		c.Type = Bool
	case "e":
		c.Type = Error
	case "d":
		c.Type = Date
	default:
		c.Type = Number
	}
	if c.Value == "" && !c.Formula {
		return nil // a styled empty cell
	}
	r.row.Cells = append(r.row.Cells, *c)
	return nil
}

func (r *sheetReader) endRow() error {
	r.inRow = false
	if len(r.row.Cells) == 0 && !r.row.Hidden {
		return nil
	}
	return r.visit(&r.row)
}

func (r *sheetReader) hiddenCols() {
	a := r.s.attrs
	if h := attrString(a, "hidden"); h != "1" && h != "true" {
		return
	}
	lo, err1 := strconv.Atoi(attrString(a, "min"))
	hi, err2 := strconv.Atoi(attrString(a, "max"))
	if err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return
	}
	for c := lo; c <= min(hi, lo+255); c++ {
		r.extras.HiddenCols = append(r.extras.HiddenCols, c-1)
	}
}

// ParseRef splits a cell reference such as "AB12" into its 0-based column
// and 1-based row. A reference without digits gives row 0.
func ParseRef(ref string) (col, row int, err error) {
	i := 0
	col = 0
	for i < len(ref) {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a'+1)
		if col > MaxColumns {
			return 0, 0, fmt.Errorf("bad cell reference %q", ref)
		}
		i++
	}
	if i == 0 {
		return 0, 0, fmt.Errorf("bad cell reference %q", ref)
	}
	if i < len(ref) {
		row, err = strconv.Atoi(ref[i:])
		if err != nil || row < 1 {
			return 0, 0, fmt.Errorf("bad cell reference %q", ref)
		}
	}
	return col - 1, row, nil
}

func parseRange(ref string) (Range, error) {
	a, b, ok := cut(ref, ':')
	if !ok {
		b = a
	}
	c1, r1, err := ParseRef(a)
	if err != nil {
		return Range{}, err
	}
	c2, r2, err := ParseRef(b)
	if err != nil {
		return Range{}, err
	}
	return Range{FirstCol: min(c1, c2), FirstRow: min(r1, r2), LastCol: max(c1, c2), LastRow: max(r1, r2)}, nil
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// ColumnName returns the letters of a 0-based column index: 0 is "A", 26 is
// "AA".
func ColumnName(col int) string {
	if col < 0 {
		return "?"
	}
	var b [4]byte
	i := len(b)
	for col >= 0 && i > 0 {
		i--
		b[i] = byte('A' + col%26)
		col = col/26 - 1
	}
	return string(b[i:])
}
