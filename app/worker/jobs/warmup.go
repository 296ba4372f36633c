package jobs

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
// for each kind, those that move money first, its schema and a CSV file.
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
		steps = append(steps,
			func() { _, _ = s.validator.CheckRequest(k, warmUpBody) },
			func() { s.warmUpFile("warm-up.csv", warmUpCSV(k, s.validator), k.ID) },
		)
	}
	return steps
}

// warmUpFile reads a file as a kind and builds its elements.
func (s *Server) warmUpFile(name string, data []byte, kind string) {
	k, err := schema.Lookup(kind)
	if err != nil {
		return
	}
	f, err := ingest.Open(name, data, ingest.Options{})
	if err != nil {
		return
	}
	t, err := f.Table("", nil)
	if err != nil {
		return
	}
	ingest.NewImport(t, k, s.validator).Build(nil)
}

// warmUpBody is a small request of made-up elements, wrong for every kind.
var warmUpBody = func() []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range 200 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"pathParams":{"_id_":"%d","_user_id_":"%d"},"requestBody":{"name":"Warm up %d","email":"a%d@example.com","amount":{"currency":"EUR","amount":%d},"on":true,"list":[1,2.5,null]}}`, i, i, i, i, i*7)
	}
	b.WriteByte(']')
	return []byte(b.String())
}()

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
