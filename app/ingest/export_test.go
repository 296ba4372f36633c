package ingest

import (
	"slices"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// Recheck returns a function that does again the work the plausibility
// checks add to the last build of im: record each element's values, as
// the build reads them, then compare them all. It returns the warnings'
// count.
func Recheck(im *Import) func() int {
	res := im.result
	p := res.p
	vals := make([][]any, len(res.Elements))
	for i, e := range res.Elements {
		p.buildRow(&p.Table.Rows[p.Table.RowIndex(e.Row)], p.scratch)
		vals[i] = slices.Clone(p.scratch.vals)
	}
	return func() int {
		c := p.newChecks(len(vals))
		for i, v := range vals {
			c.record(i, v)
		}
		return len(c.warnings(lang.English, res.limits, p.Table, func(i int) int { return res.Elements[i].Row }))
	}
}

// Nth is nth, for tests.
func Nth(s []int64, k int) int64 { return nth(s, k) }

// TitleRows is how many rows a sheet may hold beyond Limits.MaxRows.
const TitleRows = titleRows
