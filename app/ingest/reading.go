package ingest

import (
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// Reading returns every decision taken to read the table: those its
// values decided, those the operator chose, the file's own (encoding,
// delimiter, sheet) and the header row. Decisions about amounts or dates
// are left zero when no column holds them; the time zone, when no
// timestamp column holds a date. Totals are the rows under the data
// that add it up, compared with the elements above them.
func (im *Import) Reading() reading.Reading {
	r := im.Table.Reading
	f, s := im.found, im.p.settings
	chosen := func(d reading.Decision, name, value string) reading.Decision {
		if !im.chosen[name] {
			return d
		}
		return reading.Decision{Value: value, How: reading.Chosen, Column: d.Column, Evidence: d.Evidence}
	}
	amounts, dates := false, false
	for _, c := range im.p.cols {
		amounts = amounts || isAmount(c.target.Field)
		dates = dates || c.target.Field.Format == "date" || c.target.DateParts
	}
	if amounts {
		r.Units = chosen(f.units, "amounts", s.Amounts)
		r.Decimal = chosen(f.decimal, "decimal", s.Decimal)
		r.Group = chosen(f.group, "group", s.Group)
	}
	if f.zone.How != "" {
		dates = true
		r.TimeZone = f.zone
		if s.TimeZone != "" {
			how := reading.Chosen
			if f.zone.How == reading.Declared && f.zone.Value == s.TimeZone {
				how = reading.Declared // a template's own zone
			}
			r.TimeZone = reading.Decision{Value: s.TimeZone, How: how, Column: f.zone.Column}
			if e, ok := im.p.zoneExample(f.zone); ok {
				r.TimeZone.Evidence = []reading.Cell{e}
			}
		}
	}
	if dates {
		r.DateOrder = chosen(f.dates, "dates", s.DateOrder)
	}
	r.HeaderRow = im.header
	r.HeaderRow.Value = strconv.Itoa(im.p.mapping.HeaderRow)
	r.Totals = im.totals()
	return r
}

// keepChosen carries the settings the operator chose over to a reader whose
// settings were detected again (after a change of columns).
func (rd *reader) keepChosen(old Settings, chosen map[string]bool) {
	if chosen["amounts"] {
		rd.settings.Amounts = old.Amounts
	}
	if chosen["decimal"] {
		rd.settings.Decimal = old.Decimal
	}
	if chosen["group"] {
		rd.settings.Group = old.Group
	}
	if chosen["dates"] {
		rd.settings.DateOrder = old.DateOrder
	}
	if chosen["currency"] {
		rd.settings.Currency = old.Currency
	}
	if chosen["timeZone"] {
		rd.settings.TimeZone = old.TimeZone
	}
}
