package jobs

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A browser first runs new code slowly, compiling each function as it is
// first called and optimizing it later. While no job waits, the worker
// therefore reads, builds and checks small files of every kind, so that
// the operator's first file is as fast as the next. The warm-up is cut
// into short steps, between which the worker takes the page's jobs.

// warmUpWorkbook is a workbook of 50 transfers with the template's headers,
// the shape of most files operators load. It was written by excelize;
// TestWarmUpWorkbook checks it and, with -update, writes it again.
//
//go:embed warmup.xlsx
var warmUpWorkbook []byte

// warmUpSteps returns the steps of the warm-up: the workbook first, then
// for each kind, those that move money first, a CSV file of its template
// and, as a request body, the elements that file built. Every step reads
// what an operator's file holds, valid values and a few wrong ones: the
// warm-up never takes paths a real file seldom takes (the suggestions for
// unknown fields, say), since no step can be interrupted by a file the
// operator chose meanwhile.
func (s *Server) warmUpSteps() []func() {
	steps := []func(){func() { s.warmUpFile("warm-up.xlsx", warmUpWorkbook, "transfers") }}
	kinds := slices.Clone(schema.Kinds())
	slices.SortStableFunc(kinds, func(a, b *schema.Kind) int {
		switch {
		case a.MovesMoney() == b.MovesMoney():
			return 0
		case a.MovesMoney():
			return -1
		}
		return 1
	})
	for _, k := range kinds {
		var body []byte
		steps = append(steps,
			func() {
				if res := s.warmUpFile("warm-up.csv", warmUpCSV(k, s.validator), k.ID); res != nil {
					body, _ = json.Marshal(res.Request())
				}
			},
			func() {
				if body != nil {
					_, _ = s.validator.CheckRequest(k, body)
				}
			},
		)
	}
	return steps
}

// warmUpFile reads a file as a kind and builds its elements.
func (s *Server) warmUpFile(name string, data []byte, kind string) *ingest.Result {
	k, err := schema.Lookup(kind)
	if err != nil {
		return nil
	}
	f, err := ingest.Open(name, data, ingest.Options{})
	if err != nil {
		return nil
	}
	t, err := f.Table("", nil)
	if err != nil {
		return nil
	}
	return ingest.NewImport(t, k, s.validator).Build(nil)
}

// warmUpCSV is a CSV file of a kind's template columns: the example row
// and variations of it.
func warmUpCSV(k *schema.Kind, v *schema.Validator) []byte {
	cols := ingest.TemplateColumns(k, v.Fields(k))
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.Header
	}
	w.Write(rec)
	for r := range 50 {
		for i, c := range cols {
			rec[i] = c.Example
			if r%2 == 1 && c.Field.Type == "string" && c.Field.Enum == nil {
				rec[i] += strconv.Itoa(r)
			}
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}
