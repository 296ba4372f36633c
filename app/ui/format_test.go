package ui

import (
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := plural(1, "element", "elements"); got != "1 element" {
		t.Errorf("plural(1) = %q", got)
	}
	if got := plural(10000, "element", "elements"); got != "10,000 elements" {
		t.Errorf("plural(10000) = %q", got)
	}
}

func TestProblemPlace(t *testing.T) {
	for _, tc := range []struct {
		p    wire.Problem
		want string
	}{
		{wire.Problem{Element: wire.RequestLevel}, "Whole file"},
		// A row of the file that is no element, such as its total row.
		{wire.Problem{Element: wire.RequestLevel, Row: 9, Column: "F"}, "Row 9, column F"},
		{wire.Problem{Element: 12, Field: "destinationAmount.currency"}, "Element 12 · destinationAmount.currency"},
		{wire.Problem{Element: 1200}, "Element 1,200"},
		{wire.Problem{Element: 3, Sheet: "Transfers", Row: 14, Column: "F", Field: "destinationAmount.amount"}, "Sheet Transfers, row 14, column F · destinationAmount.amount"},
		{wire.Problem{Element: 3, Row: 5, Column: "B"}, "Row 5, column B"},
	} {
		if got := problemPlace(tc.p); got != tc.want {
			t.Errorf("problemPlace(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
	// With the file's fields known, a field is named by its title too,
	// an item of a list by the list's field.
	setFieldTitles([]wire.Target{{Path: "destinationAmount.amount", Title: "Amount"}, {Path: "spendLimit[].interval", Title: "Interval"}})
	defer setFieldTitles(nil)
	for p, want := range map[wire.Problem]string{
		{Element: 2, Field: "destinationAmount.amount"}: "Element 2 · Amount (destinationAmount.amount)",
		{Element: 2, Field: "spendLimit[3].interval"}:   "Element 2 · Interval (spendLimit[3].interval)",
		{Element: 2, Field: "description"}:              "Element 2 · description",
	} {
		if got := problemPlace(p); got != want {
			t.Errorf("problemPlace(%+v) = %q, want %q", p, got, want)
		}
	}
}

func TestEveryRouteHasAPageTitleAndName(t *testing.T) {
	seen := make(map[string]bool)
	for _, r := range routes {
		// A page is in the navigation bar, or belongs to an entry of it.
		if r.title == "" || (r.nav == "") == (r.section == "") || r.page == nil || seen[r.path] {
			t.Errorf("route %+v", r)
		}
		if r.section != "" && routeOf(r.section).nav == "" {
			t.Errorf("route %s belongs to %s, which is not in the bar", r.path, r.section)
		}
		seen[r.path] = true
		if routeOf(r.path).path != r.path {
			t.Errorf("routeOf(%s) = %s", r.path, routeOf(r.path).path)
		}
	}
	if routeOf("/nowhere").path != "/" {
		t.Error("an unknown path does not fall back to the home page")
	}
}

// A bulk that ends the day it started names the day once, in any
// language's layout of dates.
func TestExecutedTextNamesTheDayOnce(t *testing.T) {
	defer setLanguage(lang.English)
	start := time.Date(2026, 11, 27, 9, 5, 0, 0, time.Local)
	sameDay := wire.BulkInfo{Started: start.UnixMilli(), Finished: start.Add(time.Hour).UnixMilli()}
	nextDay := wire.BulkInfo{Started: start.UnixMilli(), Finished: start.Add(24 * time.Hour).UnixMilli()}
	for _, tc := range []struct {
		l    lang.Tag
		b    wire.BulkInfo
		want string
	}{
		{lang.English, sameDay, "2026-11-27 09:05:00 to 10:05:00"},
		{lang.English, nextDay, "2026-11-27 09:05:00 to 2026-11-28 09:05:00"},
		{lang.German, sameDay, "27.11.2026, 09:05:00 bis 10:05:00"},
	} {
		setLanguage(tc.l)
		if got := executedText(tc.b); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.l, got, tc.want)
		}
	}
}
