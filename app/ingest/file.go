package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Format is the kind of file an import reads.
type Format string

// The formats a File can hold.
const (
	XLSX Format = "xlsx"
	CSV  Format = "csv"
	JSON Format = "json"
)

// Options are the reading settings an operator may override. The zero
// value detects everything.
type Options struct {
	// Encoding of a text file: "utf-8", "utf-16le", "utf-16be" or
	// "windows-1252"; "" detects it.
	Encoding string
	// Delimiter of a text file: ",", ";", "\t" (or "tab") or "|"; ""
	// detects it.
	Delimiter string
	// Limits bound the work a hostile file can cause; zero fields take
	// the defaults.
	Limits Limits
	// Lang is the language of the operator, in which a file that cannot
	// be read says why, and its notes are written; "" is English.
	Lang lang.Tag
}

// Limits bound what reading a file may cost.
type Limits struct {
	// MaxBytes is the largest file accepted.
	MaxBytes int64
	// MaxRows is the most rows of operations one table may hold: a sheet
	// or CSV file may hold titleRows more (its header, and titles above
	// it), an array of JSON objects no more objects.
	MaxRows int
	// Zip bounds the decompression of xlsx files.
	Zip xlsx.Limits
}

// DefaultLimits are the limits an operator can rely on: a table of
// 100,000 rows (ten bulks of 10,000, which "check -split" writes as ten
// request files) in a file of at most 128 MiB, a 100 MB request body
// included. They keep reading any file within them under 1 GB of memory,
// natively and in the browser's worker, and a larger file is refused as
// soon as its reading passes them, instead of after building millions of
// rows. Zip bombs and sheets of far more XML than 100,000 rows take are
// refused by the zip limits.
var DefaultLimits = Limits{MaxBytes: 128 << 20, MaxRows: 100_000, Zip: xlsx.DefaultLimits}

// titleRows is how many rows a sheet may hold beyond MaxRows: its header
// and any titles above it, as far down as the header is looked for.
const titleRows = headerScan

// tableRows is the most rows a sheet or CSV file may hold.
func (l Limits) tableRows() int { return l.MaxRows + titleRows }

// tooManyRows is the refusal of a table that holds more than the limits
// admit; what says so of the table, in the operator's language ("the
// sheet has more than 100,010 rows").
func (f *File) tooManyRows(sheet, what string) error {
	return f.readError(sheet, f.w.F("%s; at most %s rows of operations can be read from one table: split it into files of at most %s rows each (a bulk takes %s)",
		what, f.w.Count(f.limits.MaxRows), f.w.Count(f.limits.MaxRows), f.w.Count(schema.MaxElements)), nil)
}

// readError is a file that cannot be read, in sheet when it is one
// sheet's fault ("" otherwise), msg said in the operator's language.
func (f *File) readError(sheet, msg string, err error) *ReadError {
	return &ReadError{File: f.Name, Sheet: sheet, Msg: msg, Err: err, w: f.w}
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxRows == 0 {
		l.MaxRows = DefaultLimits.MaxRows
	}
	if l.Zip == (xlsx.Limits{}) {
		l.Zip = DefaultLimits.Zip
	}
	return l
}

// A ReadError is a file that cannot be read, with where the fault is when
// it is in one place, said in the language the file was opened in
// (Options.Lang).
type ReadError struct {
	File   string
	Sheet  string
	Row    int    // 1-based, or 0
	Column string // letters or key, or ""
	Msg    string
	Err    error
	w      lang.Tag
}

func (e *ReadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Sheet != "" {
		b.WriteString(e.w.F(", sheet %q", e.Sheet))
	}
	if e.Row > 0 {
		b.WriteString(e.w.F(", row %d", e.Row))
	}
	if e.Column != "" {
		b.WriteString(e.w.F(", column %s", e.Column))
	}
	b.WriteString(e.w.F("%s: %s", "", e.Msg))
	return b.String()
}

func (e *ReadError) Unwrap() error { return e.Err }

// A SheetInfo describes one sheet of a file, for the operator to pick.
type SheetInfo struct {
	Name   string
	Hidden bool
	// Empty is set for sheets without a single value, and chart sheets.
	Empty bool
}

// A File is an opened file: its sheets, ready to be read into tables.
type File struct {
	Name   string
	Format Format
	// Encoding and Delimiter are what a text file was read with, detected
	// or chosen.
	Encoding  string
	Delimiter string
	// Notes are warnings about the file as a whole.
	Notes []string

	// reading holds the decisions taken to read the file: encoding and
	// delimiter; each table read from it starts with them.
	reading reading.Reading
	limits  Limits
	sheets  []SheetInfo
	wb      *xlsx.Workbook
	text    string // decoded text of a CSV file
	json    *jsonFile
	// mark is a template's mark, once looked for (markRead).
	mark     *TemplateMark
	markRead bool
	// w is the operator's language (Options.Lang).
	w lang.Tag
}

// Open reads a file's bytes; name is its file name, whose extension is
// checked against the content. Errors are *ReadError values that say what
// to do.
func Open(name string, data []byte, opt Options) (*File, error) {
	lim := opt.Limits.withDefaults()
	f := &File{Name: path.Base(strings.ReplaceAll(name, "\\", "/")), limits: lim, w: opt.Lang}
	w := f.w
	fail := func(msg string, err error) (*File, error) {
		return nil, f.readError("", msg, err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return fail(w.F("the file is %s; at most %s can be read", sizeText(w, int64(len(data))), sizeText(w, lim.MaxBytes)), nil)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fail(w.T("the file is empty"), nil)
	}
	ext := strings.ToLower(path.Ext(f.Name))
	sniffed := sniff(data)
	switch {
	case sniffed == "zip" && (ext == ".ods" || ext == ".numbers"):
		return fail(w.F("%s files cannot be read: save the sheet as .xlsx or .csv", ext), nil)
	case sniffed == "zip" || sniffed == "ole2":
		return f.openXLSX(data)
	case sniffed == "html":
		return fail(w.T("this is a web page (HTML), not a spreadsheet, whatever its name says: some systems export HTML tables under a spreadsheet name. Open it in a spreadsheet program and save it as .xlsx or .csv"), nil)
	case sniffed == "pdf":
		return fail(w.T("this is a PDF document, not a spreadsheet: export the data as .xlsx or .csv"), nil)
	}
	switch ext {
	case ".xlsx", ".xlsm", ".xltx":
		if sniffed == "text" {
			f.Notes = append(f.Notes, w.F("%s is not an Excel workbook but a text file: it was read as CSV", f.Name))
			return f.openCSV(data, opt)
		}
		return fail(w.T("this is not an Excel workbook (.xlsx): the file is damaged or of another kind; save it as .xlsx or .csv"), xlsx.ErrNotZip)
	case ".xls":
		if sniffed == "text" {
			f.Notes = append(f.Notes, w.F("%s is not an Excel workbook but a text file: it was read as CSV", f.Name))
			return f.openCSV(data, opt)
		}
		return fail(w.T("this .xls file cannot be read: save it as .xlsx or .csv"), nil)
	case ".json":
		return f.openJSON(data)
	case ".csv", ".tsv", ".txt", ".tab", "":
		if sniffed == "binary" {
			return fail(w.T("this is not a text file: save the data as .xlsx or .csv"), nil)
		}
		if ext == "" && looksLikeJSON(data) {
			return f.openJSON(data)
		}
		if ext == ".tsv" || ext == ".tab" {
			if opt.Delimiter == "" {
				opt.Delimiter = "\t"
			}
		}
		return f.openCSV(data, opt)
	}
	return fail(w.F("%s files cannot be read: use .xlsx, .csv or .json", ext), nil)
}

// OpenText reads text pasted from a spreadsheet: tab-separated rows.
func OpenText(text string) (*File, error) {
	return Open("pasted.tsv", []byte(text), Options{Encoding: "utf-8", Delimiter: "\t"})
}

// sniff names what the content is, whatever the file's name says.
func sniff(data []byte) string {
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		return "ole2"
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return "zip"
	case bytes.HasPrefix(data, []byte("%PDF")):
		return "pdf"
	}
	lower := bytes.ToLower(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n"))
	for _, p := range []string{"<!doctype html", "<html", "<table", "<?xml", "<meta"} {
		if bytes.HasPrefix(lower, []byte(p)) {
			return "html"
		}
	}
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || utf16Likely(head) {
		return "text"
	}
	ctl := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			ctl++
		}
	}
	if ctl > len(head)/10 {
		return "binary"
	}
	return "text"
}

func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(t) > 0 && (t[0] == '[' || t[0] == '{')
}

func (f *File) openXLSX(data []byte) (*File, error) {
	wb, err := xlsx.Open(data, f.limits.Zip)
	if err != nil {
		// What the reader found is for the log (Err): the operator is
		// told what to do.
		msg := lang.Mark("this is not a readable Excel workbook: save it again as .xlsx or .csv")
		switch {
		case errors.Is(err, xlsx.ErrEncrypted):
			msg = lang.Mark("the workbook is protected with a password: open it in Excel, remove the password (File > Info > Protect Workbook > Encrypt with Password) and save it again")
		case errors.Is(err, xlsx.ErrLegacyXLS):
			msg = lang.Mark("this is an Excel 97-2003 workbook (.xls), which cannot be read: open it in a spreadsheet program and save it as .xlsx or .csv")
		case errors.Is(err, xlsx.ErrNotWorkbook):
			msg = lang.Mark("this is a zip archive without an Excel workbook inside: save the sheet as .xlsx or .csv")
		case errors.Is(err, xlsx.ErrTooLarge):
			return nil, f.readError("", f.partTooLarge(), err)
		case errors.Is(err, xlsx.ErrNotZip):
			msg = lang.Mark("the workbook is damaged: save it again as .xlsx or .csv")
		}
		return nil, f.readError("", f.w.T(msg), err)
	}
	f.Format, f.wb = XLSX, wb
	return f, nil
}

// partTooLarge is the refusal of a workbook whose part decompresses to
// more than the zip limits: a sheet far over the row limit, or a zip bomb.
func (f *File) partTooLarge() string {
	w := f.w
	return w.F("the workbook expands to more data than can be read: one part may hold at most %s once decompressed, and all together %s, far more than %s rows of operations take. Split the rows into files of at most %s rows each; a small file that expands this much looks like a zip bomb, and was not read",
		sizeText(w, f.limits.Zip.MaxPartBytes), sizeText(w, f.limits.Zip.MaxTotalBytes), w.Count(f.limits.MaxRows), w.Count(f.limits.MaxRows))
}

// Sheets lists the file's sheets in workbook order; a CSV or JSON file has
// one.
func (f *File) Sheets() []SheetInfo {
	if f.sheets != nil {
		return f.sheets
	}
	switch f.Format {
	case XLSX:
		for i, s := range f.wb.Sheets {
			empty := s.Chart
			if !empty {
				has, err := f.wb.HasCells(i)
				empty = !has && err == nil
			}
			f.sheets = append(f.sheets, SheetInfo{Name: s.Name, Hidden: s.Hidden, Empty: empty})
		}
	default:
		f.sheets = []SheetInfo{{Name: f.tableName()}}
	}
	return f.sheets
}

// DefaultSheet returns the sheet to read when the operator has not picked
// one: the first visible sheet with values, else the first sheet.
func (f *File) DefaultSheet() string {
	sheets := f.Sheets()
	for _, s := range sheets {
		if !s.Hidden && !s.Empty {
			return s.Name
		}
	}
	if len(sheets) == 0 {
		return ""
	}
	return sheets[0].Name
}

// tableName is the sheet name of a CSV or JSON file's only table.
func (f *File) tableName() string {
	if f.Format == JSON {
		return ""
	}
	return strings.TrimSuffix(f.Name, path.Ext(f.Name))
}

// Progress reports how far reading or building has come: done rows of
// about total (0 when not known yet). It may sleep (time.Sleep) to let a
// browser page repaint between chunks.
type Progress func(done, total int)

// progressEvery is how many rows pass between two progress reports and
// two looks at the context.
const progressEvery = 500

// Table reads one sheet into a table; sheet "" is the default sheet.
// progress, if not nil, is called every 500 rows with the count so far.
func (f *File) Table(sheet string, progress Progress) (*Table, error) {
	return f.TableContext(context.Background(), sheet, progress)
}

// TableContext is Table for callers that let the operator cancel: it
// stops with ctx's error as soon as ctx is done. The sheet of a workbook
// is the operator's choice in the table's Reading when sheet is not "";
// [File.TableFor] chooses it by the kind to import.
func (f *File) TableContext(ctx context.Context, sheet string, progress Progress) (*Table, error) {
	picked := sheet != ""
	if !picked {
		sheet = f.DefaultSheet()
	}
	switch f.Format {
	case XLSX:
		for i, s := range f.wb.Sheets {
			if s.Name == sheet {
				t, err := f.xlsxTable(ctx, i, progress)
				if err != nil {
					return nil, err
				}
				t.Reading = f.reading
				t.Reading.Sheet = reading.Decision{Value: sheet, How: reading.Default}
				if picked {
					t.Reading.Sheet.How = reading.Chosen
				}
				if sheet != TemplateMarkSheet {
					t.template = f.Template()
				}
				return t, nil
			}
		}
		names := make([]string, len(f.wb.Sheets))
		for i, s := range f.wb.Sheets {
			names[i] = f.w.Quote(s.Name)
		}
		return nil, f.readError("", f.w.F("there is no sheet %q; the sheets are %s", sheet, strings.Join(names, ", ")), nil)
	case CSV:
		if sheet != f.tableName() {
			return nil, f.readError("", f.w.F("a CSV file has a single sheet, %q; there is no sheet %q", f.tableName(), sheet), nil)
		}
		return f.csvTable(ctx, progress)
	case JSON:
		if f.json.request {
			return nil, f.readError("", f.w.T("the file is a request body (elements with pathParams and requestBody), not a table: validate it as it is"), nil)
		}
		return f.jsonTable()
	}
	return nil, f.readError("", f.w.T("nothing to read"), nil)
}

// sizeText writes a size in bytes as w writes numbers: "1,5 MB".
func sizeText(w lang.Tag, n int64) string {
	switch {
	case n >= 1<<20:
		return w.Localize(fmt.Sprintf("%.1f MB", float64(n)/(1<<20)))
	case n >= 1<<10:
		return w.Localize(fmt.Sprintf("%.1f KB", float64(n)/(1<<10)))
	}
	return w.F("%s bytes", w.Count(int(n)))
}

func itoa(n int) string { return strconv.Itoa(n) }
