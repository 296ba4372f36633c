package jobs

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// samples is how many values of each column the mapping step shows.
const samples = 3

// prepared describes how a document will be read, for the page.
func (s *Server) prepared(d *LoadedFile) wire.Prepared {
	p := wire.Prepared{
		Document:      d.ID,
		FileName:      d.FileName,
		BackOffice:    d.BackOffice,
		KindSuggested: d.KindSuggested,
		Suggestions:   d.suggestions,
		Format:        string(ingest.JSON),
		Request:       true,
		Draft:         s.draftOf(d),
	}
	if d.Kind != nil {
		p.Kind = d.Kind.ID
	}
	if d.file == nil {
		return p // a JSON file that does not parse
	}
	f := d.file
	p.Format, p.Request = string(f.Format), f.IsRequest()
	p.Encoding, p.Delimiter = f.Encoding, f.Delimiter
	p.Notes = append(p.Notes, f.Notes...)
	for _, sh := range f.Sheets() {
		p.Sheets = append(p.Sheets, wire.Sheet{Name: sh.Name, Hidden: sh.Hidden, Empty: sh.Empty})
	}
	if d.table == nil {
		return p
	}
	p.Sheet = d.table.Sheet
	for _, n := range d.table.Notes {
		p.Notes = appendOnce(p.Notes, n)
	}
	if d.im == nil {
		return p
	}
	im := d.im
	m := im.Mapping()
	p.HeaderRow, p.DataRows = m.HeaderRow, im.DataRows()
	required := make(map[string]bool)
	for _, t := range im.Targets() {
		tg := wire.Target{Path: t.Path, Title: t.Title, Required: t.Required, Rules: t.Rules}
		for _, c := range t.Choices {
			tg.Choices = append(tg.Choices, wire.Choice{Value: c.Value, Words: c.Words})
		}
		p.Targets = append(p.Targets, tg)
		if t.Required {
			required[t.Path] = true
		}
	}
	valueError := false
	for _, v := range im.Values() {
		p.Values = append(p.Values, wire.SetValue(v))
		delete(required, v.Field)
		valueError = valueError || v.Error != ""
	}
	unknown := false
	for _, c := range m.Columns {
		cv := wire.ColumnView{
			Column: c.Column, Letter: c.Letter, Header: c.Header, Field: c.Field,
			Match: string(c.Match), Suggestions: c.Suggestions, Samples: columnSamples(d.table, m.HeaderRow, c.Column),
		}
		p.Columns = append(p.Columns, cv)
		delete(required, c.Field)
		if c.Field == "" && c.Match != ingest.MatchIgnored && len(cv.Samples) > 0 {
			unknown = true
		}
	}
	for _, t := range im.Targets() {
		if required[t.Path] {
			p.Missing = append(p.Missing, t.Path)
		}
	}
	p.Settings, p.Detected = toWireSettings(im.Settings()), toWireSettings(im.DetectedSettings())
	exampleError := false
	for _, e := range im.Examples() {
		p.Examples = append(p.Examples, wire.Example(e))
		exampleError = exampleError || e.Error != ""
	}
	p.SettingsMatter = settingsMatter(d, p.Examples)
	p.Reading = im.Reading()
	if p.Reading.TimeZone.How != "" {
		p.SettingsMatter = append(p.SettingsMatter, wire.SettingTimeZone)
	}
	p.Statements = reading.Describe(p.Reading, d.currency(nil, p.Examples), s.language())
	choosable := 0
	for _, sh := range p.Sheets {
		if !sh.Hidden && !sh.Empty {
			choosable++
		}
	}
	// Several sheets to choose from need the operator, unless one fits
	// the kind better than every other or the operator picked it.
	sheetKnown := choosable <= 1 || d.table.Reading.Sheet.How == reading.Detected || d.table.Reading.Sheet.How == reading.Chosen || d.table.Reading.Sheet.How == reading.Declared
	p.Ready = !d.KindSuggested && len(p.Missing) == 0 && !unknown && !exampleError && !valueError && sheetKnown && p.DataRows > 0 &&
		!p.Reading.NeedsLook()
	return p
}

// settingsMatter says which settings change how the file reads: those of
// the amount and date columns it maps.
func settingsMatter(d *LoadedFile, examples []wire.Example) []string {
	var out []string
	add := func(s string) {
		for _, x := range out {
			if x == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, e := range examples {
		if strings.HasSuffix(e.Field, "amount") || strings.Contains(strings.ToLower(e.Field), "amount") {
			add("amounts")
			add("separators")
			if d.Kind.Amount == "" {
				add("currency")
			}
		} else {
			add("dates")
		}
	}
	return out
}

// columnSamples returns the first values of a column below the header, in
// the first thousand rows.
func columnSamples(t *ingest.Table, header, col int) []string {
	var out []string
	for i := range min(len(t.Rows), 1000) {
		r := &t.Rows[i]
		if r.Number <= header {
			continue
		}
		if c := r.Cell(col); !c.Empty() {
			out = append(out, t.Display(c))
			if len(out) == samples {
				break
			}
		}
	}
	return out
}

func toWireSettings(s ingest.Settings) wire.Settings { return wire.Settings(s) }

func fromWireSettings(s wire.Settings) ingest.Settings { return ingest.Settings(s) }
