package ingest

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// A templateReading is how a template's mark reads one of its tables as
// the kind it was written for: which row holds the header, which column
// fills which field, and how each is typed.
type templateReading struct {
	mark *TemplateMark
	// header is the number of the header row.
	header int
	// columns are the marked columns found in the header row, by index.
	columns map[int]MarkedColumn
	// reads says how each marked field is typed, by target path.
	reads map[string]string
	// evidence is the mark, as the decisions it takes show it.
	evidence reading.Cell
}

// templateFor returns how table t reads as the template it was written
// as, or nil when t does not come from a template of the matcher's kind,
// or its header row holds none of the template's headers (the operator
// replaced them). The header row is the top row that holds the most of
// them: rows added above it do not move it.
func templateFor(t *Table, mt *matcher) *templateReading {
	m := t.template
	if m == nil || m.Kind != mt.cat.kind.ID {
		return nil
	}
	byHeader := make(map[string]MarkedColumn, len(m.Columns))
	for _, c := range m.Columns {
		if _, err := mt.cat.resolve(c.Field); err == nil {
			byHeader[markedHeaderKey(c.Header)] = c
		}
	}
	tr := &templateReading{mark: m, reads: make(map[string]string)}
	for i := range min(len(t.Rows), headerScan) {
		r := &t.Rows[i]
		found := make(map[int]MarkedColumn)
		taken := make(map[string]bool)
		for col, c := range r.Cells {
			// A header the operator copied into another column maps the
			// first only: one field, one column.
			if mc, ok := byHeader[markedHeaderKey(c.Value)]; ok && c.Kind == Text && !taken[mc.Field] {
				found[col], taken[mc.Field] = mc, true
			}
		}
		if len(found) > len(tr.columns) {
			tr.header, tr.columns = r.Number, found
		}
	}
	if len(tr.columns) == 0 {
		return nil
	}
	for _, c := range tr.columns {
		tr.reads[c.Field] = c.Reads
	}
	tr.evidence = reading.Cell{
		Sheet: TemplateMarkSheet, Raw: TemplateMarkToken + " " + strconv.Itoa(m.Version) + " " + m.Kind + " " + m.Lang,
		Suggests: m.Kind, Why: t.w.T("a Bulkdesk template"),
	}
	return tr
}

// markedHeaderKey is a header as a template's headers are compared:
// without the spaces around it and the " *" of a required column, which
// an operator may take away, and without regard to case.
func markedHeaderKey(h string) string {
	h = strings.TrimSpace(h)
	h = strings.TrimSpace(strings.TrimSuffix(h, "*"))
	return strings.ToLower(h)
}

// mapping maps the marked columns to their fields and the others as
// headers map by themselves: a column the operator added is still read,
// but never in place of a marked one.
func (tr *templateReading) mapping(t *Table, mt *matcher) (Mapping, reading.Decision) {
	m := mapColumns(t, mt, tr.header, Mapping{Kind: mt.cat.kind.ID})
	marked := make(map[string]bool)
	for _, c := range tr.columns {
		marked[c.Field] = true
	}
	for i := range m.Columns {
		c := &m.Columns[i]
		if mc, ok := tr.columns[c.Column]; ok {
			c.Field, c.Match, c.Suggestions = mc.Field, MatchExact, nil
		} else if marked[c.Field] {
			c.Suggestions = append([]string{c.Field}, c.Suggestions...)
			c.Field, c.Match = "", ""
		}
	}
	d := reading.Decision{Value: strconv.Itoa(tr.header), How: reading.Declared, Evidence: []reading.Cell{tr.evidence}}
	return m, d
}

// declare takes the decisions the template's mark states over those its
// values suggest: its amounts are in major units when a marked amount
// column is mapped, and its dates and times in the time zone it names,
// if it names one.
func (rd *reader) declare(found *detected) {
	tr := rd.template
	if tr == nil {
		return
	}
	if zone := tr.mark.TimeZone; zone != "" && found.zone.How != "" {
		if _, err := loadZone(zone); err == nil {
			// The date cells stay its evidence: the first is shown read
			// in the zone.
			found.zone = reading.Decision{Value: zone, How: reading.Declared, Column: found.zone.Column, Evidence: found.zone.Evidence}
			found.settings.TimeZone = zone
		}
	}
	for _, c := range rd.cols {
		if tr.reads[c.target.Path] == ReadsAmount {
			found.units = reading.Decision{Value: Major, How: reading.Declared, Evidence: []reading.Cell{tr.evidence}}
			found.settings.Amounts = Major
			return
		}
	}
}

// linkTemplateCurrencies gives the amounts of a template that have no
// currency of their own (a card's transaction limits) the currency of
// the row's only currency column, as the template's Fields sheet says:
// in major units they need one.
func (rd *reader) linkTemplateCurrencies() {
	if rd.template == nil {
		return
	}
	only := -1
	for i, c := range rd.cols {
		if strings.HasSuffix(c.target.Path, "currency") {
			if only >= 0 {
				return
			}
			only = i
		}
	}
	if only < 0 {
		return
	}
	for i := range rd.cols {
		c := &rd.cols[i]
		if isAmount(c.target.Field) && c.currencyPos < 0 && rd.template.reads[c.target.Path] == ReadsAmount {
			c.currencyPos = only
		}
	}
}

// readChoice reads a cell of a field with choices: one of them, as the
// API or the operator's words in any of the console's languages write
// it ("Verwaltetes Konto" is managed_accounts). Other text is passed on
// for the validator to refuse, except in a template's choice column,
// where it is an error at the cell that names the choices: a word the
// dropdown did not offer is never sent as it is.
func (rd *reader) readChoice(s string, col *column) (any, *cellProblem) {
	if v, ok := choiceOf(col.target.Field, s); ok {
		return col.box(v), nil
	}
	if rd.template == nil || rd.template.reads[col.target.Path] != ReadsChoice {
		return col.box(s), nil
	}
	words := Choices(col.target.Field, rd.v.Language())
	return nil, cellError("choice", "%q is not one of the choices: %s", s, strings.Join(words, ", "))
}
