package jobs

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/xuri/excelize/v2"
)

var update = flag.Bool("update", false, "write warmup.xlsx again")

// TestWarmUpWorkbook checks that the warm-up workbook is what the warm-up
// needs: 50 valid transfers that import with no mapping step.
func TestWarmUpWorkbook(t *testing.T) {
	if *update {
		if err := os.WriteFile("warmup.xlsx", newWarmUpWorkbook(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	k, _ := schema.Lookup("transfers")
	f, err := ingest.Open("warmup.xlsx", warmUpWorkbook, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	table, err := f.Table("", nil)
	if err != nil {
		t.Fatal(err)
	}
	im := ingest.NewImport(table, k, schema.Default())
	if un := im.Mapping().Unmapped(); len(un) > 0 {
		t.Errorf("unmapped columns: %+v", un)
	}
	if res := im.Build(nil); len(res.Elements) != 50 || len(res.Report.Problems) != 0 {
		t.Errorf("%d elements, problems %+v", len(res.Elements), res.Report.Problems)
	}
}

func newWarmUpWorkbook(t *testing.T) []byte {
	f := excelize.NewFile()
	defer f.Close()
	f.SetSheetName("Sheet1", "Transfers")
	f.SetSheetRow("Transfers", "A1", &[]any{"profileId", "source.type", "source.id", "destination.type", "destination.id", "destinationAmount.currency", "destinationAmount.amount", "description"})
	for i := range 50 {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		f.SetSheetRow("Transfers", cell, &[]any{"110321", "managed_accounts", fmt.Sprintf("10%05d", i%7), "managed_cards", fmt.Sprintf("20%05d", i), "EUR", 100 + 7*i, fmt.Sprintf("Warm-up %d", i)})
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
