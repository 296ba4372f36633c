package ingest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Date orders of text dates with numbers only.
const (
	DMY = "DMY"
	MDY = "MDY"
	YMD = "YMD"
)

// A date is a calendar date without time zone.
type date struct{ y, m, d int }

func (d date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.y, d.m, d.d) }

func (d date) valid() bool {
	if d.m < 1 || d.m > 12 || d.d < 1 || d.y < 1 || d.y > 9999 {
		return false
	}
	return d.d <= time.Date(d.y, time.Month(d.m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// serialDate converts a spreadsheet date serial ("45000", or "45000.75"
// with a time of day, which is dropped) to a date. Serials count days from
// 1900 (with Excel's phantom 29 February 1900) or, in 1904 workbooks, from
// 1904.
func serialDate(raw string, date1904 bool) (date, error) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f < 0 || f > 2958465 {
		return date{}, fmt.Errorf("%s is not a date serial", raw)
	}
	days := int(f)
	var t time.Time
	switch {
	case date1904:
		t = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	case days == 60:
		return date{1900, 2, 29}, fmt.Errorf("serial 60 is 29 February 1900, a day that did not exist")
	case days < 60:
		t = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	default:
		t = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	}
	if days == 0 && !date1904 {
		return date{}, fmt.Errorf("the serial 0 is no date")
	}
	return date{t.Year(), int(t.Month()), t.Day()}, nil
}

// parseTextDate reads a text date: ISO 8601 (with or without a time), or
// three numbers separated by '/', '.', '-' or ' ' in the given order. An
// order "" accepts only what cannot be read two ways.
func parseTextDate(s, order string) (date, error) {
	s = strings.TrimSpace(s)
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil && (len(s) == 10 || s[10] == 'T' || s[10] == ' ') {
			return date{t.Year(), int(t.Month()), t.Day()}, nil
		}
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == '-' || r == ' ' })
	if len(parts) != 3 {
		return date{}, fmt.Errorf("%q is not a date: write it as YYYY-MM-DD", s)
	}
	n := make([]int, 3)
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || len(p) > 4 {
			return date{}, fmt.Errorf("%q is not a date: write it as YYYY-MM-DD", s)
		}
		n[i] = v
	}
	var d date
	switch {
	case len(parts[0]) == 4:
		d = date{n[0], n[1], n[2]}
	case len(parts[2]) != 4:
		return date{}, fmt.Errorf("%q has a two-digit year, which could be of any century: write it as YYYY-MM-DD", s)
	case order == DMY:
		d = date{n[2], n[1], n[0]}
	case order == MDY:
		d = date{n[2], n[0], n[1]}
	case n[0] > 12 && n[1] <= 12:
		d = date{n[2], n[1], n[0]}
	case n[1] > 12 && n[0] <= 12:
		d = date{n[2], n[0], n[1]}
	case n[0] == n[1]:
		d = date{n[2], n[0], n[1]}
	default:
		return date{}, fmt.Errorf("%q could be %s or %s: set the date order (day first or month first)", s,
			date{n[2], n[1], n[0]}.words(), date{n[2], n[0], n[1]}.words())
	}
	if !d.valid() {
		return date{}, fmt.Errorf("%q is not a valid date", s)
	}
	return d, nil
}

func (d date) words() string {
	if !d.valid() {
		return d.String()
	}
	return fmt.Sprintf("%d %s %d", d.d, time.Month(d.m), d.y)
}

// dateOrderEvidence says what a text date tells about the order: DMY when
// the first number cannot be a month, MDY when the second cannot, YMD for
// four digits first, "" when it does not tell.
func dateOrderEvidence(s string) string {
	parts := strings.FieldsFunc(strings.TrimSpace(s), func(r rune) bool { return r == '/' || r == '.' || r == '-' || r == ' ' })
	if len(parts) != 3 {
		return ""
	}
	if len(parts[0]) == 4 {
		return YMD
	}
	a, err1 := strconv.Atoi(parts[0])
	b, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return ""
	}
	switch {
	case a > 12 && b <= 12:
		return DMY
	case b > 12 && a <= 12:
		return MDY
	}
	return ""
}
