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
	n, pick := d.review.Len(), func(k int) int { return k }
	if only != nil {
		n, pick = len(only), func(k int) int { return only[k] }
	}
	// One element at a time: a request body's are kept as its bytes, and
	// a field outside lists is read without decoding them.
	values := func(k int, in string, parts []string) []any {
		if !slices.ContainsFunc(parts, func(p string) bool { return strings.HasSuffix(p, "[]") }) {
			return []any{d.review.ValueAt(pick(k), append([]string{in}, parts...))}
		}
		m, _ := d.review.Element(pick(k)).(map[string]any)
		return valuesAt(m[in], parts)
	}
	var out []string
	for _, f := range s.validator.Fields(d.Kind) {
		if !f.Timestamp {
			continue
		}
		if line := scheduleLine(f, n, values, loc, w); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// scheduleLine says when one timestamp field's values fall; "" when no
// element fills, of n elements whose values at a path values gives.
func scheduleLine(f schema.Field, n int, values func(k int, in string, parts []string) []any, loc *time.Location, w lang.Tag) string {
	counts := map[int64]int{}
	without := 0
	in, parts := "requestBody", strings.Split(f.Path, ".")
	if parts[0] == "pathParams" {
		in, parts = "pathParams", parts[1:]
	}
	for k := range n {
		found := false
		for _, v := range values(k, in, parts) {
			if ms, ok := millis(v); ok {
				counts[ms]++
				found = true
			}
		}
		if !found {
			without++
		}
	}
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
	line := w.F("%s: %s", w.T(f.Title), w.Clauses(said...))
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
