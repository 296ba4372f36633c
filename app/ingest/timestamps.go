package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// The rules of this file read the fields that take a moment as epoch
// milliseconds (schema.Field.Timestamp: a payment's scheduledTimestamp, a
// spend limit's startTimestamp) from what operators write: date cells,
// with or without a time of day, and text dates and date-times
// ("15.12.2026", "15/12/2026 14:30:00", "2026-12-15T14:30") in the order
// Settings.DateOrder reads. Digits are milliseconds already and are read
// as before. The time zone is never guessed: a date is that wall time in
// the zone the operator chose (Settings.TimeZone), 00:00 for a date alone;
// without a zone it is an error at its cell, and so is a wall time that a
// change of clocks skips or repeats.

// A clock is a time of day, to the millisecond.
type clock struct{ hour, minute, second, milli int }

// A wallTime is a date and a time of day as a file holds them, in no time
// zone unless written with a UTC offset ("2026-12-15T14:30:00+01:00",
// "…Z"): then offset is it, in seconds east of UTC.
type wallTime struct {
	date
	clock
	hasTime   bool
	hasOffset bool
	offset    int
}

// String writes the wall time as ISO 8601 does, with a space: the date,
// and its time of day when it has one (to the second when it has one).
func (w wallTime) String() string {
	switch {
	case !w.hasTime:
		return w.date.String()
	case w.milli != 0:
		return fmt.Sprintf("%s %02d:%02d:%02d.%03d", w.date, w.hour, w.minute, w.second, w.milli)
	case w.second != 0:
		return fmt.Sprintf("%s %02d:%02d:%02d", w.date, w.hour, w.minute, w.second)
	}
	return fmt.Sprintf("%s %02d:%02d", w.date, w.hour, w.minute)
}

// utc is the wall time's date and time of day as if in UTC.
func (w wallTime) utc() time.Time {
	return time.Date(w.y, time.Month(w.m), w.d, w.hour, w.minute, w.second, w.milli*1e6, time.UTC)
}

// splitMoment cuts a text date-time into its date and its time of day
// ("15.12.2026 14:30", "2026-12-15T14:30"): the time is what follows the
// last 'T' or space, when it starts with a digit and holds a colon.
func splitMoment(s string) (day, tod string) {
	i := strings.LastIndexAny(s, "T ")
	if i <= 0 || i == len(s)-1 || !isDigit(rune(s[i+1])) || !strings.Contains(s[i+1:], ":") {
		return s, ""
	}
	return strings.TrimRight(s[:i], " "), s[i+1:]
}

// parseTextMoment reads a text date, with a time of day or without, the
// date in the given order (see parseTextDate).
func parseTextMoment(s, order string) (wallTime, error) {
	s = strings.TrimSpace(s)
	day, tod := splitMoment(s)
	d, err := parseTextDate(day, order)
	if err != nil {
		return wallTime{}, err
	}
	w := wallTime{date: d}
	if tod == "" {
		return w, nil
	}
	if !parseClock(tod, &w) {
		return wallTime{}, badClock{s, tod}
	}
	return w, nil
}

// badClock is a text date-time whose time of day does not read.
type badClock struct{ s, tod string }

func (b badClock) Error() string {
	return fmt.Sprintf("%q has the time of day %q, which is not a time", b.s, b.tod)
}

// parseClock reads a time of day, H:MM, H:MM:SS or H:MM:SS.fff, with a
// UTC offset or not (Z, +01:00, +0100, +01), into w.
func parseClock(s string, w *wallTime) bool {
	if strings.HasSuffix(s, "Z") {
		s, w.hasOffset = s[:len(s)-1], true
	} else if i := strings.LastIndexAny(s, "+-"); i > 0 {
		off, ok := parseOffset(s[i:])
		if !ok {
			return false
		}
		s, w.hasOffset, w.offset = s[:i], true, off
	}
	n := [4]int{}
	width := [4]int{}
	k := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if width[k]++; width[k] > 3 || k < 3 && width[k] > 2 {
				return false
			}
			n[k] = n[k]*10 + int(c-'0')
		case c == ':' && k < 2 && width[k] > 0:
			k++
		case (c == '.' || c == ',') && k == 2 && width[k] > 0:
			k++
		default:
			return false
		}
	}
	if k == 0 || width[1] != 2 || k >= 2 && width[2] != 2 || k == 3 && width[3] == 0 {
		return false
	}
	for width[3] < 3 && k == 3 {
		n[3], width[3] = n[3]*10, width[3]+1
	}
	if n[0] > 23 || n[1] > 59 || n[2] > 59 {
		return false
	}
	w.clock, w.hasTime = clock{n[0], n[1], n[2], n[3]}, true
	return true
}

// parseOffset reads a UTC offset: +01:00, +0100 or +01.
func parseOffset(s string) (int, bool) {
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(s[1:], ":", "")
	if (len(digits) != 2 && len(digits) != 4) || !allDigits(digits) {
		return 0, false
	}
	h, _ := strconv.Atoi(digits[:2])
	m := 0
	if len(digits) == 4 {
		m, _ = strconv.Atoi(digits[2:])
	}
	if h > 14 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

// zones keeps the time zones loaded, by name: loading one reads the
// zone database every time.
var zones sync.Map

// loadZone returns the IANA time zone of a name. "Local" is refused: it
// is whatever zone the machine reading the file is set to, a guess.
func loadZone(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil || name == "" || name == "Local" {
		return nil, lang.Errorf("%q is not a time zone: give its IANA name, such as Europe/Berlin, Europe/Paris or UTC", name)
	}
	zones.Store(name, l)
	return l, nil
}

// at returns the moment w names in loc, or its own offset's. A wall time
// that a change of clocks skips names no moment, one it repeats names
// two: both are refused with what to write instead. raw is the cell as
// the operator sees it.
func (w wallTime) at(loc *time.Location, raw string) (time.Time, *cellProblem) {
	wall := w.utc()
	if w.hasOffset {
		return wall.Add(-time.Duration(w.offset) * time.Second), nil
	}
	// The instants whose wall time in loc this is: one for each offset
	// loc uses around it that gives the same wall time back.
	var found []time.Time
	for _, probe := range []time.Duration{-36 * time.Hour, 0, 36 * time.Hour} {
		_, off := wall.Add(probe).In(loc).Zone()
		t := wall.Add(-time.Duration(off) * time.Second)
		if _, o := t.In(loc).Zone(); o == off && !slices.ContainsFunc(found, t.Equal) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		next := time.Date(w.y, time.Month(w.m), w.d, w.hour, w.minute, w.second, w.milli*1e6, loc)
		return time.Time{}, cellError("time-zone-gap", "%q does not exist in %s: the clocks go forward at that hour, when daylight saving time begins; write a time that exists, such as %s",
			raw, loc.String(), next.Format("15:04"))
	case 1:
		return found[0].In(loc), nil
	}
	return time.Time{}, cellError("time-zone-overlap", "%q happens twice in %s: the clocks go back at that hour, when daylight saving time ends; write it with its UTC offset, %s or %s",
		raw, loc.String(), withOffset(found[0].In(loc)), withOffset(found[1].In(loc)))
}

// withOffset writes a moment as the operator can type it to name it
// alone: 2026-10-25T02:30+02:00.
func withOffset(t time.Time) string {
	if t.Second() != 0 || t.Nanosecond() != 0 {
		return t.Format("2006-01-02T15:04:05.000-07:00")
	}
	return t.Format("2006-01-02T15:04-07:00")
}

// isMoment reports a cell of a timestamp field that holds a date rather
// than milliseconds: a date cell, an ISO date the workbook stores as
// such, or text that is not a whole number.
func (rd *reader) isMoment(c Cell) bool {
	switch c.Kind {
	case Number:
		return rd.Table.IsDate(c)
	case DateText:
		return true
	case Text:
		s := strings.TrimLeft(text(c), "+-")
		return s != "" && !allDigits(s)
	}
	return false
}

// holdsMoments reports a timestamp column with a date among its first
// values: its examples show how they read.
func (rd *reader) holdsMoments(col *column) bool {
	if !col.target.Field.Timestamp || col.index < 0 {
		return false
	}
	seen := 0
	for i := rd.firstDataRow(); i < len(rd.Table.Rows) && seen < sampleRows; i++ {
		c := rd.Table.Rows[i].Cell(col.index)
		if c.Empty() {
			continue
		}
		if rd.isMoment(c) {
			return true
		}
		seen++
	}
	return false
}

// readMoment reads the date and time of day a cell holds.
func (rd *reader) readMoment(c Cell) (wallTime, *cellProblem) {
	var w wallTime
	var err error
	switch c.Kind {
	case Number:
		w, err = serialMoment(c.Value, rd.Table.Date1904)
	case DateText:
		w, err = parseTextMoment(c.Value, YMD)
	default:
		s := text(c)
		if day, _ := splitMoment(s); !hasDateFields(day) {
			return w, cellError("timestamp", "%q is not a date: write it as 15.12.2026, 2026-12-15 or 15.12.2026 14:30, or as milliseconds since 1 January 1970 UTC", s)
		}
		w, err = parseTextMoment(s, rd.settings.DateOrder)
	}
	var clockErr badClock
	switch {
	case errors.As(err, &clockErr):
		return w, cellError("date", "%q has the time of day %q, which is not a time: write it as 14:30 or 14:30:00", clockErr.s, clockErr.tod)
	case err != nil:
		return w, cellFailure("date", err)
	}
	return w, nil
}

// A stampCache keeps what the dates of one column read as, for the
// settings they were read with: most files repeat a few payment dates
// down the whole column, and reading one takes a zone's rules.
type stampCache struct {
	zone, order string
	values      map[stampKey]stampRead
}

type stampKey struct {
	kind  CellKind
	value string
}

type stampRead struct {
	v any
	p *cellProblem
}

// maxStamps bounds the dates a column keeps.
const maxStamps = 4096

// readTimestamp reads a cell of a timestamp field: digits as the field's
// type reads them, a date or date-time as the milliseconds of that moment
// in the chosen time zone.
func (rd *reader) readTimestamp(c Cell, col *column) (any, *cellProblem) {
	f := col.target.Field
	if !rd.isMoment(c) {
		if f.Type == "integer" {
			return readInteger(c)
		}
		return rd.readString(c, col)
	}
	s := col.stamps
	if s == nil || s.zone != rd.settings.TimeZone || s.order != rd.settings.DateOrder {
		s = &stampCache{zone: rd.settings.TimeZone, order: rd.settings.DateOrder, values: make(map[stampKey]stampRead)}
		col.stamps = s
	}
	key := stampKey{c.Kind, c.Value}
	if r, ok := s.values[key]; ok {
		return r.v, r.p
	}
	v, p := rd.readMomentOf(c, col)
	if len(s.values) < maxStamps {
		s.values[key] = stampRead{v, p}
	}
	return v, p
}

// readMomentOf reads a date cell of a timestamp field as milliseconds.
func (rd *reader) readMomentOf(c Cell, col *column) (any, *cellProblem) {
	w, p := rd.readMoment(c)
	if p != nil {
		return nil, p
	}
	t, p := rd.instant(w, rd.Table.DisplayIn(c, rd.v.Language()))
	if p != nil {
		return nil, p
	}
	ms := strconv.FormatInt(t.UnixMilli(), 10)
	if col.target.Field.Type == "integer" {
		return json.Number(ms), nil
	}
	return ms, nil
}

// TimeZoneCode is the code of the problem of a date read without a time
// zone: the command line names its flag with it.
const TimeZoneCode = "time-zone"

// instant is the moment of a wall time in the chosen time zone.
func (rd *reader) instant(w wallTime, raw string) (time.Time, *cellProblem) {
	if w.hasOffset {
		return w.at(time.UTC, raw)
	}
	if rd.settings.TimeZone == "" {
		return time.Time{}, cellError(TimeZoneCode, "%q is a date, but no time zone is chosen to read it in: choose the time zone of the file's dates and times, such as Europe/Berlin", raw)
	}
	loc, err := loadZone(rd.settings.TimeZone)
	if err != nil {
		return time.Time{}, cellFailure("time-zone", err)
	}
	return w.at(loc, raw)
}

// hasDateFields reports text shaped as a date: three numbers.
func hasDateFields(s string) bool {
	_, _, ok := dateFields(s)
	return ok
}

// namesOwnOffset reports a text date-time written with its UTC offset.
func namesOwnOffset(s string) bool {
	_, tod := splitMoment(s)
	var w wallTime
	return strings.ContainsAny(tod, "Z+-") && parseClock(tod, &w) && w.hasOffset
}

// zoneWhy is why a date cell asks for a time zone, as evidence.
var zoneWhy = lang.Mark("a date names a moment only in a time zone")

// noteMoment records, for the time-zone decision, a cell of a timestamp
// column that holds a date; it is a no-op for milliseconds.
func (rd *reader) noteMoment(zone *zoneEvidence, r *Row, col int, c Cell) {
	if !rd.isMoment(c) {
		return
	}
	if c.Kind != Number && namesOwnOffset(text(c)) {
		return // it names its moment alone
	}
	zone.count++
	zone.columns[col] = true
	if len(zone.cells) < keepZoneCells {
		zone.cells = append(zone.cells, rd.evidence(r, col, c, "", rd.v.Language().T(zoneWhy)))
	}
}

// noteSetMoments records, for the time-zone decision, a date set for
// every row of a timestamp field (Mapping.Values): it needs a zone as a
// cell does, and is shown by its field, having no cell.
func (rd *reader) noteSetMoments(zone *zoneEvidence) {
	for i := range rd.cols {
		col := &rd.cols[i]
		if !col.set || !col.target.Field.Timestamp || !rd.isMoment(col.value) || namesOwnOffset(text(col.value)) {
			continue
		}
		zone.count++
		if len(zone.cells) < keepZoneCells {
			zone.cells = append(zone.cells, reading.Cell{Sheet: rd.Table.Sheet, Column: col.target.Path, Raw: rd.Table.DisplayIn(col.value, rd.v.Language()), Why: rd.v.Language().T(zoneWhy)})
		}
	}
}

// keepZoneCells is how many date cells the time-zone decision shows.
const keepZoneCells = 5

// zoneEvidence gathers the date cells of the timestamp columns, and
// the columns (by index) they are in.
type zoneEvidence struct {
	count   int
	columns map[int]bool
	cells   []reading.Cell
}

// decision is the time-zone decision the dates of a file leave: none
// when it has no dates in timestamp columns, else undecided until the
// operator chooses a zone.
func (z *zoneEvidence) decision(rd *reader) reading.Decision {
	rd.noteSetMoments(z)
	t := rd.Table
	if z.count == 0 {
		return reading.Decision{}
	}
	names := make(map[string]bool, len(z.columns))
	for col := range z.columns {
		names[t.ColumnName(col)] = true
	}
	return reading.Decision{How: reading.Default, Undecided: true, Column: columnNames(names), Evidence: z.cells}
}

// zoneExample is the first date cell of the time-zone evidence, its Why
// the moment it reads as in the chosen zone, in words; false when it does
// not read.
func (rd *reader) zoneExample(d reading.Decision) (reading.Cell, bool) {
	if len(d.Evidence) == 0 {
		return reading.Cell{}, false
	}
	e := d.Evidence[0]
	k := rd.Table.RowIndex(e.Row)
	if k < 0 || e.Sheet != rd.Table.Sheet {
		return reading.Cell{}, false
	}
	for i := range rd.cols {
		col := &rd.cols[i]
		if col.index < 0 || !col.target.Field.Timestamp || rd.Table.ColumnName(col.index) != e.Column {
			continue
		}
		v, p := rd.readTimestamp(rd.Table.Rows[k].Cell(col.index), col)
		if p != nil || v == nil {
			return reading.Cell{}, false
		}
		e.Suggests, e.Why = rd.settings.TimeZone, rd.describeTimestamp(v, rd.v.Language())
		return e, true
	}
	return reading.Cell{}, false
}

// describeTimestamp writes a timestamp field's value for people: the
// moment in words, in the chosen time zone (UTC when none is).
func (rd *reader) describeTimestamp(v any, l lang.Tag) string {
	ms, ok := wholeNumber(v)
	if !ok {
		return fmt.Sprint(v)
	}
	loc := time.UTC
	if z, err := loadZone(rd.settings.TimeZone); err == nil {
		loc = z
	}
	return l.Moment(time.UnixMilli(ms).In(loc))
}
