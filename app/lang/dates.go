package lang

import (
	"fmt"
	"time"
)

// dateTimeLayouts write a moment as each language does, to the second,
// in 24 hours: operators compare these with the API's logs.
var dateTimeLayouts = map[Tag]string{
	English: "2006-01-02 15:04:05",
	German:  "02.01.2006, 15:04:05",
	French:  "02/01/2006 15:04:05",
}

// Time writes the time of day of t, in its own location, to the second:
// the same 24-hour clock in every language the console speaks.
func (l Tag) Time(t time.Time) string { return t.Format("15:04:05") }

// DateTime writes t, in its own location, as the language writes a date
// and a time.
func (l Tag) DateTime(t time.Time) string {
	layout, ok := dateTimeLayouts[l]
	if !ok {
		layout = dateTimeLayouts[English]
	}
	return t.Format(layout)
}

// monthAbbreviations are the months as each language abbreviates them in
// a date written out (CLDR's abbreviated forms).
var monthAbbreviations = map[Tag][12]string{
	English: {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
	German:  {"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."},
	French:  {"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."},
}

// Day writes the calendar day of t, in its own location, in words: "15
// Dec 2026", "15. Dez. 2026", "15 déc. 2026". A month in words cannot be
// read as another day, whatever order the reader expects.
func (l Tag) Day(t time.Time) string {
	months, ok := monthAbbreviations[l]
	if !ok {
		months = monthAbbreviations[English]
	}
	if l == German {
		return fmt.Sprintf("%d. %s %d", t.Day(), months[t.Month()-1], t.Year())
	}
	return fmt.Sprintf("%d %s %d", t.Day(), months[t.Month()-1], t.Year())
}

// Moment writes t, in its own location, in words with the location's
// name, to the minute, or to the second or millisecond when it has them:
// "15 Dec 2026, 00:00 Europe/Berlin", "15. Dez. 2026, 14:30
// Europe/Berlin", "15 déc. 2026, 14:30:05 Europe/Berlin". It is how a
// timestamp read from a date is shown back before it is sent.
func (l Tag) Moment(t time.Time) string {
	return l.Day(t) + ", " + l.clock(t) + " " + t.Location().String()
}

// clock writes the time of day of t to the minute, or to the second or
// millisecond when it has them: "14:30", "14:30:05,250".
func (l Tag) clock(t time.Time) string {
	switch {
	case t.Nanosecond()/1e6 != 0:
		return t.Format("15:04:05") + string(l.Separators().Decimal) + fmt.Sprintf("%03d", t.Nanosecond()/1e6)
	case t.Second() != 0:
		return t.Format("15:04:05")
	}
	return t.Format("15:04")
}

// dateLayouts write a calendar day as each language writes it in digits.
var dateLayouts = map[Tag]string{
	English: "2006-01-02",
	German:  "02.01.2006",
	French:  "02/01/2006",
}

// Date writes the day of t, in its own location, in digits as the
// language writes it, and with clock its time of day, to the minute or,
// when t has them, to the second or millisecond: "15.06.2027, 09:00" in
// German, "15/06/2027 09:00" in French, "2027-06-15 09:00" in English. It
// is how a date cell of a spreadsheet is shown in a message.
func (l Tag) Date(t time.Time, clock bool) string {
	layout, ok := dateLayouts[l]
	if !ok {
		layout = dateLayouts[English]
	}
	day := t.Format(layout)
	if !clock {
		return day
	}
	if l == German {
		return day + ", " + l.clock(t)
	}
	return day + " " + l.clock(t)
}
