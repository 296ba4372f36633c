package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// ErrorsColumn is the header of the column error workbooks add; imports
// ignore it, so that a corrected error workbook imports as it is.
const ErrorsColumn = "Errors"

// A Mapping says which row holds the headers and which field each column
// fills. It is what the operator reviews and edits, and what is saved to
// a small JSON file to be reused with the next file of the same shape.
type Mapping struct {
	// Kind is the bulk kind the mapping is for.
	Kind string `json:"kind"`
	// HeaderRow is the 1-based number of the header row; the rows below
	// it are data.
	HeaderRow int `json:"headerRow"`
	// Columns holds one entry per column with a header or with values.
	Columns []ColumnMapping `json:"columns"`
	// Values gives fields that no column fills one value for every row,
	// by the field's path: {"profileId": "110321"}. Each is read as a
	// cell of its field would be.
	Values map[string]string `json:"values,omitempty"`
	// Settings, when present, are the import settings to use with it.
	Settings *Settings `json:"settings,omitempty"`
	// Sheet, when present, is the sheet of a workbook to read.
	Sheet string `json:"sheet,omitempty"`
	// Encoding and Delimiter, when present, are those to read a CSV file
	// with.
	Encoding  string `json:"encoding,omitempty"`
	Delimiter string `json:"delimiter,omitempty"`
}

// A ColumnMapping is what one column fills.
type ColumnMapping struct {
	// Column is the column's index, 0-based (A is 0).
	Column int `json:"-"`
	// Letter is the column's name in locations: its letters, or for a
	// JSON table its key.
	Letter string `json:"column"`
	// Header is the column's header text.
	Header string `json:"header"`
	// Field is the target path the column fills, or "" for none.
	Field string `json:"field,omitempty"`
	// Match says how Field was chosen; "" when the column is not mapped.
	Match MatchKind `json:"match,omitempty"`
	// Suggestions are fields the header might mean, for an unmapped column.
	Suggestions []string `json:"suggestions,omitempty"`
}

// Mapped returns the columns that fill a field.
func (m Mapping) Mapped() []ColumnMapping {
	var out []ColumnMapping
	for _, c := range m.Columns {
		if c.Field != "" {
			out = append(out, c)
		}
	}
	return out
}

// Unmapped returns the columns that fill nothing and are not ignored by
// design: they are reported, never silently dropped.
func (m Mapping) Unmapped() []ColumnMapping {
	var out []ColumnMapping
	for _, c := range m.Columns {
		if c.Field == "" && c.Match != MatchIgnored {
			out = append(out, c)
		}
	}
	return out
}

// Set maps column col to field (a target path, or "" to unmap it), as an
// operator does. A value set for every row of that field goes: the
// column fills it now.
func (m *Mapping) Set(col int, field string) error {
	for i := range m.Columns {
		if m.Columns[i].Column == col {
			m.Columns[i].Field = field
			m.Columns[i].Match = MatchManual
			if field == "" {
				m.Columns[i].Match = ""
			}
			m.SetValue(field, "")
			return nil
		}
	}
	return fmt.Errorf("there is no column %d", col)
}

// SetValue gives field (a target path) one value for every row, as the
// operator types it; "" (or only spaces) removes it.
// [Import.SetMapping] refuses a field that a column fills.
func (m *Mapping) SetValue(field, value string) {
	field = strings.TrimSpace(field)
	if field == "" {
		return
	}
	if strings.TrimSpace(value) == "" {
		delete(m.Values, field)
		if len(m.Values) == 0 {
			m.Values = nil
		}
		return
	}
	if m.Values == nil {
		m.Values = make(map[string]string)
	}
	m.Values[field] = value
}

// SavedMapping returns the mapping to save to a mapping file: the
// columns, the header row, the settings in use and how the file was
// read (the sheet of a workbook, the encoding and delimiter of a CSV
// file), so that loading it reads the next file of the same shape the
// same way.
func (im *Import) SavedMapping() Mapping {
	m := im.Mapping()
	s := im.Settings()
	m.Settings = &s
	switch im.Table.Format {
	case XLSX:
		m.Sheet = im.Table.Sheet
	case CSV:
		m.Encoding = im.Table.Reading.Encoding.Value
		m.Delimiter = im.Table.Reading.Delimiter.Value
	}
	return m
}

// MarshalMapping writes a mapping as the JSON of a mapping file.
func MarshalMapping(m Mapping) ([]byte, error) {
	saved := m
	saved.Columns = make([]ColumnMapping, len(m.Columns))
	for i, c := range m.Columns {
		saved.Columns[i] = ColumnMapping{Letter: c.Letter, Header: c.Header, Field: c.Field}
	}
	b, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// UnmarshalMapping reads a mapping file. Unknown keys are refused: a typo
// in a mapping file must not silently drop a column.
func UnmarshalMapping(data []byte) (Mapping, error) {
	var m Mapping
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Mapping{}, lang.Errorf("the mapping file cannot be read: %s", lang.Word(lang.Mark("it is not a mapping file of Bulkdesk (JSON)")))
	}
	if m.Kind == "" {
		return Mapping{}, lang.Errorf("the mapping file cannot be read: %s", lang.Word(lang.Mark("it names no kind")))
	}
	return m, nil
}

// autoMapping detects the header row and maps each column
// automatically; it also says how the header row was found.
func autoMapping(t *Table, mt *matcher) (Mapping, reading.Decision) {
	n, d := findHeader(t, mt)
	return mapColumns(t, mt, n, Mapping{Kind: mt.cat.kind.ID}), d
}

// mapColumns fills m.Columns from the header row: automatic matches, and
// suggestions for the rest. A field two columns match goes to neither:
// which of them holds it is the operator's choice, offered first.
func mapColumns(t *Table, mt *matcher, headerRow int, m Mapping) Mapping {
	m.HeaderRow = headerRow
	m.Columns = nil
	var header Row
	if i := t.RowIndex(headerRow); i >= 0 {
		header = t.Rows[i]
	}
	width := max(len(header.Cells), dataWidth(t, headerRow))
	claims := make(map[string]int)
	for col := range width {
		if p, _ := mt.match(strings.TrimSpace(header.Cell(col).Value)); p != "" {
			claims[p]++
		}
	}
	for col := range width {
		h := strings.TrimSpace(header.Cell(col).Value)
		cm := ColumnMapping{Column: col, Letter: t.ColumnName(col), Header: h}
		if p, kind := mt.match(h); p != "" && claims[p] == 1 {
			cm.Field, cm.Match = p, kind
		} else if kind == MatchIgnored {
			cm.Match = MatchIgnored
		} else {
			cm.Suggestions = mt.suggest(h)
			if p != "" {
				cm.Suggestions = append([]string{p}, cm.Suggestions...)
			}
		}
		if cm.Header == "" && cm.Field == "" && !columnHasData(t, headerRow, col) {
			continue
		}
		m.Columns = append(m.Columns, cm)
	}
	return m
}

// applySaved maps the columns of t as a saved mapping says: by header
// text first, by column letter for columns without a header.
func applySaved(t *Table, mt *matcher, saved Mapping) (Mapping, []string) {
	headerRow := saved.HeaderRow
	if t.RowIndex(headerRow) < 0 {
		headerRow = detectHeader(t, mt)
	}
	m := mapColumns(t, mt, headerRow, Mapping{Kind: saved.Kind, Settings: saved.Settings, Values: maps.Clone(saved.Values)})
	var missing []string
	for _, s := range saved.Columns {
		found := false
		for i := range m.Columns {
			c := &m.Columns[i]
			if (s.Header != "" && normalizeHeader(c.Header) == normalizeHeader(s.Header)) || (s.Header == "" && c.Header == "" && c.Letter == s.Letter) {
				c.Field, c.Match, c.Suggestions = s.Field, MatchManual, nil
				if s.Field == "" {
					c.Match = ""
				}
				found = true
				break
			}
		}
		if !found && s.Field != "" {
			missing = append(missing, t.w.F("%q (%s)", s.Header, s.Field))
		}
	}
	// A field the saved mapping gives a value is not this file's column's
	// by a guess from its header: the column is offered, not mapped.
	for i := range m.Columns {
		c := &m.Columns[i]
		if _, set := m.Values[c.Field]; set && c.Match != MatchManual {
			c.Suggestions = append([]string{c.Field}, c.Suggestions...)
			c.Field, c.Match = "", ""
		}
	}
	return m, missing
}

// dataWidth is the width of the rows below the header.
func dataWidth(t *Table, headerRow int) int {
	w := 0
	for i := range t.Rows {
		if t.Rows[i].Number > headerRow {
			w = max(w, len(t.Rows[i].Cells))
		}
	}
	return w
}

func columnHasData(t *Table, headerRow, col int) bool {
	for i := range t.Rows {
		if t.Rows[i].Number > headerRow && !t.Rows[i].Cell(col).Empty() {
			return true
		}
	}
	return false
}
