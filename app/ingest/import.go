package ingest

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// An Import turns one table into the elements of one bulk kind: it holds
// the mapping and the settings the operator reviews, builds the elements
// with the cell each value came from, and rebuilds single rows as the
// operator corrects them. An Import is not safe for concurrent use.
type Import struct {
	Kind  *schema.Kind
	Table *Table

	p      *reader
	found  detected
	chosen map[string]bool
	header reading.Decision
	result *Result
	// limits are the operator's amount limits (SetAmountLimits).
	limits AmountLimits
}

// A reader is how rows are read: the mapping, its resolved columns and
// the settings. Changing the mapping or the settings makes a new reader,
// so a Result keeps reading its rows the way it was built.
type reader struct {
	Kind     *schema.Kind
	Table    *Table
	v        *schema.Validator
	cat      *catalog
	mt       *matcher
	mapping  Mapping
	settings Settings
	cols     []column
	hasLists bool
	// hasSet says some of cols are values set for every row.
	hasSet bool
	// mixedUnits, when the file leaves its units undecided, says why the
	// amounts read otherwise are errors (see unitsQuestion).
	mixedUnits *unitsQuestion
	// template is how a template's mark reads the table, or nil.
	template *templateReading
	// scratch is reused by every check of this reader and its copies.
	scratch *scratch
}

// Language is the operator's language, in which the import says what it
// finds: its validator's.
func (im *Import) Language() lang.Tag { return im.p.v.Language() }

// NewImport prepares the import of table t as elements of kind k: it
// detects the header row, maps the columns it recognises and detects the
// settings. v validates the elements (schema.Default() will do).
func NewImport(t *Table, k *schema.Kind, v *schema.Validator) *Import {
	cat := newCatalog(k, v.Fields(k))
	p := &reader{Kind: k, Table: t, v: v, cat: cat, mt: newMatcher(cat), settings: Settings{Amounts: Minor}, scratch: newScratch()}
	var header reading.Decision
	p.mapping, header = autoMapping(t, p.mt)
	if p.template = templateFor(t, p.mt); p.template != nil {
		p.mapping, header = p.template.mapping(t, p.mt)
	}
	p.compile()
	im := &Import{Kind: k, Table: t, p: p, header: header}
	im.found = p.detect()
	p.declare(&im.found)
	p.settings = im.found.settings
	p.mixedUnits = im.found.mixedUnits()
	p.profile()
	return im
}

// Mapping returns the current mapping.
func (im *Import) Mapping() Mapping {
	m := im.p.mapping
	m.Columns = slices.Clone(m.Columns)
	m.Values = maps.Clone(m.Values)
	return m
}

// SetMapping replaces the mapping, as edited by the operator. Every field
// must exist in the kind and be filled by one column only, or by one
// value for every row (Mapping.Values) that no column fills. The settings
// are detected again for the new columns, unless the mapping carries
// settings of its own.
func (im *Import) SetMapping(m Mapping) error {
	seen := make(map[string]string)
	var ptrs []string
	for _, c := range m.Columns {
		if c.Field == "" {
			continue
		}
		t, err := im.p.cat.resolve(c.Field)
		if err != nil {
			return lang.Errorf("column %s: %s", c.Letter, err)
		}
		if other, dup := seen[t.Path]; dup {
			return lang.Errorf("columns %s and %s both fill %s: keep one", other, c.Letter, t.Path)
		}
		p := t.Pointer()
		if overlaps(p, ptrs) {
			return lang.Errorf("column %s fills %s, which overlaps with another column's field: keep one", c.Letter, t.Path)
		}
		ptrs = append(ptrs, p)
		seen[t.Path] = c.Letter
	}
	values, err := im.p.checkValues(m.Values, seen, ptrs)
	if err != nil {
		return err
	}
	m.Values = values
	if m.Settings != nil {
		if err := m.Settings.Check(); err != nil {
			return lang.Errorf("the mapping's settings: %s", err)
		}
	}
	m.Kind = im.Kind.ID
	np := *im.p
	np.mapping = m
	np.compile()
	im.found = np.detect()
	np.declare(&im.found)
	np.settings = im.found.settings
	np.mixedUnits = im.found.mixedUnits()
	np.keepChosen(im.p.settings, im.chosen)
	if m.Settings != nil {
		zone := np.settings.TimeZone
		np.settings = *m.Settings
		if np.settings.TimeZone == "" && im.chosen["timeZone"] {
			// A mapping saved without a zone keeps the one chosen.
			np.settings.TimeZone = zone
		}
		im.chosen = map[string]bool{"amounts": true, "decimal": true, "group": true, "dates": true, "currency": m.Settings.Currency != "", "timeZone": np.settings.TimeZone != ""}
	}
	np.mixedUnits = np.mixedUnits.settledIf(im.chosen["amounts"])
	np.profile()
	im.p = &np
	return nil
}

// UseSavedMapping applies a mapping loaded from a file to this table's
// columns, matching them by header text (by column for columns without a
// header). It returns the saved columns this table lacks.
func (im *Import) UseSavedMapping(saved Mapping) (missing []string, err error) {
	if saved.Kind != im.Kind.ID {
		return nil, lang.Errorf("the mapping is for %s, not %s", saved.Kind, im.Kind.ID)
	}
	m, missing := applySaved(im.Table, im.p.mt, saved)
	if err := im.SetMapping(m); err != nil {
		return missing, err
	}
	if saved.HeaderRow > 0 && m.HeaderRow == saved.HeaderRow {
		im.header = reading.Decision{How: reading.Chosen}
	}
	return missing, nil
}

// SetHeaderRow makes row n the header row and maps the columns again
// automatically from its headers.
func (im *Import) SetHeaderRow(n int) error {
	if im.Table.RowIndex(n) < 0 {
		return lang.Errorf("the sheet has no row %d", n)
	}
	if err := im.SetMapping(mapColumns(im.Table, im.p.mt, n, Mapping{Kind: im.Kind.ID})); err != nil {
		return err
	}
	im.header = reading.Decision{How: reading.Chosen}
	return nil
}

// Settings returns the current settings.
func (im *Import) Settings() Settings { return im.p.settings }

// DetectedSettings returns the settings detected from the file.
func (im *Import) DetectedSettings() Settings { return im.found.settings }

// SetSettings replaces the settings, as overridden by the operator. A
// setting that differs from the detected one, and each one named in
// chosen ("amounts", "decimal", "group", "dates", "currency", "timeZone"), is the
// operator's decision from then on, even where it equals the default: it
// settles a reading the file left undecided.
func (im *Import) SetSettings(s Settings, chosen ...string) error {
	if s.Amounts == "" {
		s.Amounts = Minor
	}
	s.DateOrder = strings.ToUpper(s.DateOrder)
	if err := s.Check(); err != nil {
		return err
	}
	d := im.found.settings
	marks := map[string]bool{
		"amounts": s.Amounts != d.Amounts, "decimal": s.Decimal != d.Decimal, "group": s.Group != d.Group,
		"dates": s.DateOrder != d.DateOrder, "currency": s.Currency != d.Currency, "timeZone": s.TimeZone != d.TimeZone,
	}
	for _, c := range chosen {
		marks[c] = true
	}
	if im.chosen == nil {
		im.chosen = make(map[string]bool)
	}
	for k, v := range marks {
		im.chosen[k] = im.chosen[k] || v
	}
	np := *im.p
	np.settings = s
	np.mixedUnits = np.mixedUnits.settledIf(im.chosen["amounts"])
	im.p = &np
	return nil
}

// A TargetInfo is a field a column can be mapped to, for menus.
type TargetInfo struct {
	Path string `json:"path"`
	// Title is the field's name in the validator's language.
	Title    string `json:"title"`
	Required bool   `json:"required"`
	Rules    string `json:"rules"`
	// Choices are the values the contract allows, API value and the
	// operator's words for it (ChoiceWords), when it lists them.
	Choices []TargetChoice `json:"choices,omitempty"`
}

// A TargetChoice is one value a field allows: Value as the API takes it,
// Words as the operator reads it.
type TargetChoice struct {
	Value string `json:"value"`
	Words string `json:"words"`
}

// Targets lists the fields a column can be mapped to, list fields with
// position 0 (positions 1, 2, … are accepted too), their names and rules
// in the validator's language.
func (im *Import) Targets() []TargetInfo {
	l := im.p.v.Language()
	out := make([]TargetInfo, 0, len(im.p.mt.listed))
	for _, p := range im.p.mt.listed {
		t, err := im.p.cat.resolve(p)
		if err != nil {
			continue
		}
		info := TargetInfo{Path: p, Title: l.T(t.Field.Title), Required: t.Field.Required, Rules: t.Field.Rules(l)}
		if t.DateParts {
			info.Title, info.Rules = l.F("Date (%s)", p), l.T("date; split into year, month and day")
		}
		if t.Field.Type != "array" && !t.DateParts {
			for _, v := range t.Field.Enum {
				info.Choices = append(info.Choices, TargetChoice{Value: v, Words: ChoiceWords(v, l)})
			}
		}
		out = append(out, info)
	}
	return out
}

// compile resolves the mapped columns and the values set for every row;
// fields that do not resolve (only possible from a hand-made Mapping)
// are left out.
func (rd *reader) compile() {
	rd.cols = nil
	rd.hasLists, rd.hasSet = false, false
	add := func(col column) {
		if isAmount(col.target.Field) {
			col.currency = rd.cat.currencyPath(col.target)
		}
		rd.cols = append(rd.cols, col)
		rd.hasLists = rd.hasLists || strings.Contains(col.target.Path, "[")
	}
	for _, c := range rd.mapping.Columns {
		if c.Field == "" {
			continue
		}
		t, err := rd.cat.resolve(c.Field)
		if err != nil {
			continue
		}
		add(column{index: c.Column, target: t, currencyPos: -1, boxes: make(map[string]any)})
	}
	for _, path := range slices.Sorted(maps.Keys(rd.mapping.Values)) {
		t, err := rd.cat.resolve(path)
		if err != nil {
			continue
		}
		add(setColumn(t, rd.mapping.Values[path]))
		rd.hasSet = true
	}
	// Amounts last: reading one needs its row's currency.
	slices.SortStableFunc(rd.cols, func(a, b column) int {
		return btoi(isAmount(a.target.Field)) - btoi(isAmount(b.target.Field))
	})
	for i := range rd.cols {
		if cur := rd.cols[i].currency; cur != "" {
			rd.cols[i].currencyPos = slices.IndexFunc(rd.cols, func(o column) bool { return o.target.Path == cur })
		}
	}
	rd.linkTemplateCurrencies()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// profile records, for text columns, the width of values written with
// leading zeros, against which numbers that lost theirs are caught.
func (rd *reader) profile() {
	for i := range rd.cols {
		col := &rd.cols[i]
		col.zeroWidth = 0
		if col.target.Field.Type != "string" {
			continue
		}
		widths := make(map[int]int)
		for j := range rd.Table.Rows {
			r := &rd.Table.Rows[j]
			if r.Number <= rd.mapping.HeaderRow {
				continue
			}
			c := r.Cell(col.index)
			v := strings.TrimSpace(c.Value)
			if c.Kind == Text && len(v) > 1 && v[0] == '0' && allDigits(v) {
				widths[len(v)]++
			} else if c.Kind == Number && zeroPad(rd.Table.NumberFormat(c)) > len(v) {
				widths[zeroPad(rd.Table.NumberFormat(c))]++
			}
		}
		best := 0
		for w, n := range widths {
			if n > widths[best] || (n == widths[best] && w > best) {
				best = w
			}
		}
		col.zeroWidth = best
	}
}

// firstDataRow returns the index in Table.Rows of the first row below
// the header: the rows from there on are data, as rows are in order.
func (rd *reader) firstDataRow() int {
	rows := rd.Table.Rows
	return sort.Search(len(rows), func(i int) bool { return rows[i].Number > rd.mapping.HeaderRow })
}

// DataRows returns how many rows with values lie below the header: the
// number of elements a build will give, at most. A file of more than
// schema.MaxElements rows must be split into several bulks. A template's
// example row, unchanged, is not one of them (see dataRows).
func (im *Import) DataRows() int {
	return im.p.dataRows()
}
