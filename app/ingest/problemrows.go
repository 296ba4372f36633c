package ingest

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// RowProblems are the problems of one row of a table: by column for its
// cells, and all of them for the row's Errors column.
type RowProblems struct {
	ByColumn map[int][]schema.Problem
	All      []schema.Problem
}

// ProblemsByRow sorts a report's problems by the row and column of t they
// are at. Problems of the whole file go to row 0.
func ProblemsByRow(t *Table, r *schema.Report) map[int]*RowProblems {
	cols := make(map[string]int)
	for c := range t.Width() + 1 {
		cols[t.ColumnName(c)] = c
	}
	out := make(map[int]*RowProblems)
	for _, p := range r.Problems {
		rp := out[p.Row]
		if rp == nil {
			rp = &RowProblems{ByColumn: make(map[int][]schema.Problem)}
			out[p.Row] = rp
		}
		rp.All = append(rp.All, p)
		if c, ok := cols[p.Column]; ok && p.Column != "" {
			rp.ByColumn[c] = append(rp.ByColumn[c], p)
		}
	}
	return out
}

// ErrorsText is what the row's Errors column says: a line per problem,
// starting with its column when it is a cell's.
func (rp *RowProblems) ErrorsText(l lang.Tag) string {
	lines := make([]string, len(rp.All))
	for i, p := range rp.All {
		place := ""
		if p.Column != "" && p.Row > 0 {
			place = p.Column + ": "
		}
		lines[i] = place + l.T(string(p.Severity)) + ": " + p.Message
	}
	return strings.Join(lines, "\n")
}
