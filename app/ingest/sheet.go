package ingest

import (
	"context"

	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/schema"
)

// ChooseSheet returns the sheet of a workbook to read for kind k when the
// operator has not picked one, and how it was chosen: of the visible
// sheets with values, the one whose header row has the most headers that
// map to the kind's fields, so that a cover or summary sheet before the
// data is passed over. Only the top rows of each sheet are read.
//
// One sheet that maps best is detected, with its headers as evidence.
// Sheets that tie for the best are undecided: the default sheet
// ([File.DefaultSheet]) is read, and the evidence holds the headers of
// each tied sheet. When no sheet maps, or the file has a single sheet
// with values (a CSV file always), the default sheet is read by default,
// without evidence.
func (f *File) ChooseSheet(k *schema.Kind, v *schema.Validator) (string, reading.Decision) {
	def := f.DefaultSheet()
	decision := reading.Decision{Value: def, How: reading.Default}
	if f.Format != XLSX {
		return def, decision
	}
	var candidates []int
	for i, s := range f.Sheets() {
		if !s.Hidden && !s.Empty {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) < 2 {
		return def, decision
	}
	mt := newMatcher(newCatalog(k, v.Fields(k)))
	type scored struct {
		name    string
		matched int
		cells   []reading.Cell
	}
	var best []scored
	for _, i := range candidates {
		t, err := f.xlsxRows(context.Background(), i, headerScan, nil)
		if err != nil {
			continue // reading it in full says what is wrong
		}
		rows, _ := headerRows(t, mt)
		top := bestHeaderRows(rows)
		if len(top) == 0 {
			continue
		}
		s := scored{name: t.Sheet, matched: top[0].matched}
		for _, c := range top[0].cells {
			c.Suggests = t.Sheet
			s.cells = append(s.cells, c)
		}
		switch {
		case len(best) == 0 || s.matched > best[0].matched:
			best = append(best[:0], s)
		case s.matched == best[0].matched:
			best = append(best, s)
		}
	}
	switch len(best) {
	case 0:
		return def, decision
	case 1:
		return best[0].name, reading.Decision{Value: best[0].name, How: reading.Detected, Evidence: best[0].cells}
	}
	decision.Undecided = true
	for _, s := range best {
		decision.Evidence = append(decision.Evidence, s.cells...)
	}
	return def, decision
}

// TableFor reads the sheet of the file to import as kind k: sheet, as
// the operator picked it, or when sheet is "" the one [File.ChooseSheet]
// chooses. The table's Reading.Sheet says which and how.
func (f *File) TableFor(ctx context.Context, sheet string, k *schema.Kind, v *schema.Validator, progress Progress) (*Table, error) {
	if sheet != "" || f.Format != XLSX {
		return f.TableContext(ctx, sheet, progress)
	}
	name, d := f.ChooseSheet(k, v)
	t, err := f.TableContext(ctx, name, progress)
	if err != nil {
		return nil, err
	}
	t.Reading.Sheet = d
	return t, nil
}
