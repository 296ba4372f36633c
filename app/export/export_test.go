package export_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/export"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

func importBytes(t *testing.T, name string, data []byte, k *schema.Kind) (*ingest.Import, *ingest.Result) {
	t.Helper()
	im := importing.Import(t, name, data, k)
	return im, im.Build(nil)
}

func TestErrorCSVNeutralizesFormulas(t *testing.T) {
	k, _ := schema.Lookup("card_blocks")
	csv := "card id,note\n101,=cmd|' /C calc'!A0\n1x2,+1\n103,@SUM(1)\n104,-2\n"
	im, res := importBytes(t, "c.csv", []byte(csv), k)
	out, err := export.TableCSV(im.Table, im.Mapping().HeaderRow, res.Report, lang.English)
	if err != nil {
		t.Fatal(err)
	}
	// Quoted with an apostrophe, as the OWASP guidance says; -2 is a
	// number, which no spreadsheet runs.
	want := "\ufeffcard id,note,Errors\n101,\"'=cmd|' /C calc'!A0\",\n1x2,\"'+1\",\"A: error: pathParams._id_ may contain only digits; found \"\"1x2\"\"\"\n103,\"'@SUM(1)\",\n104,-2,\n"
	if string(out) != want {
		t.Errorf("csv:\n%q\nwant\n%q", out, want)
	}
	// Read back, the values are the operator's again.
	im2, _ := importBytes(t, "c2.csv", out, k)
	for row, want := range map[int]string{2: "=cmd|' /C calc'!A0", 3: "+1", 5: "-2"} {
		i := im2.Table.RowIndex(row)
		got := im2.Table.Rows[i].Cells[1].Value
		if strings.TrimPrefix(got, "'") != want {
			t.Errorf("row %d: %q", row, got)
		}
	}
}
