package jobs_test

import (
	"bytes"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/internal/fixture"
	"github.com/xuri/excelize/v2"
)

// transfersXLSX is a workbook of n valid transfers with the template's
// headers.
func transfersXLSX(b testing.TB, n int) []byte {
	b.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	sw.SetRow("A1", fixture.Header)
	for i, t := range fixture.Rows.List(n) {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		sw.SetRow(cell, t.Row())
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkOpenXLSX times the worker's part of the first review of a
// 10,000-row workbook: open, read, map, build and validate, summarise, and
// the first window of rows.
func BenchmarkOpenXLSX(b *testing.B) {
	h := newHarness(b)
	h.waitWarm()
	data := transfersXLSX(b, 10000)
	b.ResetTimer()
	for range b.N {
		var p worker.Prepared
		h.result(h.send(worker.JobOpen, worker.Open{FileName: "t.xlsx", Kind: "transfers", Auto: true}, data), &p)
		if p.Summary == nil || p.Summary.Elements != 10000 {
			b.Fatalf("summary = %+v", p.Summary)
		}
		var rows worker.Rows
		h.result(h.send(worker.JobRows, worker.RowsWindow{Document: p.Document, Limit: 120}, nil), &rows)
	}
	b.ReportMetric(float64(len(data))/1e6, "MB-file")
}
