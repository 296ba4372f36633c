package ingest

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/ingest/xlsx"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// Delimiters lists the delimiters detected in CSV files, in the order
// preferred when the evidence is equal.
var Delimiters = []string{",", ";", "\t", "|"}

func normalizeDelimiter(d string) (string, error) {
	switch strings.ToLower(d) {
	case "":
		return "", nil
	case ",", "comma":
		return ",", nil
	case ";", "semicolon":
		return ";", nil
	case "\t", "tab", `\t`:
		return "\t", nil
	case "|", "pipe":
		return "|", nil
	}
	return "", lang.Errorf("unknown delimiter %q: use , ; tab or |", d)
}

func (f *File) openCSV(data []byte, opt Options) (*File, error) {
	f.Format = CSV
	w := f.w
	enc, err := normalizeEncoding(opt.Encoding)
	if err != nil {
		return nil, f.readError("", w.Say(err), err)
	}
	f.reading.Encoding = reading.Decision{Value: enc, How: reading.Chosen}
	if enc == "" {
		f.reading.Encoding = encodingDecision(data, w)
		enc = f.reading.Encoding.Value
	}
	f.Encoding = enc
	text, err := decodeText(data, enc)
	if err != nil {
		return nil, f.readError("", w.F("%s: choose the file's encoding", err), err)
	}
	delim, err := normalizeDelimiter(opt.Delimiter)
	if err != nil {
		return nil, f.readError("", w.Say(err), err)
	}
	// Excel writes and honours a first line "sep=;" naming the delimiter.
	f.reading.Delimiter = reading.Decision{Value: delim, How: reading.Chosen}
	if first, rest, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(first, "sep=") && len(strings.TrimRight(first, "\r")) == 5 {
		if delim == "" {
			delim = first[4:5]
			f.reading.Delimiter = reading.Decision{Value: delim, How: reading.Detected, Evidence: []reading.Cell{{Row: 1, Raw: first, Suggests: delim, Why: w.T("the file's first line names it")}}}
		}
		text = rest
		f.Notes = append(f.Notes, w.F("the first line of %s names the delimiter (%q) and is not part of the data", f.Name, first[4:5]))
	}
	if delim == "" {
		f.reading.Delimiter = delimiterDecision(text, w)
		delim = f.reading.Delimiter.Value
	}
	f.Delimiter = delim
	f.text = text
	return f, nil
}

// delimiterLines is how many lines decide the delimiter.
const delimiterLines = 200

// delimiterDecision decides the delimiter from the first lines. A line
// without any delimiter (a title) tells nothing; every other line must
// hold the delimiter outside quotes. When several delimiters are on every
// such line, the one that splits them all into the same number of fields
// is taken; when no single one is, the delimiter is undecided and falls
// back to the comma.
func delimiterDecision(text string, w lang.Tag) reading.Decision {
	lines := sampleLines(text, delimiterLines)
	var everywhere, steady []string
	for _, d := range Delimiters {
		seen, first, same, any := true, -1, true, false
		for _, l := range lines {
			if !hasDelimiter(l) {
				continue
			}
			n := countOutsideQuotes(l, d[0])
			if n == 0 {
				seen = false
				break
			}
			any = true
			if first < 0 {
				first = n
			}
			same = same && n == first
		}
		if seen && any {
			everywhere = append(everywhere, d)
			if same {
				steady = append(steady, d)
			}
		}
	}
	line1 := func(d string) reading.Cell {
		for i, l := range lines {
			if n := countOutsideQuotes(l, d[0]); n > 0 {
				return reading.Cell{Row: i + 1, Raw: cut(l, 60), Suggests: d, Why: w.F("%d on the line", n)}
			}
		}
		return reading.Cell{Suggests: d}
	}
	switch {
	case len(everywhere) == 1:
		return reading.Decision{Value: everywhere[0], How: reading.Detected, Evidence: []reading.Cell{line1(everywhere[0])}}
	case len(steady) == 1:
		return reading.Decision{Value: steady[0], How: reading.Detected, Evidence: []reading.Cell{line1(steady[0])}}
	}
	// No delimiter at all is one column, read with the default; lines
	// that disagree, or several steady delimiters, are undecided.
	d := reading.Decision{Value: ",", How: reading.Default}
	cands := everywhere
	if len(cands) == 0 {
		for _, c := range Delimiters {
			if strings.Contains(text[:min(len(text), 1<<16)], c) {
				cands = append(cands, c)
			}
		}
	}
	for _, c := range cands {
		if e := line1(c); e.Row > 0 {
			d.Undecided = true
			d.Evidence = append(d.Evidence, e)
		}
	}
	return d
}

// hasDelimiter reports a line holding any delimiter outside quotes.
func hasDelimiter(l string) bool {
	for _, d := range Delimiters {
		if countOutsideQuotes(l, d[0]) > 0 {
			return true
		}
	}
	return false
}

// cut shortens s to n bytes at most, on a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// sampleLines returns up to n logical lines (quoted newlines kept inside).
func sampleLines(text string, n int) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(text) && len(out) < n; i++ {
		switch text[i] {
		case '"':
			quoted = !quoted
		case '\n':
			if !quoted {
				out = append(out, strings.TrimRight(text[start:i], "\r"))
				start = i + 1
			}
		}
	}
	if len(out) < n && start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func countOutsideQuotes(line string, d byte) int {
	n, quoted := 0, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case d:
			if !quoted {
				n++
			}
		}
	}
	return n
}

// csvTable parses the decoded text into a table: RFC 4180 with the
// leniency real files need (bare quotes inside unquoted values, CR, LF or
// CRLF line ends), and strictness where a value would silently change (an
// unclosed quote, NUL bytes, invalid UTF-8).
func (f *File) csvTable(ctx context.Context, progress Progress) (*Table, error) {
	t := &Table{File: f.Name, Sheet: f.tableName(), Format: CSV, Formats: []string{""}, Notes: f.Notes, Reading: f.reading, w: f.w}
	text, d := f.text, f.Delimiter[0]
	w := f.w
	fail := func(row, col int, msg string) (*Table, error) {
		e := f.readError(t.Sheet, msg, nil)
		e.Row, e.Column = row, columnLetters(col)
		return nil, e
	}
	var cells []Cell
	var blocks cellBlocks
	// Records are lines but for quoted line breaks: counting the lines
	// sizes the table at once instead of growing it record by record.
	lines := strings.Count(text, "\n")
	maxRows := f.limits.tableRows()
	t.Rows = make([]Row, 0, min(lines+1, maxRows))
	row, line := 1, 1
	i := 0
	for i <= len(text) {
		if len(t.Rows) >= maxRows {
			return nil, f.tooManyRows(t.Sheet, f.w.F("the file has more than %s rows", f.w.Count(maxRows)))
		}
		// One field.
		var value string
		if i < len(text) && text[i] == '"' {
			startLine := line
			i++
			start := i
			closed, doubled := false, false
			for i < len(text) {
				j := strings.IndexByte(text[i:], '"')
				if j < 0 {
					break
				}
				line += strings.Count(text[i:i+j], "\n")
				i += j + 1
				if i < len(text) && text[i] == '"' {
					doubled = true
					i++
					continue
				}
				closed = true
				break
			}
			if !closed {
				return fail(row, len(cells), w.F("a quoted value opened on line %d is never closed: check the quotes (\") on that line", startLine))
			}
			// Text after the closing quote, up to the delimiter, is kept.
			end := i
			for end < len(text) && text[end] != d && text[end] != '\n' && text[end] != '\r' {
				end++
			}
			// Most quoted values are the text between the quotes, shared
			// with the file's text rather than copied.
			value = text[start : i-1]
			if doubled {
				value = strings.ReplaceAll(value, `""`, `"`)
			}
			if end > i {
				value += text[i:end]
			}
			i = end
		} else {
			end := i
			for end < len(text) && text[end] != d && text[end] != '\n' && text[end] != '\r' {
				end++
			}
			value = text[i:end]
			i = end
		}
		if strings.IndexByte(value, 0) >= 0 {
			return fail(row, len(cells), w.F("the value holds NUL bytes: this is not a text file in the chosen encoding (%s)", f.Encoding))
		}
		if !utf8.ValidString(value) {
			return fail(row, len(cells), w.F("the value is not valid %s: choose the file's encoding (it is probably %s)", f.Encoding, Windows1252))
		}
		if value == "" {
			cells = append(cells, Cell{})
		} else {
			cells = append(cells, Cell{Kind: Text, Value: value})
		}
		// What ends the field.
		if i < len(text) && text[i] == d {
			i++
			continue
		}
		if i < len(text) && text[i] == '\r' {
			i++
		}
		if i < len(text) && text[i] == '\n' {
			i++
		}
		line++
		if !(len(cells) == 1 && cells[0].Kind == Blank) {
			if len(t.Rows) == 0 {
				// As wide as the first record, in the lines left.
				blocks.expect(len(cells) * (lines - line + 3))
			}
			rc := blocks.take(len(cells))
			copy(rc, cells)
			t.Rows = append(t.Rows, Row{Number: row, Cells: rc})
			if len(t.Rows)%progressEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if progress != nil {
					// Lines overcount records only by quoted line breaks.
					progress(len(t.Rows), max(lines, len(t.Rows)))
				}
			}
		}
		cells = cells[:0]
		row++
		if i >= len(text) {
			break
		}
	}
	if progress != nil {
		progress(len(t.Rows), len(t.Rows))
	}
	return t, nil
}

func columnLetters(col int) string {
	if col < 0 {
		return ""
	}
	return xlsx.ColumnName(col)
}
