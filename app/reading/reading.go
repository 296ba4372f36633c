// Package reading holds the decisions taken to read an operator's file:
// the units and separators of its amounts, the order of its dates, its
// encoding and delimiter, its header row and sheet. It is a leaf package,
// shared by the reader (app/ingest), the command line and the console's
// page, which shows the decisions without linking the reader.
//
// # One rule for every decision
//
// A detector looks at every cell that tells something and takes a
// decision only when they all agree. When they disagree, the decision is
// Undecided: its value is the documented default, never the reading a
// minority suggests, and its Evidence lists the cells on each side, those
// of the smaller sides first, so that the operator sees at once the cells
// to look at. The operator's own choice (a flag, the console, a saved
// mapping) always wins and is marked as such.
package reading

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// How says how a decision was taken.
type How string

const (
	// Chosen is a decision the operator took: a command-line flag, a
	// setting in the console, a saved mapping file.
	Chosen How = "flag"
	// Detected is a decision every cell with evidence agreed on.
	Detected How = "detected"
	// Default is the documented default, taken when the file tells
	// nothing, or when its cells disagree (then Undecided is set).
	Default How = "default"
	// Declared is a decision the file itself states: the mark of a
	// Bulkdesk template says which sheet and row hold its data and how
	// its columns are typed.
	Declared How = "template"
)

// A Cell is one place of the file behind a decision, and what it points
// to.
type Cell struct {
	Sheet  string `json:"sheet,omitempty"`
	Row    int    `json:"row,omitempty"`
	Column string `json:"column,omitempty"`
	// Raw is the value as the file holds it.
	Raw string `json:"raw"`
	// Suggests is the reading this cell points to, in the decision's own
	// values ("major", ",", "DMY", "Payroll").
	Suggests string `json:"suggests"`
	// Why says in words why the cell points there.
	Why string `json:"why,omitempty"`
}

// Place names the cell for people: "Pay run!F14", "row 3", "column F".
func (c Cell) Place(w lang.Tag) string {
	var b strings.Builder
	if c.Sheet != "" {
		b.WriteString(c.Sheet)
		b.WriteByte('!')
	}
	switch {
	case c.Column != "" && c.Row > 0 && isLetters(c.Column):
		fmt.Fprintf(&b, "%s%d", c.Column, c.Row)
	case c.Column != "" && c.Row > 0:
		b.WriteString(w.F("row %d, %s", c.Row, c.Column))
	case c.Row > 0:
		b.WriteString(w.F("row %d", c.Row))
	case c.Column != "":
		b.WriteString(w.F("column %s", c.Column))
	}
	return b.String()
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return s != ""
}

// A Decision is how one aspect of the file is read.
type Decision struct {
	// Value is the reading in use: "minor", ".", "DMY", "utf-8", ";",
	// "3" (a header row), a sheet name. "" means none applies (no group
	// separator, no known date order).
	Value string `json:"value"`
	How   How    `json:"how"`
	// Undecided is set when the file's cells disagree: Value is then the
	// default, and the cells that read differently are errors until the
	// operator decides.
	Undecided bool `json:"undecided,omitempty"`
	// Column names the column the evidence comes from, when it is one.
	Column string `json:"column,omitempty"`
	// Evidence lists cells behind the decision: for an undecided one,
	// cells of every side, the smaller sides first.
	Evidence []Cell `json:"evidence,omitempty"`
}

// Reading is every decision taken to read one table of a file. A zero
// Decision is one that does not apply to the file (no encoding for a
// workbook, no dates in a file without date columns).
type Reading struct {
	Units     Decision `json:"units"`
	Decimal   Decision `json:"decimal"`
	Group     Decision `json:"group"`
	DateOrder Decision `json:"dateOrder"`
	// TimeZone is the zone the dates of timestamp fields are read in: an
	// IANA name the operator chose, or, while they have not, undecided
	// with the date cells that need it as evidence (a file never says
	// its zone). Chosen, the first evidence cell's Why is its date read
	// in that zone, in words.
	TimeZone  Decision `json:"timeZone"`
	Encoding  Decision `json:"encoding"`
	Delimiter Decision `json:"delimiter"`
	HeaderRow Decision `json:"headerRow"`
	Sheet     Decision `json:"sheet"`
	// Totals are the rows under the data that add it up: left out, and
	// compared with the elements above them.
	Totals []Total `json:"totals,omitempty"`
}

// Names lists the decisions of a Reading in the order people read them.
var Names = []string{"units", "decimal", "group", "dateOrder", "timeZone", "encoding", "delimiter", "headerRow", "sheet"}

// Get returns the decision of a name of Names.
func (r *Reading) Get(name string) *Decision {
	switch name {
	case "units":
		return &r.Units
	case "decimal":
		return &r.Decimal
	case "group":
		return &r.Group
	case "dateOrder":
		return &r.DateOrder
	case "timeZone":
		return &r.TimeZone
	case "encoding":
		return &r.Encoding
	case "delimiter":
		return &r.Delimiter
	case "headerRow":
		return &r.HeaderRow
	case "sheet":
		return &r.Sheet
	}
	return nil
}

// Undecided names the decisions whose evidence disagrees.
func (r Reading) Undecided() []string {
	var out []string
	for _, n := range Names {
		if r.Get(n).Undecided {
			out = append(out, n)
		}
	}
	return out
}

// NeedsLook reports whether the operator should see how the file is read
// before its review: a decision is undecided, or amounts are read other
// than by default (in major units) without the file saying so.
func (r Reading) NeedsLook() bool {
	return len(r.Undecided()) > 0 || r.Units.Value == Major && r.Units.How != Declared
}

// Amount units.
const (
	// Minor is amounts in minor units, as the API takes them: 1050 is
	// EUR 10.50. It is the default.
	Minor = "minor"
	// Major is amounts as people write them: 10.50 is EUR 10.50.
	Major = "major"
)

// A Tally gathers the evidence of one decision, cell by cell, across a
// whole column or file: it counts every vote and keeps a few cells of
// each side to show, so its memory is bounded whatever the file's size.
type Tally struct {
	// sides are few (two or three values), so a slice beats a map.
	sides []side
}

type side struct {
	value string
	count int
	cells []Cell
}

// keepCells is how many cells of each side a Tally keeps to show.
const keepCells = 5

// Vote records that cell c suggests c.Suggests.
func (t *Tally) Vote(c Cell) {
	if t.Count1(c.Suggests) {
		t.Keep(c)
	}
}

// Count1 counts one vote for v without its cell, and reports whether the
// Tally still wants a cell of that side: then pass it to Keep. Detectors
// that read every cell of a large file describe only the cells kept.
func (t *Tally) Count1(v string) bool {
	s := t.side(v)
	if s == nil {
		t.sides = append(t.sides, side{value: v})
		s = &t.sides[len(t.sides)-1]
	}
	s.count++
	return len(s.cells) < keepCells
}

// Keep keeps the cell of a vote Count1 asked for.
func (t *Tally) Keep(c Cell) {
	if s := t.side(c.Suggests); s != nil {
		s.cells = append(s.cells, c)
	}
}

func (t *Tally) side(v string) *side {
	for i := range t.sides {
		if t.sides[i].value == v {
			return &t.sides[i]
		}
	}
	return nil
}

// Count returns the votes for v.
func (t *Tally) Count(v string) int {
	if s := t.side(v); s != nil {
		return s.count
	}
	return 0
}

// Values returns the values voted for, in the order first seen.
func (t *Tally) Values() []string {
	out := make([]string, len(t.sides))
	for i, s := range t.sides {
		out[i] = s.value
	}
	return out
}

// Decide returns the decision the votes make: the one value voted for,
// detected; no vote at all, the default; votes for several values,
// undecided with the default and the cells of every side, the smaller
// sides first.
func (t *Tally) Decide(def string) Decision {
	switch len(t.sides) {
	case 0:
		return Decision{Value: def, How: Default}
	case 1:
		return Decision{Value: t.sides[0].value, How: Detected, Evidence: slices.Clone(t.sides[0].cells)}
	}
	sides := slices.Clone(t.sides)
	slices.SortStableFunc(sides, func(a, b side) int { return a.count - b.count })
	d := Decision{Value: def, How: Default, Undecided: true}
	for _, s := range sides {
		d.Evidence = append(d.Evidence, s.cells...)
	}
	return d
}
