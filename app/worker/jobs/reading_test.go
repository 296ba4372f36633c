package jobs_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// statement returns the statement of a decision, or a zero one.
func statement(ss []reading.Statement, name string) reading.Statement {
	for _, s := range ss {
		if s.Name == name {
			return s
		}
	}
	return reading.Statement{}
}

func TestAmountsThatDisagreeWaitForTheOperator(t *testing.T) {
	h := newHarness(t)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(fixture.MixedUnitsCSV)))
	// Everything else is clear, but the units are not: no review yet.
	if p.Ready || p.Summary != nil || len(p.Missing) != 0 || p.KindSuggested {
		t.Fatalf("built without asking: ready %v, summary %v, missing %q", p.Ready, p.Summary != nil, p.Missing)
	}
	u := p.Reading.Units
	if !u.Undecided || u.Value != reading.Minor || u.How != reading.Default || !p.Reading.NeedsLook() {
		t.Fatalf("units = %+v", u)
	}
	if len(u.Evidence) != 6 || u.Evidence[0].Raw != "30.50" || u.Evidence[0].Suggests != reading.Major || u.Evidence[0].Row != 6 {
		t.Errorf("evidence = %+v", u.Evidence)
	}
	// The preview starts with the cell that disagrees, then the others
	// behind the decision.
	if len(p.Examples) != 5 || p.Examples[0].Raw != "30.50" || p.Examples[0].Row != 6 || p.Examples[0].Error == "" || p.Examples[1].Parsed != "EUR 250.00" {
		t.Errorf("examples = %+v", p.Examples)
	}
	st := statement(p.Statements, "units")
	if !st.Undecided || !st.Marked || !strings.Contains(st.Text, "amounts in minor units: 1050 is EUR 10.50.") || !strings.Contains(st.Text, `pay!G6 "30.50" reads major`) {
		t.Errorf("units statement = %+v", st)
	}

	// The operator keeps the default: it is their choice now, though the
	// settings did not change, and 30.50 stays an error at its cell.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: &p.Settings, Chosen: []string{"amounts"}}, nil))
	if u := p.Reading.Units; u.Undecided || u.How != reading.Chosen || u.Value != reading.Minor || p.Reading.NeedsLook() {
		t.Errorf("after choosing minor units: %+v", u)
	}
	if st := statement(p.Statements, "units"); st.Marked || st.Text != "amounts in minor units: 1050 is EUR 10.50, as you chose." {
		t.Errorf("units statement = %+v", st)
	}
	if p.Examples[0].Raw != "30.50" || p.Examples[0].Error == "" {
		t.Errorf("examples = %+v", p.Examples)
	}
	var s wire.Summary
	h.result(h.send(wire.JobBuild, wire.Build{Document: p.Document}, nil), &s)
	if s.Invalid != 1 || len(s.Problems) != 1 || s.Problems[0].Row != 6 || s.Problems[0].Column != "G" {
		t.Errorf("summary = %+v", s)
	}
	if st := statement(s.Reading, "units"); st.Text != "amounts in minor units: 1050 is EUR 10.50, as you chose." || st.Marked {
		t.Errorf("the review's units statement = %+v (all %+v)", st, s.Reading)
	}

	// Major units instead: every statement of it is marked, up to the
	// confirmation before a submission.
	major := p.Settings
	major.Amounts = reading.Major
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: &major, Chosen: []string{"amounts"}, Build: true}, nil))
	if p.Summary == nil || p.Summary.Invalid != 0 {
		t.Fatalf("built in major units: %+v", p.Summary)
	}
	if p.Examples[0].Raw != "30.50" || p.Examples[0].Parsed != "EUR 30.50" || p.Examples[1].Parsed != "EUR 25,000.00" {
		t.Errorf("examples in major units = %+v", p.Examples)
	}
	want := "amounts in MAJOR units: 10.50 is EUR 10.50, not EUR 0.10, as you chose."
	if st := statement(p.Summary.Reading, "units"); st.Text != want || !st.Marked {
		t.Errorf("the review's units statement = %+v", st)
	}
	c := h.prepare(wire.PrepareSubmission{Document: p.Document})
	if st := statement(c.Reading, "units"); st.Text != want || !st.Marked {
		t.Errorf("the confirmation's units statement = %+v (confirmation %+v)", st, c)
	}
}

func TestAFileReadTheDefaultWayIsBuiltAtOnceAndSaysSo(t *testing.T) {
	h := newHarness(t)
	s, _ := h.summary(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(payCSV)))
	st := statement(s.Reading, "units")
	if st.Text != "amounts in minor units: 1050 is EUR 10.50." || st.Marked {
		t.Errorf("units statement = %+v (all %+v)", st, s.Reading)
	}
	if d := statement(s.Reading, "delimiter"); d.Text != "values separated by commas." {
		t.Errorf("delimiter statement = %+v", d)
	}
}

func TestOnlySettingsCanBeChosen(t *testing.T) {
	h := newHarness(t)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers"}, []byte(fixture.MixedUnitsCSV)))
	e := h.failure(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Chosen: []string{"colour"}}, nil))
	// The page offers only settings: another name is a fault inside the
	// console, for the log.
	if e.Code != wire.CodeBadRequest || e.Ref == "" || strings.Contains(e.Message, "colour") {
		t.Errorf("error = %+v, want bad-request with a reference", e)
	}
	// A name alone settles the setting as it is.
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Chosen: []string{"amounts"}}, nil))
	if u := p.Reading.Units; u.How != reading.Chosen || u.Value != reading.Minor || u.Undecided {
		t.Errorf("units = %+v", u)
	}
}

func TestUpperCaseFixesACurrencyColumn(t *testing.T) {
	h := newHarness(t)
	csv := payCSV + "110321,managed_accounts,1002,managed_cards,2004,Gbp,700\n"
	s, _ := h.summary(h.send(wire.JobOpen, wire.Open{FileName: "pay.csv", Kind: "transfers", Auto: true}, []byte(csv)))
	if s.Invalid != 2 || s.Problems[0].Code != "pattern" || s.Problems[0].Value != `"eur"` || s.Problems[0].Field != "destinationAmount.currency" {
		t.Fatalf("summary = %+v", s)
	}
	var r wire.Replaced
	h.result(h.send(wire.JobReplace, wire.Replace{Document: s.Document, Column: 5, UpperCase: true}, nil), &r)
	if r.Cells != 2 || r.Summary.Invalid != 0 || r.Summary.Version == s.Version {
		t.Errorf("replaced = %+v", r)
	}
	if len(r.Summary.Totals) != 2 || r.Summary.Totals[0].Text != "EUR 33.50" || r.Summary.Totals[1].Text != "GBP 7.00" {
		t.Errorf("totals = %+v", r.Summary.Totals)
	}
	e := h.failure(h.send(wire.JobReplace, wire.Replace{Document: s.Document, Column: 99, UpperCase: true}, nil))
	if e.Code != wire.CodeBadRequest {
		t.Errorf("error = %+v", e)
	}
}
