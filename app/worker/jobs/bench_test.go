package jobs_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/xlsxbook"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// BenchmarkOpenXLSX times the worker's part of the first review of a
// 10,000-row workbook: open, read, map, build and validate, summarise, and
// the first window of rows.
func BenchmarkOpenXLSX(b *testing.B) {
	h := newHarness(b)
	h.waitWarm()
	data := xlsxbook.Transfers("Sheet1", fixture.Rows.List(10000))
	b.ResetTimer()
	for range b.N {
		var p wire.Prepared
		h.result(h.send(wire.JobOpen, wire.Open{FileName: "t.xlsx", Kind: "transfers", Auto: true}, data), &p)
		if p.Summary == nil || p.Summary.Elements != 10000 {
			b.Fatalf("summary = %+v", p.Summary)
		}
		var rows wire.Rows
		h.result(h.send(wire.JobRows, wire.RowsWindow{Document: p.Document, Limit: 120}, nil), &rows)
	}
	b.ReportMetric(float64(len(data))/1e6, "MB-file")
}
