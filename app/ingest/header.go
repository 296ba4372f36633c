package ingest

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// headerScan is how many rows from the top may hold the header: titles,
// dates and notes above it are common, dozens of them are not.
const headerScan = 30

// detectHeader returns the number of the row that most likely holds the
// column headers: the one with the most headers that map to fields, or,
// when none does, the first row of several text cells above a row of
// values.
func detectHeader(t *Table, mt *matcher) int {
	if t.Keyed {
		return 0
	}
	best, bestScore := 0, -1
	fallback := 0
	n := min(len(t.Rows), headerScan)
	for i := range n {
		r := &t.Rows[i]
		matched, texts, values := 0, 0, 0
		for _, c := range r.Cells {
			if c.Empty() {
				continue
			}
			values++
			if c.Kind == Text && !looksNumeric(c.Value) {
				texts++
				if p, _ := mt.match(c.Value); p != "" {
					matched++
				}
			}
		}
		if matched > 0 && matched*10+texts > bestScore {
			best, bestScore = r.Number, matched*10+texts
		}
		if fallback == 0 && texts >= 2 && texts == values && i+1 < len(t.Rows) {
			fallback = r.Number
		}
	}
	switch {
	case bestScore >= 0:
		return best
	case fallback > 0:
		return fallback
	case len(t.Rows) > 0:
		return t.Rows[0].Number
	}
	return 1
}

// looksNumeric reports text that is a number, a date or an amount rather
// than a header.
func looksNumeric(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(" .,-+/:'€$£%", r):
		default:
			return false
		}
	}
	return digits > 0
}

// headerDecision says how the header row of t was found; its Value is
// filled in from the mapping.
func headerDecision(t *Table, mt *matcher) reading.Decision {
	if t.Keyed {
		return reading.Decision{How: reading.Detected}
	}
	return reading.Decision{How: reading.Detected}
}
