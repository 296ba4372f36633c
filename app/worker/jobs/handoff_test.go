package jobs_test

import (
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/app/workbook"
)

// cellsOf reads a workbook's first sheet back as the values of its cells.
func cellsOf(t *testing.T, wb []byte) [][]string {
	t.Helper()
	f, err := ingest.Open("errors.xlsx", wb, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, r := range tab.Rows {
		var row []string
		for _, c := range r.Cells {
			row = append(row, c.Value)
		}
		out = append(out, row)
	}
	return out
}

// The second worker writes a document's error workbook from what the
// first hands it: the same cells as the workbook written where the
// document is held (that the table crosses whole, keys and all, is
// TestATableSurvivesJSON's).
func TestTheErrorWorkbookCrossesToTheSecondWorkerWhole(t *testing.T) {
	h := newHarness(t)
	const table = `[{"profileId":"1","amount":"12.50","currency":"EUR","note":"=1+1"},{"profileId":"x","amount":"abc","currency":"EUR"}]`
	var p wire.Prepared
	h.result(h.send(wire.JobOpen, wire.Open{FileName: "rows.json", Kind: "transfers"}, []byte(table)), &p)
	var built wire.Prepared
	h.result(h.send(wire.JobPrepare, wire.Prepare{Document: p.Document, Build: true}, nil), &built)
	if built.Summary == nil || built.Summary.Errors == 0 {
		t.Fatalf("the table was not built with errors: %+v", built)
	}
	_, m := h.wait(h.send(wire.JobExport, wire.Export{Document: p.Document, What: wire.ExportErrorWorkbook}, nil))
	if m.Type != wire.TypeResult {
		t.Fatalf("export: %s %s", m.Type, m.Body)
	}
	d, err := h.server.Files().Get(p.Document)
	if err != nil {
		t.Fatal(err)
	}
	tab, header, r := d.Review().ErrorTable()
	direct, err := workbook.ErrorWorkbook(tab, header, r, lang.English)
	if err != nil {
		t.Fatal(err)
	}
	got, want := cellsOf(t, m.Data), cellsOf(t, direct)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("handed over:\n%q\nwritten where the document is:\n%q", got, want)
	}
	if len(got) < 3 || got[0][0] != "profileId" {
		t.Errorf("the workbook lacks the file's rows: %q", got)
	}
}
