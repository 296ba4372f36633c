package lang

import "time"

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
