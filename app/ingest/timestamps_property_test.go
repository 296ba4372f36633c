package ingest_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/ingest/internal/xlsxgen"
	"github.com/bulkdesk/bulkdesk/schema"
)

// textForms are the ways a moment is written in a file, the date in the
// order given, and what each keeps of it.
var textForms = []struct {
	layout, order string
	keeps         time.Duration
}{
	{"02.01.2006", ingest.DMY, 24 * time.Hour},
	{"02/01/2006", ingest.DMY, 24 * time.Hour},
	{"01/02/2006", ingest.MDY, 24 * time.Hour},
	{"2006-01-02", ingest.YMD, 24 * time.Hour},
	{"02.01.2006 15:04", ingest.DMY, time.Minute},
	{"2006-01-02T15:04", ingest.YMD, time.Minute},
	{"02/01/2006 15:04:05", ingest.DMY, time.Second},
	{"01/02/2006 15:04:05", ingest.MDY, time.Second},
	{"2006-01-02 15:04:05.000", ingest.YMD, time.Millisecond},
}

// propertyZones hold offsets of every kind: none, whole hours with summer
// time on either side of the equator, half an hour, and a 30-minute
// change of clocks.
var propertyZones = []string{"UTC", "Europe/Berlin", "Europe/Paris", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Australia/Lord_Howe"}

// A moment written in any form, in any zone, then read back with that
// zone, is the same instant, to what the form keeps of it; a wall time
// the zone's clocks repeat is refused, never read as one of the two.
func TestTimestampsWrittenThenReadAreTheSameInstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	lo, hi := time.Date(1971, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, zone := range propertyZones {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range textForms {
			var csv strings.Builder
			csv.WriteString("scheduledTimestamp\n")
			var want []time.Time
			if form.keeps < 24*time.Hour {
				// The hours around each change of clocks, where a wall
				// time is skipped or repeated.
				for _, at := range nearClockChanges(loc, 2026, 2027) {
					fmt.Fprintln(&csv, at.Format(form.layout))
					want = append(want, at)
				}
			}
			for len(want) < 240 {
				at := time.UnixMilli(lo + rng.Int64N(hi-lo)).In(loc)
				if form.keeps == 24*time.Hour {
					at = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, loc)
					if at.Hour() != 0 {
						continue // midnight skipped by the clocks that day
					}
				} else {
					at = at.Truncate(form.keeps)
				}
				fmt.Fprintln(&csv, at.Format(form.layout))
				want = append(want, at)
			}
			im := importOf(t, "p.csv", []byte(csv.String()), "transfers")
			if err := im.SetSettings(ingest.Settings{TimeZone: zone, DateOrder: form.order}); err != nil {
				t.Fatal(err)
			}
			res := im.Build(nil)
			for i, at := range want {
				checkInstant(t, fmt.Sprintf("%s %q %s", zone, form.layout, at.Format(form.layout)), at, loc, res.Value(i), res.Problems(i))
			}
		}
	}
}

// A date cell holds the wall time as a serial number of days: written
// from a moment, it reads back as that moment, to the millisecond.
func TestDateCellsWrittenThenReadAreTheSameInstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	lo, hi := time.Date(1971, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, zone := range propertyZones {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		rows := []xlsxgen.Row{xlsxgen.Texts("scheduledTimestamp")}
		var want []time.Time
		for range 200 {
			at := time.UnixMilli(lo + rng.Int64N(hi-lo)).In(loc)
			wall := time.Date(at.Year(), at.Month(), at.Day(), at.Hour(), at.Minute(), at.Second(), at.Nanosecond(), time.UTC)
			serial := strconv.FormatFloat(float64(wall.Sub(epoch).Milliseconds())/86400000, 'g', 17, 64)
			rows = append(rows, xlsxgen.Row{Cells: []xlsxgen.Cell{{Value: serial, Style: 1}}})
			want = append(want, at)
		}
		book := xlsxgen.Book{Formats: []string{"dd.mm.yyyy hh:mm:ss.000"}, Sheets: []xlsxgen.Sheet{{Name: "S", Rows: rows}}}
		im := importOf(t, "p.xlsx", book.Bytes(), "transfers")
		if err := im.SetSettings(ingest.Settings{TimeZone: zone}); err != nil {
			t.Fatal(err)
		}
		res := im.Build(nil)
		for i, at := range want {
			checkInstant(t, fmt.Sprintf("%s date cell %s", zone, at), at, loc, res.Value(i), res.Problems(i))
		}
	}
}

// nearClockChanges returns moments around each change of loc's clocks in
// the years from..to: before, at, and after it, by less than the change.
func nearClockChanges(loc *time.Location, from, to int) []time.Time {
	var out []time.Time
	at := time.Date(from, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(to+1, 1, 1, 0, 0, 0, 0, time.UTC)
	_, was := at.In(loc).Zone()
	for ; at.Before(end); at = at.Add(15 * time.Minute) {
		if _, off := at.In(loc).Zone(); off != was {
			for _, d := range []time.Duration{-90, -45, -30, -15, 0, 15, 29, 30, 45, 61} {
				out = append(out, at.Add(d*time.Minute).In(loc))
			}
			was = off
		}
	}
	return out
}

// checkInstant holds one element's scheduledTimestamp to at: the same
// milliseconds, or, where at's wall time happens twice in loc, an error
// saying so.
func checkInstant(t *testing.T, what string, at time.Time, loc *time.Location, element map[string]any, problems []schema.Problem) {
	t.Helper()
	twice := false
	for _, d := range []time.Duration{-3 * time.Hour, -time.Hour, -30 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour} {
		other := at.Add(d).In(loc)
		if other.Format("2006-01-02 15:04:05.000") == at.Format("2006-01-02 15:04:05.000") {
			twice = true
		}
	}
	got, _ := valueAt(element, "scheduledTimestamp")
	if twice {
		for _, p := range problems {
			if p.Code == "time-zone-overlap" {
				return
			}
		}
		t.Errorf("%s happens twice, yet reads as %v; problems %v", what, got, problems)
		return
	}
	if got != strconv.FormatInt(at.UnixMilli(), 10) {
		t.Errorf("%s reads as %v, want %d; problems %v", what, got, at.UnixMilli(), problems)
	}
}
