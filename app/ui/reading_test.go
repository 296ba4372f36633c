package ui

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestAChoiceSettlesItsSettingAsTheOperators(t *testing.T) {
	current := wire.Settings{Amounts: "minor", Decimal: ".", Group: ","}
	req, ok := choiceRequest(current, "units", reading.Major)
	if !ok || req.Settings == nil || req.Settings.Amounts != "major" || req.Settings.Decimal != "." || strings.Join(req.Chosen, " ") != "amounts" {
		t.Errorf("units: %+v", req)
	}
	req, _ = choiceRequest(current, "decimal", ",")
	if req.Settings.Decimal != "," || req.Settings.Group != "." || strings.Join(req.Chosen, " ") != "decimal group" {
		t.Errorf("decimal: %+v %+v", req, req.Settings)
	}
	req, _ = choiceRequest(current, "delimiter", ";")
	if req.Delimiter != ";" || req.Settings != nil {
		t.Errorf("delimiter: %+v", req)
	}
	if _, ok := choiceRequest(current, "sheet", "Pay"); ok {
		t.Error("a sheet is chosen with its own control")
	}
}

func TestTheChoicesAreTheSidesOfTheEvidence(t *testing.T) {
	d := reading.Decision{Value: reading.Minor, How: reading.Default, Undecided: true, Evidence: []reading.Cell{
		{Row: 6, Column: "G", Raw: "30.50", Suggests: reading.Major}, {Row: 2, Column: "G", Raw: "25000", Suggests: reading.Minor},
	}}
	var got []string
	for _, c := range readingChoices("units", d) {
		got = append(got, c.id+": "+c.label)
	}
	want := "choose-units-minor: Read them in minor units (1050 is 10.50) | choose-units-major: Read them in major units (10.50 as written)"
	if strings.Join(got, " | ") != want {
		t.Errorf("choices:\n got %q\nwant %q", strings.Join(got, " | "), want)
	}
	// A mark read as decimal in one cell and as a group in another.
	d = reading.Decision{How: reading.Default, Undecided: true, Evidence: []reading.Cell{
		{Raw: "1,500", Suggests: "decimal ,"}, {Raw: "1,234.50", Suggests: "groups ,"},
	}}
	got = nil
	for _, c := range readingChoices("decimal", d) {
		got = append(got, c.label)
	}
	if strings.Join(got, " | ") != "Decimal comma, digits grouped by point | Decimal point, digits grouped by comma" {
		t.Errorf("separator choices: %q", got)
	}
}

func TestOnlyALowerCaseCurrencyIsFixedInOneClick(t *testing.T) {
	cols := []wire.GridColumn{{Letter: "E", Header: "Amount", Field: "destinationAmount.amount"}, {Letter: "F", Header: "Currency", Field: "destinationAmount.currency"}}
	problem := func(code, value string) wire.Problem {
		return wire.Problem{Code: code, Field: "destinationAmount.currency", Column: "F", Value: value, Severity: "error"}
	}
	fixes := currencyFixes(cols, []wire.Problem{problem("pattern", `"eur"`), problem("pattern", `"gbp"`)})
	if len(fixes) != 1 || fixes[0].column != 1 || fixes[0].label != "Write every currency of column F (Currency) in capitals (eur → EUR)" {
		t.Errorf("fixes = %+v", fixes)
	}
	for _, ps := range [][]wire.Problem{
		{problem("pattern", `"xyz"`)},     // not a currency in capitals either
		{problem("pattern", `"EURO"`)},    // already capitals
		{problem("required", `"eur"`)},    // another problem
		{{Code: "pattern", Value: `"a"`}}, // another field
		{problem("pattern", `eur`)},       // not JSON
	} {
		if f := currencyFixes(cols, ps); len(f) != 0 {
			t.Errorf("%+v: fixes %+v", ps, f)
		}
	}
}

func TestMarkedStatementsSayCheck(t *testing.T) {
	ss := []reading.Statement{{Name: "units", Text: "amounts in MAJOR units.", Marked: true}, {Name: "delimiter", Text: "values separated by commas."}}
	if got := markedStatements(ss); got != "Check: amounts in MAJOR units." {
		t.Errorf("marked = %q", got)
	}
	r := reading.Reading{
		Units: reading.Decision{Value: reading.Minor, Undecided: true, Evidence: []reading.Cell{
			{Row: 6, Column: "G", Suggests: reading.Major}, {Row: 2, Column: "G", Suggests: reading.Minor},
		}},
		Group: reading.Decision{Undecided: true}, Decimal: reading.Decision{Undecided: true},
	}
	if got := undecided(r); strings.Join(got, " ") != "units decimal" {
		t.Errorf("undecided = %q", got)
	}
	if m := disagreeing(r); !m["G6"] || len(m) != 1 {
		t.Errorf("disagreeing = %v", m)
	}
}
