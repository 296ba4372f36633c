package jobs_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// datesCSV is a German bank export's transfers, scheduled by date.
const datesCSV = "profileId;source.type;source.id;destination.type;destination.id;destinationAmount.currency;destinationAmount.amount;scheduledTimestamp\n" +
	"110;managed_accounts;1001;managed_accounts;2001;EUR;1500;15.12.2026\n" +
	"110;managed_accounts;1001;managed_accounts;2002;EUR;2500;15.12.2026\n" +
	"110;managed_accounts;1001;managed_accounts;2003;EUR;3500;16.12.2026 09:00\n"

// atNovember fixes the worker's clock before the file's dates.
func atNovember(w *workers) {
	w.reader.SetClock(func() time.Time { return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) })
}

// Dates without a zone wait for the operator, who chooses one while
// reading the file; the review and the confirmation then write each
// scheduled time in words, in the operator's language.
func TestDatesWaitForATimeZone(t *testing.T) {
	h := newHarness(t, atNovember)
	var cs wire.ContractState
	h.result(h.send(wire.JobContract, wire.SetContract{Lang: "de"}, nil), &cs)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "bank.csv", Kind: "transfers", Auto: true}, []byte(datesCSV)))
	z := p.Reading.TimeZone
	if p.Ready || p.Summary != nil || !z.Undecided || z.Value != "" || !slices.Contains(p.SettingsMatter, wire.SettingTimeZone) {
		t.Fatalf("built without a zone: ready %v, time zone %+v, settings %v", p.Ready, z, p.SettingsMatter)
	}
	if st := statement(p.Statements, "timeZone"); !st.Undecided || !strings.HasPrefix(st.Text, "Zeitzone nicht gewählt") {
		t.Errorf("statement %+v", st)
	}
	if len(p.Examples) == 0 || !strings.Contains(p.Examples[0].Error, "Wählen Sie die Zeitzone der Datums- und Zeitangaben der Datei, etwa Europe/Berlin") {
		t.Errorf("examples %+v", p.Examples)
	}

	berlin := p.Settings
	berlin.TimeZone = "Europe/Berlin"
	p = h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: &berlin, Chosen: []string{wire.SettingTimeZone}, Build: true}, nil))
	if p.Summary == nil || p.Summary.Invalid != 0 || p.Reading.TimeZone.How != reading.Chosen {
		t.Fatalf("built in Berlin: %+v, %+v", p.Summary, p.Reading.TimeZone)
	}
	if len(p.Examples) == 0 || p.Examples[0].Parsed != "15. Dez. 2026, 00:00 Europe/Berlin" {
		t.Errorf("examples %+v", p.Examples)
	}
	want := "Geplanter Zeitpunkt: 15. Dez. 2026, 00:00 Europe/Berlin (2 Elemente); 16. Dez. 2026, 09:00 Europe/Berlin (1 Element)"
	if len(p.Summary.Schedule) != 1 || p.Summary.Schedule[0] != want {
		t.Errorf("schedule %q, want %q", p.Summary.Schedule, want)
	}
	if st := statement(p.Summary.Reading, "timeZone"); st.Text != `Datums- und Zeitangaben in Europe/Berlin: „15.12.2026“ ist 15. Dez. 2026, 00:00 Europe/Berlin, wie von Ihnen gewählt.` {
		t.Errorf("statement %+v", st)
	}
	c := h.prepare(wire.PrepareSubmission{Document: p.Document})
	if len(c.Schedule) != 1 || c.Schedule[0] != want {
		t.Errorf("confirmation schedule %q", c.Schedule)
	}
}

// The zone chosen in Settings comes with the file: its dates read at
// once, and the reading says the zone is the operator's choice.
func TestTheSettingsZoneComesWithTheFile(t *testing.T) {
	h := newHarness(t, atNovember)
	p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "bank.csv", Kind: "transfers", Auto: true, TimeZone: "Europe/Paris"}, []byte(datesCSV)))
	if p.Summary == nil || p.Summary.Invalid != 0 || p.Settings.TimeZone != "Europe/Paris" || p.Reading.TimeZone.How != reading.Chosen {
		t.Fatalf("not built in Paris: %+v, %+v", p.Summary, p.Reading.TimeZone)
	}
	if e := h.failure(h.send(wire.JobOpen, wire.Open{FileName: "bank.csv", Kind: "transfers", TimeZone: "Europe/Pariss"}, []byte(datesCSV))); !strings.Contains(e.Message, "Europe/Pariss") {
		t.Errorf("an unknown zone: %+v", e)
	}
}

// The worker's clock decides what is in the past: the same file warns
// once that clock stands after its dates.
func TestTheWorkersClockDecidesThePast(t *testing.T) {
	late := func(w *workers) {
		w.reader.SetClock(func() time.Time { return time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC) })
	}
	for _, tc := range []struct {
		clock    func(*workers)
		warnings int
	}{{atNovember, 0}, {late, 3}} {
		h := newHarness(t, tc.clock)
		p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "bank.csv", Kind: "transfers", Auto: true, TimeZone: "Europe/Berlin"}, []byte(datesCSV)))
		if p.Summary == nil || p.Summary.Warnings != tc.warnings {
			t.Errorf("warnings %+v, want %d", p.Summary, tc.warnings)
		}
	}
}

// A draft keeps the zone: the file's zone from Settings, and the one
// chosen while reading it, come back after a reload.
func TestADraftKeepsTheTimeZone(t *testing.T) {
	for _, tc := range []struct {
		name, fromSettings, chosen, want string
	}{
		{"from Settings", "Europe/Paris", "", "Europe/Paris"},
		{"chosen for the file", "", "Europe/Berlin", "Europe/Berlin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := draft.NewMemory()
			h := newHarness(t, atNovember, withDrafts(store))
			p := h.prepared(h.send(wire.JobOpen, wire.Open{FileName: "bank.csv", Kind: "transfers", TimeZone: tc.fromSettings}, []byte(datesCSV)))
			if tc.chosen != "" {
				s := p.Settings
				s.TimeZone = tc.chosen
				h.prepared(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Settings: &s, Chosen: []string{wire.SettingTimeZone}}, nil))
			}
			r := newHarness(t, atNovember, withDrafts(store)).restore()
			if !r.Found || r.Prepared == nil || r.Prepared.Settings.TimeZone != tc.want || r.Prepared.Reading.TimeZone.How != reading.Chosen {
				t.Fatalf("restored %+v", r)
			}
		})
	}
}
