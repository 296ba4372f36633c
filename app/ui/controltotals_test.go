package ui

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/worker"
)

// A loaded total beyond 64 bits is written as every other amount is.
func TestControlTotalBeyond64Bits(t *testing.T) {
	s := worker.Summary{Elements: 2, Totals: []worker.Total{{Currency: "EUR", Count: 2, Minor: "18446744073709551614"}}}
	got := controlTotals{total: "1.00", currency: "EUR"}.checkTotal(s)
	want := "EUR 184,467,440,737,095,516.14 loaded, EUR 184,467,440,737,095,515.14 more than the EUR 1.00 expected."
	if got.ok || got.message != want {
		t.Errorf("got %q, want %q", got.message, want)
	}
}
