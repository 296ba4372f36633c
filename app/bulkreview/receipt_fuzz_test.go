package bulkreview_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
)

// FuzzReadReceipt: whatever a checker loads as a receipt is read or
// refused with an error, never a panic; one read is whole.
func FuzzReadReceipt(f *testing.F) {
	f.Add([]byte(`{"version":1,"kind":"transfers","api":"standard","submission":"s","submittedAt":"2026-11-23T10:00:00Z","elements":1,` +
		`"totals":[{"currency":"EUR","count":1,"minor":"100","amount":"1.00"}],"chunks":[{"chunk":1,"bulkId":"500","elements":1,"sha256":"ab","sentSha256":"ab"}]}`))
	f.Add([]byte(`{"version":2,"kind":"transfers","api":"standard","submission":"s","submittedAt":"2026-11-23T10:00:00Z","elements":1,` +
		`"totals":[{"currency":"EUR","count":1,"minor":"100","amount":"1.00"}],"parts":[{"part":1,"bulkId":"500","elements":1,"sha256":"ab","sentSha256":"ab"}]}`))
	f.Add([]byte(`<!DOCTYPE html><pre id="receipt-json">{&#34;version&#34;:1}</pre>`))
	f.Add([]byte(`<pre id="receipt-json">`))
	f.Add([]byte(`{"version":1,"kind":"transfers","api":"standard","chunks":[{"bulkId":"1","totals":[{"minor":"1e9"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := bulkreview.ReadReceipt(data)
		if err != nil {
			return
		}
		if len(r.Chunks) == 0 || r.Version != bulkreview.ReceiptVersion {
			t.Fatalf("read a receipt without bulks or of another version: %+v", r)
		}
		for _, c := range r.Chunks {
			if c.BulkID == "" {
				t.Fatalf("read a chunk without a bulk: %+v", c)
			}
		}
	})
}
