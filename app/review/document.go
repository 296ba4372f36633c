package review

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A Column is a column of the review table.
type Column struct {
	// Letter names the file's column ("F", or a key of a JSON table);
	// "" for a request body's field.
	Letter string
	// Index is the column's index in the file's table, -1 for a field.
	Index int
	// Header is the column's header in the file, or the field's path.
	Header string
	// Field is the field the column fills.
	Field    string
	Required bool
	// Set marks a value set for every row (ingest.Mapping.Values): Value
	// is every row's, and only the mapping changes it.
	Set   bool
	Value string
}

// A source is where a Document's elements come from and how its cells
// are read and changed.
type source interface {
	count() int
	// value is element i as it is sent.
	value(i int) any
	// eachValue calls f with every element in order; f must not keep it.
	eachValue(f func(i int, v any))
	// origin is where element i came from in the file.
	origin(i int) (sheet string, row int)
	// report holds the problems of reading and validating, kept up to
	// date by edit.
	report() *schema.Report
	columns() []Column
	cell(i int, c Column) string
	// edit changes one cell of element i and validates it again.
	edit(i int, c Column, text string) error
	// editMany changes many cells at once, validating what changed.
	editMany(edits []cellEdit) error
	// key, save, elementOf and restore undo changes (undo.go).
	key(i int, c Column) CellKey
	save(i int, c Column) saved
	elementOf(k CellKey) (int, bool)
	restore(cells []saved) error
	// readAs describes how the file was read, for people.
	readAs() string
	// tabular says the elements are rows of a table.
	tabular() bool
}

// A cellEdit is one change of editMany.
type cellEdit struct {
	element int
	column  Column
	text    string
}

// A Document is a bulk request under review. It is not safe for
// concurrent use: the worker runs one job at a time.
type Document struct {
	Kind       *schema.Kind
	BackOffice bool
	FileName   string

	src      source
	cols     []Column
	byLetter map[string]int
	byField  map[string]int
	// bySet finds the column of a value set for every row by its field.
	bySet map[string]int

	facts  []facts
	dupOf  []int
	report *schema.Report
	// starts[i] is where element i's problems begin in report.Problems;
	// starts has one more entry than there are elements.
	starts  []int
	invalid []int
	version int
	// limits are the operator's amount limits (SetAmountLimits).
	limits ingest.AmountLimits
	// w is the operator's language, in which the document says what it
	// finds of its elements as a whole (duplicates, a file of several
	// bulks).
	w lang.Tag
}

func newDocument(k *schema.Kind, backOffice bool, fileName string, src source, w lang.Tag, pass ...FirstPass) *Document {
	d := &Document{Kind: k, BackOffice: backOffice, FileName: fileName, src: src, w: w}
	d.indexColumns()
	d.refreshAll(pass)
	return d
}

// indexColumns takes the source's columns and indexes them.
func (d *Document) indexColumns() {
	d.cols = d.src.columns()
	d.byLetter = make(map[string]int, len(d.cols))
	d.byField = make(map[string]int, len(d.cols))
	for i, c := range d.cols {
		if c.Letter != "" {
			d.byLetter[c.Letter] = i
		}
		if c.Set {
			if d.bySet == nil {
				d.bySet = make(map[string]int)
			}
			d.bySet[c.Field] = i
		}
		d.byField[c.Field] = i
	}
}

// Elements returns the elements as they would be sent, in file order,
// with every edit applied: the request body's array.
func (d *Document) Elements() []any {
	out := make([]any, d.src.count())
	for i := range out {
		out[i] = d.src.value(i)
	}
	return out
}

// Report returns every problem of the document: reading, validation and
// duplicate elements, each at its element and, for a table, its cell.
func (d *Document) Report() *schema.Report { return d.report }

// Origin returns where element i came from: the sheet and row number of a
// table, or "" and i for an element of a JSON request body.
func (d *Document) Origin(i int) (sheet string, row int) { return d.src.origin(i) }

// Len returns how many elements the document holds.
func (d *Document) Len() int { return d.src.count() }

// Columns returns the review table's columns.
func (d *Document) Columns() []Column { return d.cols }

// Version grows with every change to the elements.
func (d *Document) Version() int { return d.version }

// ReadAs describes how the file was read: its sheet, header row and
// settings, or "" for a request body.
func (d *Document) ReadAs() string { return d.src.readAs() }

// Problems returns the problems of element i.
func (d *Document) Problems(i int) []schema.Problem {
	if i < 0 || i+1 >= len(d.starts) {
		return nil
	}
	return d.report.Problems[d.starts[i]:d.starts[i+1]]
}

// Edit changes the cell of element i in column col to text, as the
// operator typed it, and validates the element again.
func (d *Document) Edit(i, col int, text string) error {
	if i < 0 || i >= d.src.count() {
		return fmt.Errorf("there is no element %d", i)
	}
	if col < 0 || col >= len(d.cols) {
		return fmt.Errorf("there is no column %d", col)
	}
	if d.cols[col].Set {
		return ErrSetForEveryRow
	}
	if err := d.src.edit(i, d.cols[col], text); err != nil {
		return err
	}
	d.refresh([]int{i})
	return nil
}

// ErrSetForEveryRow refuses to change one row's value of a field set for
// every row: the value is the mapping's.
var ErrSetForEveryRow = errors.New("this value is set for every row: change it where the columns are mapped")

// refresh brings the summary and the report up to date after the
// elements listed changed; nil means any of them may have.
func (d *Document) refresh(changed []int) {
	if changed == nil || len(d.facts) != d.src.count() {
		d.refreshAll(nil)
		return
	}
	for _, i := range changed {
		d.facts[i] = d.factsOf(d.src.value(i), nil)
	}
	d.settle()
}

// refreshAll finds the facts of every element, giving each to pass too.
func (d *Document) refreshAll(pass []FirstPass) {
	d.facts = make([]facts, d.src.count())
	names := make(sourceNames)
	var e PassElement
	d.src.eachValue(func(i int, v any) {
		d.facts[i] = d.factsOf(v, names)
		if len(pass) > 0 {
			e = PassElement{i: i, v: v}
			for _, f := range pass {
				f(&e)
			}
		}
	})
	d.settle()
}

// settle brings the duplicates and the report up to date with the facts.
func (d *Document) settle() {
	d.dupOf = d.duplicates()
	d.merge()
	d.version++
}

// DuplicateCode is the code of the warning on an element that repeats an
// earlier one.
const DuplicateCode = "duplicate-element"

// merge makes the report: the source's problems and a warning on each
// duplicate element, sorted by element, and indexes it.
func (d *Document) merge() {
	src := d.src.report()
	problems := make([]schema.Problem, 0, len(src.Problems)+len(d.dupOf)/8)
	problems = append(problems, src.Problems...)
	for i, p := range problems {
		// One bulk cannot take the file, but the console sends it as
		// several: a fact about the submission, not an error of the file.
		if p.Code == schema.TooManyElements {
			n := d.src.count()
			p.Severity = schema.Warning
			p.Message = d.w.F("the file holds %s elements, more than one bulk takes (%s): it is submitted as %d bulks",
				d.w.Count(n), d.w.Count(schema.MaxElements), (n+schema.MaxElements-1)/schema.MaxElements)
			problems[i] = p
		}
	}
	if rs, ok := d.src.(*requestSource); ok {
		// A table's build makes its plausibility checks itself, at its
		// cells; a request body's are made here, by the same definitions.
		problems = append(problems, ingest.RequestElementWarnings(rs.v.Language(), rs.k, rs.v.Fields(rs.k), rs.elements, d.limits)...)
	}
	for i, first := range d.dupOf {
		if first < 0 {
			continue
		}
		sheet, row := d.src.origin(i)
		p := schema.Problem{
			Element:  i,
			Code:     DuplicateCode,
			Severity: schema.Warning,
			Message:  d.w.F("the same operation as %s: the API would carry out both", d.place(first)),
		}
		if d.src.tabular() {
			p.Sheet, p.Row = sheet, row
		}
		problems = append(problems, p)
	}
	// Stable: each element's problems keep the order their source gave.
	slices.SortStableFunc(problems, func(a, b schema.Problem) int { return a.Element - b.Element })
	d.report = &schema.Report{Kind: src.Kind, Elements: d.src.count(), Problems: problems}

	n := d.src.count()
	d.starts = make([]int, n+1)
	d.invalid = d.invalid[:0]
	k := 0
	for k < len(problems) && problems[k].Element < 0 {
		k++
	}
	for i := range n {
		d.starts[i] = k
		bad := false
		for k < len(problems) && problems[k].Element == i {
			bad = bad || problems[k].Severity == schema.Error
			k++
		}
		if bad {
			d.invalid = append(d.invalid, i)
		}
	}
	d.starts[n] = k
}

// SetAmountLimits sets the highest amount the operator expects per
// currency, in minor units: amounts above it are warnings, in a table at
// their cells.
func (d *Document) SetAmountLimits(limits ingest.AmountLimits) {
	d.limits = maps.Clone(limits)
	if ts, ok := d.src.(*tableSource); ok {
		ts.im.SetAmountLimits(d.limits)
	}
	d.merge()
	d.version++
}

// AmountLimits returns the limits SetAmountLimits set.
func (d *Document) AmountLimits() ingest.AmountLimits { return maps.Clone(d.limits) }

// place names element i's place for people: "row 14" or "element 3".
func (d *Document) place(i int) string {
	if !d.src.tabular() {
		return d.w.F("element %d", i)
	}
	_, row := d.src.origin(i)
	return d.w.F("row %d", row)
}
