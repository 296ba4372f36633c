package jobs

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// newImport prepares the import of table t as d's kind, in the time zone
// the operator chose for d's dates (in Settings, or while reading it),
// unless the table declares its own.
func (s *Server) newImport(d *LoadedFile, t *ingest.Table) *ingest.Import {
	im := ingest.NewImport(t, d.Kind, s.validator)
	if d.timeZone != "" && im.Settings().TimeZone == "" {
		st := im.Settings()
		st.TimeZone = d.timeZone
		// The zone was checked when it was chosen.
		_ = im.SetSettings(st, wire.SettingTimeZone)
	}
	return im
}

// maxTimes is how many distinct times a schedule names one by one; of
// more, it names the first and the last.
const maxTimes = 3

// schedule says when the timestamps of d's elements fall (those of only,
// when not nil), one line per timestamp field of the kind that some
// element fills: the field's name, then each distinct moment in words in
// the document's time zone (UTC when it has none) with how many elements
// it is, or the first and the last of many, and how many leave it out.
func (s *Server) schedule(d *LoadedFile, only []int, w lang.Tag) []string {
	if d.Kind == nil || d.review == nil {
		return nil
	}
	loc := time.UTC
	if d.im != nil {
		if z, err := time.LoadLocation(d.im.Settings().TimeZone); err == nil && d.im.Settings().TimeZone != "" {
			loc = z
		}
	}
	lines := d.times.of(d.review)
	if lines == nil || only != nil {
		lines = s.scheduleCounts(d.Kind)
		countTimes(d, only, lines)
	}
	var out []string
	for _, l := range lines {
		if line := l.line(loc, w); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// scheduleCounts returns a count of each timestamp field of kind k.
func (s *Server) scheduleCounts(k *schema.Kind) []*scheduleCount {
	var lines []*scheduleCount
	for _, f := range s.validator.Fields(k) {
		if f.Timestamp {
			lines = append(lines, newScheduleCount(f))
		}
	}
	return lines
}

// countTimes counts the times of d's elements (those of only, when not
// nil) into lines.
func countTimes(d *LoadedFile, only []int, lines []*scheduleCount) {
	if len(lines) == 0 {
		return
	}
	if d.im != nil && only == nil {
		// A table's rows are built once each, into maps reused for the
		// next row, for every timestamp field at once.
		d.review.EachElement(func(_ int, v any) {
			for _, l := range lines {
				l.add(v)
			}
		})
		return
	}
	// One element at a time: a request body's are kept as its bytes, and
	// a field outside lists is read without decoding them.
	n, pick := d.review.Len(), func(k int) int { return k }
	if only != nil {
		n, pick = len(only), func(k int) int { return only[k] }
	}
	for k := range n {
		for _, l := range lines {
			l.addAt(d.review, pick(k))
		}
	}
}

// A scheduleCount counts the moments of one timestamp field's values.
type scheduleCount struct {
	f schema.Field
	// in is "requestBody" or "pathParams", parts the path below it;
	// list says a part is a list's items ("spendLimit[]").
	in     string
	parts  []string
	tokens []string
	list   bool
	counts map[int64]int
	// level and next hold the values at a part of the path, read flat.
	level, next []schema.Flat
	// without counts the elements that fill it nowhere.
	without int
}

func newScheduleCount(f schema.Field) *scheduleCount {
	in, parts := "requestBody", strings.Split(f.Path, ".")
	if parts[0] == "pathParams" {
		in, parts = "pathParams", parts[1:]
	}
	return &scheduleCount{
		f: f, in: in, parts: parts, tokens: append([]string{in}, parts...),
		list:   slices.ContainsFunc(parts, func(p string) bool { return strings.HasSuffix(p, "[]") }),
		counts: map[int64]int{},
	}
}

// add counts the field's values in element v.
func (c *scheduleCount) add(v any) {
	m, _ := v.(map[string]any)
	if c.list {
		c.addValues(valuesAt(m[c.in], c.parts))
		return
	}
	x := any(m)
	for _, t := range c.tokens {
		obj, _ := x.(map[string]any)
		x = obj[t]
	}
	c.addValues([]any{x})
}

// addPass counts the field's values in an element of the review's first
// pass.
func (c *scheduleCount) addPass(e *review.PassElement) {
	if f, ok := e.Flat(); ok && c.list {
		c.addFlat(f)
		return
	}
	if c.list {
		m, _ := e.Value().(map[string]any)
		c.addValues(valuesAt(m[c.in], c.parts))
		return
	}
	c.addValues([]any{e.ValueAt(c.tokens)})
}

// addFlat counts the field's values in an element read flat, as add
// counts them in the element decoded (valuesAt, millis).
func (c *scheduleCount) addFlat(f schema.Flat) {
	c.level = c.level[:0]
	if in, ok := f.Member(c.in); ok {
		c.level = append(c.level, in)
	}
	for _, part := range c.parts {
		name, list := strings.CutSuffix(part, "[]")
		c.next = c.next[:0]
		for _, v := range c.level {
			if v.Kind() != schema.FlatObject {
				continue
			}
			x, ok := v.Member(name)
			switch {
			case !ok:
			case list && x.Kind() == schema.FlatArray:
				x.Each(func(_ []byte, item schema.Flat) { c.next = append(c.next, item) })
			case !list:
				c.next = append(c.next, x)
			}
		}
		c.level, c.next = c.next, c.level
	}
	found := false
	for _, v := range c.level {
		if k := v.Kind(); k != schema.FlatString && k != schema.FlatNumber {
			continue
		}
		if ms, err := strconv.ParseInt(string(v.Text()), 10, 64); err == nil {
			c.counts[ms]++
			found = true
		}
	}
	if !found {
		c.without++
	}
}

// addAt counts the field's values in element i of a request body, read
// without decoding it unless the path goes through a list.
func (c *scheduleCount) addAt(d *review.Document, i int) {
	if c.list {
		m, _ := d.Element(i).(map[string]any)
		c.addValues(valuesAt(m[c.in], c.parts))
		return
	}
	c.addValues([]any{d.ValueAt(i, c.tokens)})
}

func (c *scheduleCount) addValues(vs []any) {
	found := false
	for _, v := range vs {
		if ms, ok := millis(v); ok {
			c.counts[ms]++
			found = true
		}
	}
	if !found {
		c.without++
	}
}

// line says when the field's values fall; "" when no element fills it.
func (c *scheduleCount) line(loc *time.Location, w lang.Tag) string {
	counts, without := c.counts, c.without
	if len(counts) == 0 {
		return ""
	}
	times := make([]int64, 0, len(counts))
	for ms := range counts {
		times = append(times, ms)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	moment := func(ms int64) string { return w.Moment(time.UnixMilli(ms).In(loc)) }
	var said []string
	if len(times) <= maxTimes {
		for _, ms := range times {
			said = append(said, w.F("%s (%s)", moment(ms), w.Plural(counts[ms], "element", "elements")))
		}
	} else {
		said = append(said, w.F("from %s to %s, %s", moment(times[0]), moment(times[len(times)-1]), w.Plural(len(times), "different time", "different times")))
	}
	if without > 0 {
		said = append(said, w.F("none for %s", w.Plural(without, "element", "elements")))
	}
	line := w.F("%s: %s", w.T(c.f.Title), w.Clauses(said...))
	return line
}

// valuesAt returns the values at a path's parts below v, every item's
// of a list ("spendLimit[]", "startTimestamp").
func valuesAt(v any, parts []string) []any {
	cur := []any{v}
	for _, part := range parts {
		name, list := strings.CutSuffix(part, "[]")
		var next []any
		for _, c := range cur {
			m, _ := c.(map[string]any)
			x, ok := m[name]
			if !ok {
				continue
			}
			if items, isList := x.([]any); list && isList {
				next = append(next, items...)
			} else if !list {
				next = append(next, x)
			}
		}
		cur = next
	}
	return cur
}

// millis reads epoch milliseconds written as digits or as a number.
func millis(v any) (int64, bool) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = string(x)
	default:
		return 0, false
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	return ms, err == nil
}
