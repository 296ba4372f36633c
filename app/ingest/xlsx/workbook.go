// Package xlsx reads the cells of Office Open XML workbooks (.xlsx, .xlsm)
// quickly and with little memory: it streams each sheet's XML out of the
// zip archive through a lean tokenizer and hands over raw cell values
// (shared strings resolved, numbers as stored, the number format of each
// cell), leaving their interpretation to the caller. Values share a few
// large blocks of text (the shared strings, and the values a sheet writes
// in its cells) rather than taking an allocation each.
//
// It is the reading half only; writing is left to excelize. Everything is
// in memory and pure Go, so it runs unchanged under WebAssembly.
package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// Limits bound what a workbook may make the reader do, so that a zip bomb
// or a hostile file is refused instead of exhausting memory or time.
type Limits struct {
	// MaxPartBytes is the most one part (a sheet's XML, the shared
	// strings) may hold once decompressed.
	MaxPartBytes int64
	// MaxTotalBytes is the most all parts read may hold together.
	MaxTotalBytes int64
	// MaxRatio is the largest compression ratio accepted for a part over
	// 1 MiB: XML compresses about 10 to 30 times, a bomb thousands of times.
	MaxRatio int64
}

// DefaultLimits admit sheets of 100,000 rows with room to spare: such a
// sheet of ten columns of transfers is about 36 MiB of XML, one of
// fifty long columns under 200 MiB. A part that declares more is refused
// before a byte is decompressed, and one that lies about its size when it
// passes the limit; a sheet of a million rows, or a 1 GB sheet, is refused
// in well under a second rather than read for a minute into gigabytes.
var DefaultLimits = Limits{MaxPartBytes: 256 << 20, MaxTotalBytes: 512 << 20, MaxRatio: 400}

// Errors the caller turns into advice for the operator.
var (
	// ErrNotZip means the data is not a zip archive, so not an xlsx file.
	ErrNotZip = errors.New("not a zip archive")
	// ErrEncrypted means the workbook is protected with a password: Excel
	// then wraps it in an encrypted OLE2 container.
	ErrEncrypted = errors.New("the workbook is encrypted with a password")
	// ErrLegacyXLS means the data is an Excel 97-2003 (.xls) workbook.
	ErrLegacyXLS = errors.New("an Excel 97-2003 (.xls) workbook")
	// ErrNotWorkbook means a zip archive without a workbook inside.
	ErrNotWorkbook = errors.New("a zip archive without an Excel workbook inside")
	// ErrTooLarge means a part is over the limits: a zip bomb, or a sheet
	// too large to handle.
	ErrTooLarge = errors.New("the workbook expands to more data than allowed")
)

// A Sheet is one worksheet of a workbook.
type Sheet struct {
	Name string
	// Hidden is set for hidden and "very hidden" sheets.
	Hidden bool
	// Chart is set for chart sheets, which hold no cells.
	Chart bool
	part  string
}

// A Workbook is an opened workbook: its sheets, shared strings and number
// formats. Cells are read sheet by sheet with ReadSheet.
type Workbook struct {
	Sheets []Sheet
	// Date1904 is set when date serials count from 1904 (old Mac files).
	Date1904 bool

	zr      *zip.Reader
	files   map[string]*zip.File
	limits  Limits
	total   int64
	strings *sharedStrings
	formats []string // number format code per cell style index
	// spare is a scanner buffer kept for the next part read: a workbook
	// is read part after part, and each would otherwise allocate one.
	spare []byte
}

var oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// Open reads the workbook structure, shared strings and styles from data.
func Open(data []byte, lim Limits) (*Workbook, error) {
	if bytes.HasPrefix(data, oleMagic) {
		if bytes.Contains(data, utf16le("EncryptedPackage")) {
			return nil, ErrEncrypted
		}
		return nil, ErrLegacyXLS
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if bytes.HasPrefix(data, []byte("PK")) {
			return nil, fmt.Errorf("%w: the zip archive is damaged (%v)", ErrNotZip, err)
		}
		return nil, ErrNotZip
	}
	w := &Workbook{zr: zr, files: make(map[string]*zip.File, len(zr.File)), limits: lim, strings: newSharedStrings(0)}
	for _, f := range zr.File {
		w.files[strings.ToLower(strings.TrimPrefix(f.Name, "/"))] = f
	}
	wbPath := w.officeDocument()
	if w.file(wbPath) == nil {
		return nil, ErrNotWorkbook
	}
	rels, err := w.relationships(wbPath)
	if err != nil {
		return nil, err
	}
	if err := w.readWorkbook(wbPath, rels); err != nil {
		return nil, err
	}
	for _, r := range rels {
		switch {
		case strings.HasSuffix(r.typ, "/sharedStrings"):
			if err := w.readSharedStrings(r.target); err != nil {
				return nil, err
			}
		case strings.HasSuffix(r.typ, "/styles"):
			if err := w.readStyles(r.target); err != nil {
				return nil, err
			}
		}
	}
	return w, nil
}

func utf16le(s string) []byte {
	out := make([]byte, 0, 2*len(s))
	for _, c := range []byte(s) {
		out = append(out, c, 0)
	}
	return out
}

func (w *Workbook) file(name string) *zip.File {
	return w.files[strings.ToLower(strings.TrimPrefix(name, "/"))]
}

// open returns a part's decompressed content as a stream bounded by the
// limits.
func (w *Workbook) open(name string) (io.ReadCloser, error) {
	f := w.file(name)
	if f == nil {
		return nil, fmt.Errorf("the workbook lacks its part %s", name)
	}
	declared := int64(f.UncompressedSize64)
	if f.UncompressedSize64 > uint64(w.limits.MaxPartBytes) || declared < 0 {
		return nil, fmt.Errorf("%w: %s declares %d bytes", ErrTooLarge, name, f.UncompressedSize64)
	}
	if f.CompressedSize64 > 0 && declared > 1<<20 && declared/int64(f.CompressedSize64) > w.limits.MaxRatio {
		return nil, fmt.Errorf("%w: %s is compressed %d to 1, as zip bombs are", ErrTooLarge, name, declared/int64(f.CompressedSize64))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", name, err)
	}
	return &limitedPart{rc: rc, w: w, name: name, left: w.limits.MaxPartBytes}, nil
}

// limitedPart counts what a part decompresses to, whatever its header
// says, and stops at the limits.
type limitedPart struct {
	rc   io.ReadCloser
	w    *Workbook
	name string
	left int64
}

func (p *limitedPart) Read(b []byte) (int, error) {
	n, err := p.rc.Read(b)
	p.left -= int64(n)
	p.w.total += int64(n)
	if p.left < 0 || p.w.total > p.w.limits.MaxTotalBytes {
		return n, fmt.Errorf("%w: %s", ErrTooLarge, p.name)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("decompressing %s: %w", p.name, err)
	}
	return n, err
}

func (p *limitedPart) Close() error { return p.rc.Close() }

// officeDocument returns the path of the workbook part, from the package
// relationships, or the usual path.
func (w *Workbook) officeDocument() string {
	rels, err := w.relationships("")
	if err == nil {
		for _, r := range rels {
			if strings.HasSuffix(r.typ, "/officeDocument") {
				return r.target
			}
		}
	}
	return "xl/workbook.xml"
}

type relationship struct{ id, typ, target string }

// relationships reads the relationships of the part at from ("" for the
// package), with targets resolved to part paths.
func (w *Workbook) relationships(from string) ([]relationship, error) {
	dir, base := path.Split(from)
	relsPath := dir + "_rels/" + base + ".rels"
	if w.file(relsPath) == nil {
		return nil, nil
	}
	var out []relationship
	err := w.scan(relsPath, func(s *scanner) error {
		if s.kind == tokStart && string(s.name) == "Relationship" {
			r := relationship{id: attrString(s.attrs, "Id"), typ: attrString(s.attrs, "Type"), target: attrString(s.attrs, "Target")}
			if attrString(s.attrs, "TargetMode") == "External" {
				return nil
			}
			if strings.HasPrefix(r.target, "/") {
				r.target = strings.TrimPrefix(r.target, "/")
			} else {
				r.target = path.Join(dir, r.target)
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// scan runs visit on every token of a part.
func (w *Workbook) scan(name string, visit func(*scanner) error) error {
	rc, err := w.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	s := w.newScanner(rc)
	defer w.release(s)
	for {
		if err := s.next(); err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
		if s.kind == tokEOF {
			return nil
		}
		if err := visit(s); err != nil {
			return err
		}
	}
}

func (w *Workbook) readWorkbook(name string, rels []relationship) error {
	byID := make(map[string]relationship, len(rels))
	for _, r := range rels {
		byID[r.id] = r
	}
	return w.scan(name, func(s *scanner) error {
		if s.kind != tokStart {
			return nil
		}
		switch string(s.name) {
		case "workbookPr":
			v := attrString(s.attrs, "date1904")
			w.Date1904 = v == "1" || v == "true"
		case "sheet":
			r, ok := byID[attrString(s.attrs, "id")]
			if !ok {
				return nil
			}
			state := attrString(s.attrs, "state")
			w.Sheets = append(w.Sheets, Sheet{
				Name:   attrString(s.attrs, "name"),
				Hidden: state == "hidden" || state == "veryHidden",
				Chart:  !strings.HasSuffix(r.typ, "/worksheet"),
				part:   r.target,
			})
		}
		return nil
	})
}

func (w *Workbook) readSharedStrings(name string) error {
	maxStrings := 0
	if f := w.file(name); f != nil {
		maxStrings = int(min(f.UncompressedSize64/5, 1<<24))
	}
	var b []byte
	inSI, phonetic, inT := false, 0, false
	err := w.scan(name, func(s *scanner) error {
		switch s.kind {
		case tokStart:
			switch string(s.name) {
			case "sst":
				// Room for the strings the part says it holds, within what
				// its size can hold: an empty string is "<si/>".
				if n, err := strconv.Atoi(attrString(s.attrs, "uniqueCount")); err == nil && n > 0 && w.strings.len() == 0 {
					w.strings = newSharedStrings(min(n, maxStrings))
				}
			case "si":
				inSI, b = true, b[:0]
				if s.selfClosing {
					inSI = false
					return w.strings.add(nil)
				}
			case "rPh":
				phonetic++
			case "t":
				inT = !s.selfClosing
			}
		case tokEnd:
			switch string(s.name) {
			case "si":
				inSI = false
				return w.strings.add(b)
			case "rPh":
				phonetic--
			case "t":
				inT = false
			}
		case tokText:
			if inSI && inT && phonetic == 0 {
				b = appendDecoded(b, s.text)
			}
		}
		return nil
	})
	w.strings.done()
	return err
}

func (w *Workbook) readStyles(name string) error {
	custom := make(map[int]string)
	inXfs := false
	var ids []int
	err := w.scan(name, func(s *scanner) error {
		switch s.kind {
		case tokStart:
			switch string(s.name) {
			case "numFmt":
				id, err := strconv.Atoi(attrString(s.attrs, "numFmtId"))
				if err == nil {
					custom[id] = attrString(s.attrs, "formatCode")
				}
			case "cellXfs":
				inXfs = !s.selfClosing
			case "xf":
				if inXfs {
					id, _ := strconv.Atoi(attrString(s.attrs, "numFmtId"))
					ids = append(ids, id)
				}
			}
		case tokEnd:
			if string(s.name) == "cellXfs" {
				inXfs = false
			}
		}
		return nil
	})
	w.formats = make([]string, len(ids))
	for i, id := range ids {
		if code, ok := custom[id]; ok {
			w.formats[i] = code
		} else {
			w.formats[i] = BuiltinFormat(id)
		}
	}
	return err
}

// NumberFormat returns the number format code of a cell style index, ""
// for General.
func (w *Workbook) NumberFormat(style int) string {
	if style < 0 || style >= len(w.formats) {
		return ""
	}
	return w.formats[style]
}
