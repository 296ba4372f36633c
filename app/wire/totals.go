package wire

import "github.com/bulkdesk/bulkdesk/app/money"

// TotalsOf is the wire form of control totals: exact, in minor units and
// for people, whatever their size.
func TotalsOf(ts []money.Total) []Total {
	out := make([]Total, len(ts))
	for i, t := range ts {
		out[i] = Total{Currency: t.Currency, Invalid: t.Invalid, Label: t.Label(), Count: t.Count,
			Minor: t.Minor.String(), Amount: t.Amount(), Text: t.String(), Codes: t.Codes, MoreCodes: t.MoreCodes}
	}
	return out
}
