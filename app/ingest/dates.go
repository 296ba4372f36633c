package ingest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
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
	w, err := serialMoment(raw, date1904)
	return w.date, err
}

// serialMoment converts a spreadsheet date serial to the date and time of
// day it stands for: the whole part counts days (see serialDate), the
// fraction is the time of day, kept to the millisecond.
func serialMoment(raw string, date1904 bool) (wallTime, error) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f < 0 || f > 2958465 {
		return wallTime{}, lang.Errorf("%s is not a date serial", raw)
	}
	days := int(f)
	ms := int((f-float64(days))*86400000 + 0.5)
	if ms >= 86400000 {
		days, ms = days+1, 0
	}
	var t time.Time
	switch {
	case date1904:
		t = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	case days == 60:
		return wallTime{date: date{1900, 2, 29}}, lang.Errorf("the date serial 60 is 29 February 1900, a day that did not exist")
	case days < 60:
		t = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	default:
		t = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	}
	if days == 0 && !date1904 {
		return wallTime{}, lang.Errorf("the date serial 0 is no date")
	}
	return wallTime{
		date:    date{t.Year(), int(t.Month()), t.Day()},
		clock:   clock{hour: ms / 3600000, minute: ms / 60000 % 60, second: ms / 1000 % 60, milli: ms % 1000},
		hasTime: ms != 0,
	}, nil
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
	n, w, ok := dateFields(s)
	if !ok {
		return date{}, lang.Errorf("%q is not a date: write it as YYYY-MM-DD", s)
	}
	var d date
	switch {
	case w[0] == 4:
		d = date{n[0], n[1], n[2]}
	case w[2] != 4:
		return date{}, lang.Errorf("%q has a two-digit year, which could be of any century: write it as YYYY-MM-DD", s)
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
		return date{}, lang.Errorf("%q could be %s or %s: set the date order (day first or month first)", s,
			date{n[2], n[1], n[0]}.words(), date{n[2], n[0], n[1]}.words())
	}
	if !d.valid() {
		return date{}, lang.Errorf("%q is not a valid date", s)
	}
	return d, nil
}

// dateFields splits a text date into its three numbers and their widths,
// at runs of '/', '.', '-' and ' ', without allocating: it runs on every
// date of a file. It reports false unless there are exactly three fields
// of one to four digits.
func dateFields(s string) (n, w [3]int, ok bool) {
	k := -1
	inField := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '/' || c == '.' || c == '-' || c == ' ':
			inField = false
		case c >= '0' && c <= '9':
			if !inField {
				if k++; k == 3 {
					return n, w, false
				}
				inField = true
			}
			if w[k]++; w[k] > 4 {
				return n, w, false
			}
			n[k] = n[k]*10 + int(c-'0')
		default:
			return n, w, false
		}
	}
	return n, w, k == 2
}

// words is the date as an argument of a message: in words in the
// operator's language ("3. Apr. 2025"), or as written when it is no day.
func (d date) words() any {
	if !d.valid() {
		return d.String()
	}
	return lang.Day(time.Date(d.y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC))
}

// dateOrderEvidence says what a text date tells about the order: DMY when
// the first number cannot be a month, MDY when the second cannot, YMD for
// four digits first, "" when it does not tell. A time of day after the
// date ("15.12.2026 14:30") is left aside.
func dateOrderEvidence(s string) string {
	day, _ := splitMoment(strings.TrimSpace(s))
	n, w, ok := dateFields(day)
	if !ok {
		return ""
	}
	if w[0] == 4 {
		return YMD
	}
	switch {
	case n[0] > 12 && n[1] <= 12:
		return DMY
	case n[1] > 12 && n[0] <= 12:
		return MDY
	}
	return ""
}
