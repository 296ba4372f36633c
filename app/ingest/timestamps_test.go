package ingest_test

import (
	"strings"
	"testing"
	_ "time/tzdata" // the zones, under WebAssembly too

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Timestamps read from what operators write: every text form, date cells
// with and without a time of day, in the zone chosen, and never without
// one. The values are epoch milliseconds worked out by hand (15 Dec 2026
// 00:00 in Berlin is 23:00 UTC the day before).
func TestTimestamps(t *testing.T) {
	berlin := func(order string) *ingest.Settings {
		return &ingest.Settings{Amounts: ingest.Minor, DateOrder: order, TimeZone: "Europe/Berlin"}
	}
	zoneless := &ingest.Settings{Amounts: ingest.Minor}
	const (
		midnight = `"1797289200000"` // 15 Dec 2026, 00:00 Europe/Berlin
		half2    = `"1797341400000"` // 15 Dec 2026, 14:30 Europe/Berlin
		april3   = `"1775167200000"` // 3 Apr 2026, 00:00 Europe/Berlin (summer time)
		march4   = `"1772578800000"` // 4 Mar 2026, 00:00 Europe/Berlin
	)
	dateCell := func(serial string) xlsxgen.Cell { return xlsxgen.Cell{Value: serial, Style: 1} }
	tests := []cellCase{
		{"German date", "transfers", "scheduledTimestamp", xlsxgen.S("15.12.2026"), berlin(""), midnight, ""},
		{"French date", "transfers", "scheduledTimestamp", xlsxgen.S("15/12/2026"), berlin(""), midnight, ""},
		{"ISO date", "transfers", "scheduledTimestamp", xlsxgen.S("2026-12-15"), berlin(""), midnight, ""},
		{"German date and time", "transfers", "scheduledTimestamp", xlsxgen.S("15.12.2026 14:30"), berlin(""), half2, ""},
		{"ISO date and time", "transfers", "scheduledTimestamp", xlsxgen.S("2026-12-15T14:30"), berlin(""), half2, ""},
		{"French date and time to the second", "transfers", "scheduledTimestamp", xlsxgen.S("15/12/2026 14:30:00"), berlin(""), half2, ""},
		{"date in summer time", "transfers", "scheduledTimestamp", xlsxgen.S("03.04.2026"), berlin(ingest.DMY), april3, ""},
		{"day or month first: undecided", "transfers", "scheduledTimestamp", xlsxgen.S("03/04/2026"), berlin(""), "-", "date"},
		{"day first chosen", "transfers", "scheduledTimestamp", xlsxgen.S("03/04/2026"), berlin(ingest.DMY), april3, ""},
		{"month first chosen", "transfers", "scheduledTimestamp", xlsxgen.S("03/04/2026"), berlin(ingest.MDY), march4, ""},
		{"date cell", "transfers", "scheduledTimestamp", dateCell("46371"), berlin(""), midnight, ""},
		{"date cell with a time of day", "transfers", "scheduledTimestamp", dateCell("46371.604166666664"), berlin(""), half2, ""},
		{"with its own offset, no zone needed", "transfers", "scheduledTimestamp", xlsxgen.S("2026-10-25T02:30+01:00"), zoneless, `"1792891800000"`, ""},
		{"milliseconds stay", "transfers", "scheduledTimestamp", xlsxgen.S("1797289200000"), zoneless, midnight, ""},
		{"milliseconds as a number stay", "transfers", "scheduledTimestamp", xlsxgen.N("1797289200000"), zoneless, midnight, ""},
		{"no zone chosen", "transfers", "scheduledTimestamp", xlsxgen.S("15.12.2026"), zoneless, "-", "time-zone"},
		{"date cell, no zone chosen", "transfers", "scheduledTimestamp", dateCell("46371"), zoneless, "-", "time-zone"},
		{"skipped by the clocks going forward", "transfers", "scheduledTimestamp", xlsxgen.S("29.03.2026 02:30"), berlin(""), "-", "time-zone-gap"},
		{"repeated by the clocks going back", "transfers", "scheduledTimestamp", xlsxgen.S("25.10.2026 02:30"), berlin(""), "-", "time-zone-overlap"},
		{"just after the clocks go back", "transfers", "scheduledTimestamp", xlsxgen.S("25.10.2026 03:00"), berlin(""), `"1792893600000"`, ""},
		{"not a date", "transfers", "scheduledTimestamp", xlsxgen.S("next week"), berlin(""), "-", "timestamp"},
		{"not a time of day", "transfers", "scheduledTimestamp", xlsxgen.S("15.12.2026 25:00"), berlin(""), "-", "date"},
		{"not a day", "transfers", "scheduledTimestamp", xlsxgen.S("31.11.2026"), berlin(""), "-", "date"},
		{"two-digit year", "transfers", "scheduledTimestamp", xlsxgen.S("15.12.26"), berlin(""), "-", "date"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCellCase(t, tc) })
	}
}

// A 1904 workbook counts its serials from 1904: the same day is 1,462
// fewer.
func TestTimestampsOf1904Workbooks(t *testing.T) {
	book := xlsxgen.Book{Date1904: true, Formats: []string{"dd.mm.yyyy hh:mm"}, Sheets: []xlsxgen.Sheet{{Name: "S", Rows: []xlsxgen.Row{
		xlsxgen.Texts("scheduledTimestamp"),
		{Cells: []xlsxgen.Cell{{Value: "44909", Style: 1}}},
		{Cells: []xlsxgen.Cell{{Value: "44909.604166666664", Style: 1}}},
	}}}}
	im := importOf(t, "old.xlsx", book.Bytes(), "transfers")
	if err := im.SetSettings(ingest.Settings{TimeZone: "Europe/Berlin"}); err != nil {
		t.Fatal(err)
	}
	res := im.Build(nil)
	for i, want := range []string{"1797289200000", "1797341400000"} {
		if got, _ := valueAt(res.Value(i), "scheduledTimestamp"); got != want {
			t.Errorf("row %d: %v, want %s; problems %v", i+2, got, want, res.Problems(i))
		}
	}
}

// A spend limit's startTimestamp is a whole number, not text: a date
// reads as the number.
func TestSpendLimitStartFromADate(t *testing.T) {
	csv := "card id;spendLimit[0].startTimestamp;spendLimit[0].value.amount;spendLimit[0].value.currency;spendLimit[0].interval\n" +
		"101;15.12.2026;5000;EUR;MONTHLY\n"
	im := importOf(t, "rules.csv", []byte(csv), "card_spend_rules")
	if err := im.SetSettings(ingest.Settings{TimeZone: "Europe/Paris"}); err != nil {
		t.Fatal(err)
	}
	res := im.Build(nil)
	if got := asJSON(res.Value(0)["requestBody"].(map[string]any)["spendLimit"]); !strings.Contains(got, `"startTimestamp":1797289200000`) {
		t.Errorf("spend limit %s, problems %v", got, res.Problems(0))
	}
}

// Without a zone, the reading's time zone is undecided, with the date
// cells as evidence, and each date is an error at its cell saying to
// choose one; once chosen, the reading says so with a date read in it.
func TestTheTimeZoneIsNeverGuessed(t *testing.T) {
	csv := "profileId;scheduledTimestamp\n1;15.12.2026\n2;1797289200000\n3;16.12.2026 09:00\n"
	im := importOf(t, "de.csv", []byte(csv), "transfers")
	r := im.Reading()
	if !r.TimeZone.Undecided || r.TimeZone.Value != "" || len(r.TimeZone.Evidence) != 2 || r.TimeZone.Evidence[0].Raw != "15.12.2026" || r.TimeZone.Column != "B" {
		t.Fatalf("time zone %+v", r.TimeZone)
	}
	if !strings.Contains(strings.Join(r.Undecided(), ","), "timeZone") || !r.NeedsLook() {
		t.Errorf("undecided %v", r.Undecided())
	}
	res := im.Build(nil)
	for i, want := range []string{"time-zone", "", "time-zone"} {
		var codes []string
		for _, p := range res.Problems(i) {
			if p.Field == "scheduledTimestamp" && p.Severity == schema.Error {
				codes = append(codes, p.Code)
				if !strings.Contains(p.Message, "choose the time zone of the file's dates and times, such as Europe/Berlin") {
					t.Errorf("row %d: %q does not say how to choose the zone", i+2, p.Message)
				}
			}
		}
		if strings.Join(codes, ",") != want {
			t.Errorf("row %d: problems %v, want %q", i+2, codes, want)
		}
	}
	if err := im.SetSettings(ingest.Settings{TimeZone: "Europe/Berlin"}); err != nil {
		t.Fatal(err)
	}
	r = im.Reading()
	if r.TimeZone.Undecided || r.TimeZone.Value != "Europe/Berlin" || r.TimeZone.How != reading.Chosen {
		t.Fatalf("time zone %+v", r.TimeZone)
	}
	var said string
	for _, st := range reading.Describe(r, "", "en") {
		if st.Name == "timeZone" {
			said = st.Text
		}
	}
	if said != `dates and times in Europe/Berlin: "15.12.2026" is 15 Dec 2026, 00:00 Europe/Berlin, as you chose.` {
		t.Errorf("statement %q", said)
	}
	if res := im.Build(nil); hasCode(res.Report.Errors(), "time-zone") {
		t.Errorf("errors %v", res.Report.Errors())
	}
}

// A file whose timestamps are all milliseconds has no time zone to
// decide.
func TestMillisecondsNeedNoZone(t *testing.T) {
	im := importOf(t, "ms.csv", []byte("profileId,scheduledTimestamp\n1,1797289200000\n"), "transfers")
	if d := im.Reading().TimeZone; d.How != "" {
		t.Errorf("time zone %+v", d)
	}
}

// An unknown zone, or the machine's own, is refused.
func TestUnknownTimeZones(t *testing.T) {
	for _, z := range []string{"Europe/Berln", "Local", "CEST"} {
		if err := (ingest.Settings{TimeZone: z}).Check(); err == nil || !strings.Contains(err.Error(), z) {
			t.Errorf("%s: %v", z, err)
		}
	}
	if err := (ingest.Settings{TimeZone: "UTC"}).Check(); err != nil {
		t.Error(err)
	}
}

func hasCode(ps []schema.Problem, code string) bool {
	for _, p := range ps {
		if p.Code == code {
			return true
		}
	}
	return false
}

// A date set for every row (Mapping.Values) needs a zone as a cell does:
// the reading asks for one, and once chosen the date reads in it.
func TestADateSetForEveryRowNeedsAZone(t *testing.T) {
	im := importOf(t, "de.csv", []byte("profileId;amount\n1;100\n2;200\n"), "transfers")
	m := im.Mapping()
	m.Values = map[string]string{"scheduledTimestamp": "15.12.2026"}
	if err := im.SetMapping(m); err != nil {
		t.Fatal(err)
	}
	if z := im.Reading().TimeZone; !z.Undecided || len(z.Evidence) != 1 || z.Evidence[0].Raw != "15.12.2026" {
		t.Fatalf("time zone %+v", z)
	}
	s := im.Settings()
	s.TimeZone = "Europe/Berlin"
	if err := im.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	res := im.Build(nil)
	for i := range 2 {
		if got, _ := valueAt(res.Value(i), "scheduledTimestamp"); got != "1797289200000" {
			t.Errorf("row %d: %v; problems %v", i+2, got, res.Problems(i))
		}
	}
}
