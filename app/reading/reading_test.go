package reading_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

func TestTallyDecidesOnlyUnanimousVotes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 70))
	values := []string{"major", "minor", ".", ","}
	for trial := range 500 {
		var tl reading.Tally
		n := 1 + rng.IntN(100)
		majority := values[rng.IntN(len(values))]
		for i := range n {
			tl.Vote(reading.Cell{Row: i + 2, Column: "F", Raw: "x", Suggests: majority})
		}
		d := tl.Decide("default")
		if d.Undecided || d.Value != majority || d.How != reading.Detected {
			t.Fatalf("trial %d: unanimous %s: %+v", trial, majority, d)
		}
		minority := values[(1+rng.IntN(len(values)-1)+indexOf(values, majority))%len(values)]
		tl.Vote(reading.Cell{Row: 1000, Column: "F", Raw: "odd", Suggests: minority})
		d = tl.Decide("default")
		if !d.Undecided || d.Value != "default" || d.How != reading.Default {
			t.Fatalf("trial %d: one %s among %d %s: %+v", trial, minority, n, majority, d)
		}
		if n > 1 && d.Evidence[0].Row != 1000 {
			t.Fatalf("trial %d: the disagreeing cell is not first: %+v", trial, d.Evidence[0])
		}
		if len(d.Evidence) > 10 {
			t.Fatalf("trial %d: %d evidence cells kept", trial, len(d.Evidence))
		}
	}
	var none reading.Tally
	if d := none.Decide("minor"); d.Undecided || d.Value != "minor" || d.How != reading.Default {
		t.Errorf("no votes: %+v", d)
	}
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

func TestDescribeMarksWhatIsNotTheDefault(t *testing.T) {
	r := reading.Reading{
		Units:   reading.Decision{Value: reading.Major, How: reading.Detected},
		Decimal: reading.Decision{Value: ",", How: reading.Chosen},
		DateOrder: reading.Decision{How: reading.Default, Undecided: true, Evidence: []reading.Cell{
			{Sheet: "Pay", Row: 7, Column: "D", Raw: "11/20/1989", Suggests: "MDY"},
		}},
	}
	got := reading.Describe(r, "GBP", lang.English)
	if len(got) != 3 {
		t.Fatalf("statements %+v", got)
	}
	if !got[0].Marked || !strings.Contains(got[0].Text, "MAJOR units: 10.50 is GBP 10.50") {
		t.Errorf("units %+v", got[0])
	}
	if got[1].Marked || !strings.Contains(got[1].Text, "decimal comma") || !strings.Contains(got[1].Text, "decimal comma: 1.234,56, as you chose.") {
		t.Errorf("decimal %+v", got[1])
	}
	if !got[2].Undecided || !strings.Contains(got[2].Text, `Pay!D7 "11/20/1989" reads month first`) {
		t.Errorf("dates %+v", got[2])
	}
	if !r.NeedsLook() {
		t.Error("major units and an undecided date order need a look")
	}
	if (reading.Reading{Units: reading.Decision{Value: reading.Minor, How: reading.Detected}}).NeedsLook() {
		t.Error("minor units, decided, need no look")
	}
}

// The statements write an amount as the file does, with its own digit
// groups (1 234,56 for a file grouped with spaces), name an encoding as
// people write it (Windows-1252) and, in German and French, say amounts
// in major units in plain words rather than in capitals.
func TestStatementsReadAsTheFileAndPeopleWrite(t *testing.T) {
	decided := func(v string) reading.Decision { return reading.Decision{Value: v, How: reading.Detected} }
	for _, tc := range []struct {
		r    reading.Reading
		l    lang.Tag
		name string
		want string
	}{
		{reading.Reading{Decimal: decided(","), Group: decided(" ")}, lang.French, "decimal", "virgule décimale\u202f: 1\u00a0234,56."},
		{reading.Reading{Decimal: decided("."), Group: decided("'")}, lang.German, "decimal", "Dezimalpunkt: 1'234.56."},
		{reading.Reading{Decimal: decided(",")}, lang.German, "decimal", "Dezimalkomma: 1.234,56."},
		{reading.Reading{Decimal: decided(","), Group: reading.Decision{Value: ",", How: reading.Default, Undecided: true}}, lang.English, "decimal", "decimal comma: 1.234,56."},
		{reading.Reading{Encoding: decided("windows-1252")}, lang.German, "encoding", "Text in Windows-1252."},
		{reading.Reading{Encoding: decided("utf-16le")}, lang.English, "encoding", "text in UTF-16LE."},
		{reading.Reading{Units: decided(reading.Major)}, lang.German, "units", "Beträge mit Nachkommastellen: 10,50 ist EUR 10,50, nicht EUR 0,10."},
		{reading.Reading{Units: decided(reading.Major)}, lang.French, "units", "montants avec leurs décimales\u202f: 10,50 vaut EUR 10,50, et non EUR 0,10."},
	} {
		var got []string
		for _, s := range reading.Describe(tc.r, "", tc.l) {
			if s.Name == tc.name {
				got = append(got, s.Text)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.l, tc.name, got, tc.want)
		}
	}
}
