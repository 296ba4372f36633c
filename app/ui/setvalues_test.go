package ui

import (
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

// TestTheFieldsOfferedAValueForEveryRow: the required fields no column
// fills first, then those given a value and those the operator added, in
// the kind's order; a field a column fills (a choice not applied yet
// counts) is offered no more, and the menus name each field, then its
// path.
func TestTheFieldsOfferedAValueForEveryRow(t *testing.T) {
	targets := []wire.Target{
		{Path: "profileId", Title: "Profile id", Required: true},
		{Path: "tag", Title: "Tag"},
		{Path: "source.id", Title: "Instrument id", Required: true},
		{Path: "source.type", Title: "Instrument type", Required: true, Choices: []wire.Choice{{Value: "managed_accounts", Words: "Managed account"}}},
		{Path: "description", Title: "Description"},
		{Path: "scheduledTimestamp", Title: "Scheduled time"},
	}
	p := &importRead{Iprep: &wire.Prepared{
		Document: 3,
		Targets:  targets,
		Columns:  []wire.ColumnView{{Column: 0, Letter: "A", Field: "source.id"}, {Column: 1, Letter: "B"}},
		Missing:  []string{"profileId"},
		Values:   []wire.SetValue{{Field: "tag", Value: "payroll", Parsed: "payroll"}, {Field: "source.type", Value: "managed_accounts", Parsed: "managed_accounts"}},
	}, setExtra: []string{"scheduledTimestamp", "description"}, setExtraDoc: 3}
	rows := p.setValueRows()
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s:%v", r.target.Path, r.set))
	}
	if fmt.Sprint(got) != "[profileId:false source.type:true tag:true description:false scheduledTimestamp:false]" {
		t.Errorf("rows %v", got)
	}
	if more := p.unfilledTargets(rows); len(more) != 0 {
		t.Errorf("more to add: %v", more)
	}
	// Column B about to fill the description: it is offered no more.
	p.pending, p.pendingFor = pendingMapping{1: "description"}, p.Iprep
	got = nil
	for _, r := range p.setValueRows() {
		got = append(got, r.target.Path)
	}
	if fmt.Sprint(got) != "[profileId source.type tag scheduledTimestamp]" {
		t.Errorf("rows with column B pending %v", got)
	}
	// Another file: the fields added for the last one are not offered.
	p.Iprep.Document, p.pending = 4, nil
	if rows := p.setValueRows(); len(rows) != 3 {
		t.Errorf("rows of another file: %d", len(rows))
	}
	if l := targetLabel(targets[3]); l != "Instrument type — source.type (required)" {
		t.Errorf("label %q", l)
	}
	if l := targetLabel(wire.Target{Path: "spendLimit[0].interval"}); l != "spendLimit[0].interval" {
		t.Errorf("label without a title %q", l)
	}
	if w := choiceWords(targets[3], "managed_accounts"); w != "Managed account (managed_accounts)" {
		t.Errorf("choice words %q", w)
	}
}
