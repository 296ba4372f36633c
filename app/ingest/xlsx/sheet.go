package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/inert"
)

// CellType is what a cell holds, as the file stores it.
type CellType uint8

const (
	// Number cells hold a decimal number as the file writes it ("1050",
	// "12.34", "1.2345678901234568E+18"); dates are numbers too, told apart
	// by their number format. A cell stored as a number whose value is not
	// one is read as String.
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
	// NumberText marks a String cell that the file stores as a number.
	NumberText bool
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
	r := sheetReader{w: w, s: w.newScanner(rc), visit: visit}
	defer w.release(r.s)
	if err := r.run(); err != nil {
		if err == errStop {
			return &r.extras, nil
		}
		return nil, fmt.Errorf("sheet %q: %w", sh.Name, err)
	}
	return &r.extras, nil
}

// Dimension returns the number of rows sheet i declares it spans (its
// <dimension> element), reading only the start of the sheet; 0 when it
// declares none. It is a hint for allocating, not a promise.
func (w *Workbook) Dimension(i int) int {
	rg, _ := w.dimension(i)
	return rg.LastRow
}

// A SizeHint is what a sheet declares it holds, for allocating: its
// <dimension>, bounded by what the size of its XML can hold, so that a
// small hostile file cannot make the reader allocate much.
type SizeHint struct {
	// LastRow is the number of the last row, as Dimension returns it.
	LastRow int
	// Rows is the number of rows, and Cells the number of cells of rows
	// read from column A to their last cell.
	Rows, Cells int
}

// Shortest XML a row and a cell with a value take: <row><c><v>1</v></c></row>.
const minRowXML, minCellXML = 25, 15

// SizeHint returns the size sheet i declares, all zero when it declares
// none.
func (w *Workbook) SizeHint(i int) SizeHint {
	rg, ok := w.dimension(i)
	if !ok {
		return SizeHint{}
	}
	size := int64(w.file(w.Sheets[i].part).UncompressedSize64)
	rows := int64(rg.LastRow - rg.FirstRow + 1)
	rows = min(rows, max(size, 0)/minRowXML)
	cells := min(rows*int64(rg.LastCol+1), max(size, 0)/minCellXML)
	return SizeHint{LastRow: rg.LastRow, Rows: int(rows), Cells: int(cells)}
}

// dimension reads the range sheet i declares it spans.
func (w *Workbook) dimension(i int) (Range, bool) {
	if i < 0 || i >= len(w.Sheets) || w.Sheets[i].Chart {
		return Range{}, false
	}
	rc, err := w.open(w.Sheets[i].part)
	if err != nil {
		return Range{}, false
	}
	defer rc.Close()
	s := w.newScanner(rc)
	defer w.release(s)
	for s.next() == nil && s.kind != tokEOF {
		if s.kind != tokStart {
			continue
		}
		switch string(s.name) {
		case "dimension":
			rg, err := parseRange(attrString(s.attrs, "ref"))
			return rg, err == nil && rg.LastRow > 0
		case "sheetData":
			return Range{}, false
		}
	}
	return Range{}, false
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
	// values holds the text of cells that are not shared strings.
	values   textArena
	decoded  []byte
	lastCol  int
	sIndex   int
	sIndexOK bool
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
	name := s.name
	switch {
	case string(name) == "sheetData":
		r.inData = !s.selfClosing
	case string(name) == "row" && r.inData:
		return r.startRow()
	case string(name) == "c" && r.inRow:
		return r.startCell()
	case !r.inCell:
		if string(name) == "mergeCell" {
			if rg, err := parseRange(attrString(s.attrs, "ref")); err == nil {
				r.extras.Merged = append(r.extras.Merged, rg)
			}
		} else if string(name) == "col" {
			r.hiddenCols()
		}
	case string(name) == "v":
		r.hasValue = true
		if !s.selfClosing {
			r.in, r.text = 'v', r.text[:0]
		}
	case string(name) == "f":
		r.cell.Formula = true
		if !s.selfClosing {
			r.in, r.text = 'f', r.text[:0]
		}
	case string(name) == "is":
		r.inIS, r.hasValue, r.text = true, true, r.text[:0]
	case string(name) == "t" && r.inIS && !s.selfClosing:
		r.in = 't'
	case string(name) == "rPh":
		r.phonetic++
	}
	return nil
}

func (r *sheetReader) startRow() error {
	s := r.s
	n := r.row.Number + 1
	r.row.Hidden = false
	for it := (attrIter{b: s.attrs}); ; {
		key, val, ok := it.next()
		if !ok {
			break
		}
		switch string(key) {
		case "r":
			v, ok := atoi(val)
			if !ok || v < 1 || v > MaxRows {
				return fmt.Errorf("row %d: bad row number %q", r.row.Number+1, val)
			}
			n = v
		case "hidden":
			r.row.Hidden = string(val) == "1" || string(val) == "true"
		}
	}
	if n <= r.row.Number {
		return fmt.Errorf("row %d comes after row %d: the sheet's rows are out of order", n, r.row.Number)
	}
	r.row.Number = n
	r.row.Cells = r.row.Cells[:0]
	r.lastCol = -1
	r.inRow = true
	if s.selfClosing {
		return r.endRow()
	}
	return nil
}

func (r *sheetReader) startCell() error {
	s := r.s
	col := r.lastCol + 1
	r.cell = Cell{Col: col}
	r.cellType = r.cellType[:0]
	for it := (attrIter{b: s.attrs}); ; {
		key, val, ok := it.next()
		if !ok {
			break
		}
		switch string(key) {
		case "r":
			c, _, ok := refParts(val)
			if !ok {
				return fmt.Errorf("row %d: bad cell reference %q", r.row.Number, val)
			}
			col = c
		case "s":
			r.cell.Style, _ = atoi(val)
		case "t":
			r.cellType = append(r.cellType, val...)
		}
	}
	if col <= r.lastCol || col >= MaxColumns {
		return fmt.Errorf("row %d: cell %s is out of order", r.row.Number, ColumnName(col))
	}
	r.lastCol = col
	r.cell.Col = col
	r.hasValue, r.inIS, r.text, r.sIndexOK = false, false, r.text[:0], false
	r.inCell = true
	if s.selfClosing {
		return r.endCell()
	}
	if v, ok := s.cellValue(); ok {
		r.hasValue = true
		if string(r.cellType) == "s" {
			r.sIndex, r.sIndexOK = atoi(v)
			if !r.sIndexOK {
				r.cell.Value = r.value(v)
			}
		} else {
			r.cell.Value = r.value(v)
		}
		return r.endCell()
	}
	return nil
}

// value returns a cell's raw text with its entities decoded, kept in the
// sheet's text blocks.
func (r *sheetReader) value(raw []byte) string {
	if bytes.IndexByte(raw, '&') < 0 {
		return r.values.add(raw)
	}
	r.decoded = appendDecoded(r.decoded[:0], raw)
	return r.values.add(r.decoded)
}

// attrIter walks the attributes of a start tag without allocating.
type attrIter struct{ b []byte }

func (it *attrIter) next() (key, val []byte, ok bool) {
	b := it.b
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	ks := i
	for i < len(b) && b[i] != '=' && !isSpace(b[i]) {
		i++
	}
	key = localName(b[ks:i])
	for i < len(b) && (isSpace(b[i]) || b[i] == '=') {
		i++
	}
	if i >= len(b) || (b[i] != '"' && b[i] != '\'') {
		it.b = nil
		return nil, nil, false
	}
	q := b[i]
	i++
	vs := i
	for i < len(b) && b[i] != q {
		i++
	}
	val = b[vs:min(i, len(b))]
	it.b = b[min(i+1, len(b)):]
	return key, val, true
}

// atoi parses a small non-negative decimal number.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// refParts splits a cell reference such as "AB12" into its 0-based
// column and the digits of its row, which may be empty.
func refParts(ref []byte) (col int, row []byte, ok bool) {
	i := 0
	for i < len(ref) {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a'+1)
		if col > MaxColumns {
			return 0, nil, false
		}
		i++
	}
	if i == 0 {
		return 0, nil, false
	}
	if i < len(ref) {
		if n, ok := atoi(ref[i:]); !ok || n < 1 || n > MaxRows {
			return 0, nil, false
		}
	}
	return col - 1, ref[i:], true
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
			if string(r.cellType) == "s" {
				// A shared string's index: resolved in endCell without
				// making a string of it.
				r.sIndex, r.sIndexOK = atoi(r.text)
				if !r.sIndexOK {
					r.cell.Value = r.values.add(r.text)
				}
			} else {
				r.cell.Value = r.values.add(r.text)
			}
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
		r.decoded = appendUnescapedOOXML(r.decoded[:0], r.text)
		r.cell.Value = r.values.add(r.decoded)
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
		if !r.hasValue {
			c.Type = String
			break
		}
		v, ok := r.w.strings.get(r.sIndex)
		if !r.sIndexOK || !ok {
			return fmt.Errorf("cell %s%d: shared string %q does not exist", ColumnName(c.Col), r.row.Number, c.Value)
		}
		c.Type, c.Value = String, v
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
		// A cell without a type, or t="n", is a number only when it holds
		// one: a file can put any text in its <v>, and "=HYPERLINK(…)"
		// taken for a number would skip every check of text and reach the
		// operator's exports as it is. It is the text it holds.
		// (XML Schema lets a number have spaces around it.)
		c.Type = Number
		if n := strings.Trim(c.Value, " \t\r\n"); inert.Number(n) {
			c.Value = n
		} else if c.Value != "" {
			c.Type, c.NumberText = String, true
		}
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
	col, rowText, ok := refParts([]byte(ref))
	if !ok {
		return 0, 0, fmt.Errorf("bad cell reference %q", ref)
	}
	if len(rowText) > 0 {
		row, _ = atoi(rowText)
	}
	return col, row, nil
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
