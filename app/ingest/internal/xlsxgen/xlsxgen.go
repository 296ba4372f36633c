// Package xlsxgen writes small xlsx workbooks cell by cell, for tests and
// benchmarks: each tricky case (formulas without cached values, merged
// cells, hidden rows, 1904 dates, rich text) is written exactly as Excel
// writes it, instead of being committed as a binary file.
package xlsxgen

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
)

// A Book is a workbook to write.
type Book struct {
	Sheets   []Sheet
	Date1904 bool
	// Formats are the number format codes of the cell styles 1, 2, …
	// (style 0 is General); a Cell's Style picks one.
	Formats []string
	// Builtin are the built-in number format ids of the cell styles that
	// follow Formats' (len(Formats)+1, …): Excel and exceljs refer to
	// "#,##0.00" (4) or a currency format (7, 8) by id without declaring
	// it.
	Builtin []int
	// Inline writes text as inline strings instead of shared strings.
	Inline bool
}

// A Sheet is one worksheet.
type Sheet struct {
	Name string
	// State is "", "hidden" or "veryHidden".
	State  string
	Rows   []Row
	Merged []string
	// RawData, when set, replaces the generated <sheetData> element.
	RawData string
}

// A Row is one row; a zero Number follows the previous row.
type Row struct {
	Number int
	Hidden bool
	Cells  []Cell
}

// A Cell is one cell; a zero Col follows the previous cell.
type Cell struct {
	Col     int // 1-based
	Type    string
	Value   string
	Formula string
	// NoValue writes a formula without its cached value.
	NoValue bool
	Style   int
}

// S is a text cell.
func S(v string) Cell { return Cell{Type: "s", Value: v} }

// N is a number cell, v as the file stores it.
func N(v string) Cell { return Cell{Value: v} }

// B is a boolean cell.
func B(v bool) Cell {
	if v {
		return Cell{Type: "b", Value: "1"}
	}
	return Cell{Type: "b", Value: "0"}
}

// Empty is a missing cell.
func Empty() Cell { return Cell{Type: "skip"} }

// Texts is a row of text cells.
func Texts(vs ...string) Row {
	r := Row{}
	for _, v := range vs {
		if v == "" {
			r.Cells = append(r.Cells, Empty())
			continue
		}
		r.Cells = append(r.Cells, S(v))
	}
	return r
}

// Bytes writes the workbook.
func (b Book) Bytes() []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name, content string) {
		w, err := zw.Create(name)
		if err != nil {
			panic(err)
		}
		w.Write([]byte(content))
	}
	var ct, wb, rels strings.Builder
	ct.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`)
	wb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
	if b.Date1904 {
		wb.WriteString(`<workbookPr date1904="1"/>`)
	}
	wb.WriteString(`<sheets>`)
	rels.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	sst := newStrings()
	for i, s := range b.Sheets {
		n := i + 1
		fmt.Fprintf(&ct, `<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, n)
		state := ""
		if s.State != "" {
			state = fmt.Sprintf(` state="%s"`, s.State)
		}
		fmt.Fprintf(&wb, `<sheet name="%s" sheetId="%d"%s r:id="rId%d"/>`, esc(s.Name), n, state, n)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, n, n)
		put(fmt.Sprintf("xl/worksheets/sheet%d.xml", n), b.sheetXML(s, sst))
	}
	k := len(b.Sheets)
	fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`, k+1)
	fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`, k+2)
	rels.WriteString(`</Relationships>`)
	wb.WriteString(`</sheets></workbook>`)
	ct.WriteString(`</Types>`)
	put("[Content_Types].xml", ct.String())
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	put("xl/workbook.xml", wb.String())
	put("xl/_rels/workbook.xml.rels", rels.String())
	put("xl/styles.xml", b.stylesXML())
	put("xl/sharedStrings.xml", sst.xml())
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func (b Book) sheetXML(s Sheet, sst *sharedStrings) string {
	var x strings.Builder
	x.Grow(64 * len(s.Rows) * 8)
	x.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
	// Excel writes the sheet's extent first.
	if s.RawData == "" && len(s.Rows) > 0 {
		last, width := 0, 0
		for _, r := range s.Rows {
			last++
			if r.Number > 0 {
				last = r.Number
			}
			width = max(width, len(r.Cells))
		}
		fmt.Fprintf(&x, `<dimension ref="A1:%s%d"/>`, colName(max(width, 1)-1), last)
	}
	x.WriteString(`<sheetViews><sheetView workbookViewId="0"/></sheetViews>`)
	if s.RawData != "" {
		x.WriteString(s.RawData)
	} else {
		x.WriteString(`<sheetData>`)
		rowNum := 0
		for _, r := range s.Rows {
			rowNum++
			if r.Number > 0 {
				rowNum = r.Number
			}
			hidden := ""
			if r.Hidden {
				hidden = ` hidden="1"`
			}
			fmt.Fprintf(&x, `<row r="%d"%s>`, rowNum, hidden)
			col := 0
			for _, c := range r.Cells {
				col++
				if c.Col > 0 {
					col = c.Col
				}
				if c.Type == "skip" {
					continue
				}
				b.cellXML(&x, c, col, rowNum, sst)
			}
			x.WriteString(`</row>`)
		}
		x.WriteString(`</sheetData>`)
	}
	if len(s.Merged) > 0 {
		fmt.Fprintf(&x, `<mergeCells count="%d">`, len(s.Merged))
		for _, m := range s.Merged {
			fmt.Fprintf(&x, `<mergeCell ref="%s"/>`, m)
		}
		x.WriteString(`</mergeCells>`)
	}
	x.WriteString(`</worksheet>`)
	return x.String()
}

func (b Book) cellXML(x *strings.Builder, c Cell, col, row int, sst *sharedStrings) {
	fmt.Fprintf(x, `<c r="%s%d"`, colName(col-1), row)
	if c.Style > 0 {
		fmt.Fprintf(x, ` s="%d"`, c.Style)
	}
	t, v := c.Type, c.Value
	if t == "s" && c.Formula != "" {
		t = "str"
	} else if t == "s" && b.Inline {
		t = "inlineStr"
	}
	if t != "" {
		fmt.Fprintf(x, ` t="%s"`, t)
	}
	x.WriteString(`>`)
	if c.Formula != "" {
		fmt.Fprintf(x, `<f>%s</f>`, esc(c.Formula))
	}
	switch {
	case c.NoValue:
	case t == "s":
		fmt.Fprintf(x, `<v>%d</v>`, sst.index(v))
	case t == "inlineStr":
		fmt.Fprintf(x, `<is><t xml:space="preserve">%s</t></is>`, esc(v))
	default:
		fmt.Fprintf(x, `<v>%s</v>`, esc(v))
	}
	x.WriteString(`</c>`)
}

func (b Book) stylesXML() string {
	var x strings.Builder
	x.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	if len(b.Formats) > 0 {
		fmt.Fprintf(&x, `<numFmts count="%d">`, len(b.Formats))
		for i, f := range b.Formats {
			fmt.Fprintf(&x, `<numFmt numFmtId="%d" formatCode="%s"/>`, 164+i, esc(f))
		}
		x.WriteString(`</numFmts>`)
	}
	x.WriteString(`<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>`)
	fmt.Fprintf(&x, `<cellXfs count="%d"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>`, len(b.Formats)+len(b.Builtin)+1)
	for i := range b.Formats {
		fmt.Fprintf(&x, `<xf numFmtId="%d" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`, 164+i)
	}
	for _, id := range b.Builtin {
		fmt.Fprintf(&x, `<xf numFmtId="%d" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`, id)
	}
	x.WriteString(`</cellXfs></styleSheet>`)
	return x.String()
}

type sharedStrings struct {
	list []string
	idx  map[string]int
}

func newStrings() *sharedStrings { return &sharedStrings{idx: make(map[string]int)} }

func (s *sharedStrings) index(v string) int {
	if i, ok := s.idx[v]; ok {
		return i
	}
	s.idx[v] = len(s.list)
	s.list = append(s.list, v)
	return len(s.list) - 1
}

func (s *sharedStrings) xml() string {
	var x strings.Builder
	fmt.Fprintf(&x, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, len(s.list), len(s.list))
	for _, v := range s.list {
		fmt.Fprintf(&x, `<si><t xml:space="preserve">%s</t></si>`, esc(v))
	}
	x.WriteString(`</sst>`)
	return x.String()
}

func esc(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\r':
			b.WriteString("_x000D_")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func colName(col int) string {
	s := ""
	for col >= 0 {
		s = string(rune('A'+col%26)) + s
		col = col/26 - 1
	}
	return s
}
