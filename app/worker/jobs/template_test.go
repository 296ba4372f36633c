package jobs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/xuri/excelize/v2"
)

// The console's template, written by the second worker in the console's
// language, filled in and dropped on the page without a kind chosen, is
// read and built at once: the template names its kind and its API (here
// the back-office one), and nothing about its reading is left to ask.
func TestATemplateFilledInGoesStraightToTheReview(t *testing.T) {
	h := newHarness(t)
	id := h.send(wire.JobTemplate, wire.TemplateRequest{Kind: "transfers", BackOffice: true, Lang: "de", TimeZone: "Europe/Berlin"}, nil)
	_, m := h.wait(id)
	var file wire.File
	if m.Type != wire.TypeResult || json.Unmarshal(m.Body, &file) != nil || file.Name != "transfers-vorlage.xlsx" || file.Type != wire.XLSXType {
		t.Fatalf("the template: %s %s", m.Type, m.Body)
	}
	f, err := excelize.OpenReader(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	sheet := f.GetSheetName(0)
	if h, _ := f.GetCellValue(sheet, "I1"); h != "Betrag *" {
		t.Errorf("column I is headed %q", h)
	}
	for n := 2; n <= 51; n++ {
		row := []any{"110321", nil, fmt.Sprint(1000 + n), "Verwaltetes Konto", nil, "2001", "Verwaltete Karte", "EUR", 10.5}
		cell := fmt.Sprintf("A%d", n)
		if err := f.SetSheetRow(sheet, cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	var p wire.Prepared
	h.result(h.send(wire.JobOpen, wire.Open{FileName: "transfers-vorlage.xlsx", Auto: true}, buf.Bytes()), &p)
	if p.Kind != "transfers" || !p.BackOffice || p.KindSuggested || p.DataRows != 50 || !p.Ready || p.Summary == nil {
		t.Fatalf("kind %q (back-office %v, suggested %v), %d rows, ready %v, reading %+v", p.Kind, p.BackOffice, p.KindSuggested, p.DataRows, p.Ready, p.Reading)
	}
	s := p.Summary
	if s.Elements != 50 || s.Errors != 0 || len(s.Totals) != 1 || s.Totals[0].Minor != "52500" {
		t.Errorf("summary: %d elements, %d errors, totals %+v", s.Elements, s.Errors, s.Totals)
	}
}
