package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// The draft keeps its own form of the requests it replays (package draft
// says why); they are converted from and to the wire's here alone. A
// field the wire's requests gain is carried only once it is added on both
// sides, with a new draft.FormatVersion (draftform_test.go notices one
// forgotten).

func draftOpen(r wire.Open) draft.Open {
	return draft.Open{FileName: r.FileName, Text: r.Text, Kind: r.Kind, BackOffice: r.BackOffice,
		Encoding: r.Encoding, Delimiter: r.Delimiter, TimeZone: r.TimeZone, Auto: r.Auto}
}

func wireOpen(o draft.Open) wire.Open {
	return wire.Open{FileName: o.FileName, Text: o.Text, Kind: o.Kind, BackOffice: o.BackOffice,
		Encoding: o.Encoding, Delimiter: o.Delimiter, TimeZone: o.TimeZone, Auto: o.Auto}
}

func draftPrepare(r wire.Prepare) *draft.Prepare {
	p := &draft.Prepare{Encoding: r.Encoding, Delimiter: r.Delimiter, Sheet: r.Sheet, Kind: r.Kind,
		BackOffice: r.BackOffice, HeaderRow: r.HeaderRow, SavedMapping: r.SavedMapping, Automatic: r.Automatic,
		Chosen: r.Chosen, Auto: r.Auto, Build: r.Build}
	for _, c := range r.Columns {
		p.Columns = append(p.Columns, draft.ColumnChoice{Column: c.Column, Field: c.Field})
	}
	for _, v := range r.Values {
		p.Values = append(p.Values, draft.FieldValue{Field: v.Field, Value: v.Value})
	}
	if s := r.Settings; s != nil {
		p.Settings = &draft.Settings{Amounts: s.Amounts, Decimal: s.Decimal, Group: s.Group,
			DateOrder: s.DateOrder, Currency: s.Currency, TimeZone: s.TimeZone}
	}
	return p
}

// wirePrepare is p as a request on document doc.
func wirePrepare(p draft.Prepare, doc int) wire.Prepare {
	r := wire.Prepare{Document: doc, Encoding: p.Encoding, Delimiter: p.Delimiter, Sheet: p.Sheet, Kind: p.Kind,
		BackOffice: p.BackOffice, HeaderRow: p.HeaderRow, SavedMapping: p.SavedMapping, Automatic: p.Automatic,
		Chosen: p.Chosen, Auto: p.Auto, Build: p.Build}
	for _, c := range p.Columns {
		r.Columns = append(r.Columns, wire.ColumnChoice{Column: c.Column, Field: c.Field})
	}
	for _, v := range p.Values {
		r.Values = append(r.Values, wire.FieldValue{Field: v.Field, Value: v.Value})
	}
	if s := p.Settings; s != nil {
		r.Settings = &wire.Settings{Amounts: s.Amounts, Decimal: s.Decimal, Group: s.Group,
			DateOrder: s.DateOrder, Currency: s.Currency, TimeZone: s.TimeZone}
	}
	return r
}

func draftReplace(r wire.Replace) *draft.Replace {
	return &draft.Replace{Column: r.Column, Find: r.Find, With: r.With,
		MatchCase: r.MatchCase, WholeCell: r.WholeCell, UpperCase: r.UpperCase}
}

// wireReplace is r as a request on document doc.
func wireReplace(r draft.Replace, doc int) wire.Replace {
	return wire.Replace{Document: doc, Column: r.Column, Find: r.Find, With: r.With,
		MatchCase: r.MatchCase, WholeCell: r.WholeCell, UpperCase: r.UpperCase}
}

func draftLimits(r wire.AmountLimits) *draft.AmountLimits {
	return &draft.AmountLimits{Limits: r.Limits, Lang: r.Lang}
}
