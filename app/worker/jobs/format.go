package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/worker"
)

// count writes n with thousands separators: 10000 → "10,000".
func count(n int) string { return money.FormatWith(int64(n), 0, money.Point) }

// plural writes "1 chunk" or "3 chunks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

// wireTotals is the wire form of control totals: exact, in minor units
// and for people, whatever their size.
func wireTotals(ts []money.Total) []worker.Total {
	out := make([]worker.Total, len(ts))
	for i, t := range ts {
		out[i] = worker.Total{Currency: t.Currency, Invalid: t.Invalid, Label: t.Label(), Count: t.Count,
			Minor: t.Minor.String(), Amount: t.Amount(), Text: t.String()}
	}
	return out
}
