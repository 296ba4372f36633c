package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// bankCSV is a German bank export: transfers scheduled by date, one with
// a time of day.
const bankCSV = "profileId;source.id;source.type;destination.id;destination.type;currency;amount;scheduledTimestamp\n" +
	"110321;1001;managed_accounts;2001;managed_cards;EUR;1500;15.12.2026\n" +
	"110321;1002;managed_accounts;2002;managed_cards;EUR;2500;15.12.2026 14:30\n"

// Dates without a time zone: check exits 1 with an error at each date
// saying to choose one, and the JSON reading has timeZone undecided.
func TestCheckWantsATimeZoneForDates(t *testing.T) {
	file := writeFile(t, "bank.csv", bankCSV)
	code, stdout, _ := runCLI(t, "check", "-kind", "transfers", file)
	if code != exitInvalid {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
	for _, cell := range []string{"bank!H2", "bank!H3"} {
		if !strings.Contains(stdout, cell+": error: scheduledTimestamp: \"") || !strings.Contains(stdout, "choose the time zone of the file's dates and times, such as Europe/Berlin (-time-zone Europe/Berlin)") {
			t.Errorf("no error at %s saying to choose a time zone:\n%s", cell, stdout)
		}
	}
	if !strings.Contains(stdout, `reading (UNDECIDED): time zone not chosen: a date such as "15.12.2026" (bank!H2)`) {
		t.Errorf("the reading does not say the zone is undecided:\n%s", stdout)
	}

	code, got, raw := runCheckJSON(t, "-kind", "transfers", file)
	if code != exitInvalid {
		t.Fatalf("exit %d:\n%s", code, raw)
	}
	z := got.Reading.TimeZone
	if !z.Undecided || z.Value != "" || z.How != reading.Default || len(z.Evidence) != 2 || z.Evidence[0].Raw != "15.12.2026" || z.Evidence[0].Column != "H" {
		t.Errorf("reading.timeZone %+v", z)
	}
	if !strings.Contains(raw, `"timeZone": {`) {
		t.Errorf("JSON has no reading.timeZone:\n%s", raw)
	}
	if len(got.Errors) != 2 || got.Errors[0].Code != "time-zone" || got.Errors[0].Row != 2 || got.Errors[1].Row != 3 || got.Errors[0].Column != "H" {
		t.Errorf("errors %+v", got.Errors)
	}
}

// With -time-zone, each date is that wall time in the zone, as epoch
// milliseconds; the reading says so, with a date in words.
func TestCheckReadsDatesInTheTimeZoneGiven(t *testing.T) {
	file := writeFile(t, "bank.csv", bankCSV)
	out := filepath.Join(t.TempDir(), "body.json")
	code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-time-zone", "Europe/Berlin", "-o", out, file)
	if code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout, stderr)
	}
	// 15 Dec 2026 00:00 and 14:30 in Berlin (UTC+1).
	if got := scheduled(t, out); strings.Join(got, ",") != "1797289200000,1797341400000" {
		t.Errorf("scheduledTimestamp %v", got)
	}
	if !strings.Contains(stdout, `reading: dates and times in Europe/Berlin: "15.12.2026" is 15 Dec 2026, 00:00 Europe/Berlin, as you chose.`) {
		t.Errorf("reading:\n%s", stdout)
	}
	_, stdout, _ = runCLI(t, "check", "-kind", "transfers", "-time-zone", "Europe/Berlin", "-lang", "fr", file)
	if !strings.Contains(stdout, "dates et heures dans le fuseau Europe/Berlin\u202f: «\u202f15.12.2026\u202f» correspond au 15 déc. 2026, 00:00 Europe/Berlin, comme vous l’avez choisi.") {
		t.Errorf("reading in French:\n%s", stdout)
	}
}

// An unknown zone is a usage error naming it, for check and submit alike.
func TestAnUnknownTimeZoneIsAUsageError(t *testing.T) {
	file := writeFile(t, "bank.csv", bankCSV)
	for _, args := range [][]string{
		{"check", "-kind", "transfers", "-time-zone", "Europe/Berln", file},
		{"submit", "-kind", "transfers", "-api-url", "http://127.0.0.1:9", "-journal", filepath.Join(t.TempDir(), "j.db"), "-time-zone", "Europe/Berln", file},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, `"Europe/Berln" is not a time zone`) {
			t.Errorf("%s: exit %d, stderr %q", args[0], code, stderr)
		}
	}
}

// The mapping file keeps the zone: -save-mapping writes it, -mapping
// reads the next file with it, and -time-zone wins over it.
func TestTheMappingFileKeepsTheTimeZone(t *testing.T) {
	file := writeFile(t, "bank.csv", bankCSV)
	dir := t.TempDir()
	mapping, out := filepath.Join(dir, "bank.mapping.json"), filepath.Join(dir, "body.json")
	if code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-time-zone", "Europe/Berlin", "-save-mapping", mapping, file); code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(mapping)
	if err != nil || !strings.Contains(string(data), `"timeZone": "Europe/Berlin"`) {
		t.Fatalf("mapping file %s (%v)", data, err)
	}
	if code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-mapping", mapping, "-o", out, file); code != exitOK {
		t.Fatalf("with the mapping: exit %d:\n%s\n%s", code, stdout, stderr)
	}
	if got := scheduled(t, out); strings.Join(got, ",") != "1797289200000,1797341400000" {
		t.Errorf("with the mapping: scheduledTimestamp %v", got)
	}
	// New York is six hours behind Berlin in December.
	if code, stdout, stderr := runCLI(t, "check", "-kind", "transfers", "-mapping", mapping, "-time-zone", "America/New_York", "-o", out, file); code != exitOK {
		t.Fatalf("with the mapping and a flag: exit %d:\n%s\n%s", code, stdout, stderr)
	}
	if got := scheduled(t, out); strings.Join(got, ",") != "1797310800000,1797363000000" {
		t.Errorf("the flag did not win: scheduledTimestamp %v", got)
	}
}

// scheduled returns the scheduledTimestamp of each element of a request
// body written by -o.
func scheduled(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var body []struct {
		RequestBody struct {
			ScheduledTimestamp string `json:"scheduledTimestamp"`
		} `json:"requestBody"`
	}
	if err := json.Unmarshal(data, &body); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	var out []string
	for _, e := range body {
		out = append(out, e.RequestBody.ScheduledTimestamp)
	}
	return out
}
