package ingest

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/reading"
)

// headerScan is how many rows from the top may hold the header: titles,
// dates and notes above it are common, dozens of them are not.
const headerScan = 30

// A headerRow is a row of the top of a table whose cells map to fields.
type headerRow struct {
	number  int
	matched int
	// score ranks rows: ten points a header that maps to a field, one a
	// cell of text.
	score int
	// cells are the headers that map to a field, for evidence.
	cells []reading.Cell
	// hits are the columns whose header maps, and their fields.
	hits []headerHit
}

// A headerHit is a header that maps to a field.
type headerHit struct {
	col  int
	path string
	cell reading.Cell
}

// headerRows scores the top rows of t as header rows. It returns the
// rows with at least one header that maps to a field, in order, and the
// fallback: the first row of several text cells above a row of values.
func headerRows(t *Table, mt *matcher) (rows []headerRow, fallback int) {
	n := min(len(t.Rows), headerScan)
	for i := range n {
		r := &t.Rows[i]
		hr := headerRow{number: r.Number}
		texts, values := 0, 0
		for col, c := range r.Cells {
			if c.Empty() {
				continue
			}
			values++
			if c.Kind == Text && !looksNumeric(c.Value) {
				texts++
				if p, _ := mt.match(c.Value); p != "" {
					hr.matched++
					cell := reading.Cell{
						Sheet: t.Sheet, Row: r.Number, Column: t.ColumnName(col), Raw: strings.TrimSpace(c.Value),
						Suggests: strconv.Itoa(r.Number), Why: t.w.F("the header of %s", p),
					}
					if len(hr.cells) < keepHeaderCells {
						hr.cells = append(hr.cells, cell)
					}
					hr.hits = append(hr.hits, headerHit{col: col, path: p, cell: cell})
				}
			}
		}
		if hr.matched > 0 {
			hr.score = hr.matched*10 + texts
			rows = append(rows, hr)
		}
		if fallback == 0 && texts >= 2 && texts == values && i+1 < len(t.Rows) {
			fallback = r.Number
		}
	}
	return rows, fallback
}

// keepHeaderCells is how many header cells of one row a decision shows.
const keepHeaderCells = 5

// bestHeaderRows returns the rows of the best score, in order.
func bestHeaderRows(rows []headerRow) []headerRow {
	var best []headerRow
	for _, r := range rows {
		switch {
		case len(best) == 0 || r.score > best[0].score:
			best = append(best[:0], r)
		case r.score == best[0].score:
			best = append(best, r)
		}
	}
	return best
}

// findHeader returns the number of the row that most likely holds the
// column headers, and how it was found. The row with the most headers
// that map to fields is detected, with its headers as evidence; rows that
// tie for the best are undecided (the first of them is read), with the
// headers of each; when no row maps, the first row of several text cells
// above a row of values, else the first row, is read by default.
func findHeader(t *Table, mt *matcher) (int, reading.Decision) {
	if t.Keyed {
		return 0, reading.Decision{How: reading.Detected}
	}
	rows, fallback := headerRows(t, mt)
	best := bestHeaderRows(rows)
	switch len(best) {
	case 0:
		d := reading.Decision{How: reading.Default}
		switch {
		case fallback > 0:
			return fallback, d
		case len(t.Rows) > 0:
			return t.Rows[0].Number, d
		}
		return 1, d
	case 1:
		return best[0].number, reading.Decision{How: reading.Detected, Evidence: best[0].cells}
	}
	d := reading.Decision{How: reading.Default, Undecided: true}
	for _, r := range best {
		d.Evidence = append(d.Evidence, r.cells...)
	}
	return best[0].number, d
}

// detectHeader returns the number of the header row findHeader finds.
func detectHeader(t *Table, mt *matcher) int {
	n, _ := findHeader(t, mt)
	return n
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
