package workbook_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/workbook"
	"github.com/bulkdesk/bulkdesk/schema"
)

// BenchmarkErrorWorkbook10kRows writes the error workbook of 10,000
// transfers of which one in ten has a bad source id.
func BenchmarkErrorWorkbook10kRows(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("profileId,source.id,source.type,destination.id,destination.type,currency,amount,description\n")
	for i := range 10000 {
		src := fmt.Sprint(1000 + i)
		if i%10 == 0 {
			src += "x"
		}
		fmt.Fprintf(&sb, "110321,%s,managed_accounts,%d,managed_cards,EUR,%d,Salary %d\n", src, 2000+i, 100+i, i)
	}
	f, _ := ingest.Open("pay.csv", []byte(sb.String()), ingest.Options{})
	tab, _ := f.Table("", nil)
	k, _ := schema.Lookup("transfers")
	im := ingest.NewImport(tab, k, schema.Default())
	res := im.Build(nil)
	if len(res.Report.Errors()) != 1000 {
		b.Fatalf("%d errors", len(res.Report.Errors()))
	}
	for b.Loop() {
		if _, err := workbook.ErrorWorkbook(tab, 1, res.Report, lang.English); err != nil {
			b.Fatal(err)
		}
	}
}
