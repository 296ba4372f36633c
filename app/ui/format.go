package ui

import "github.com/bulkdesk/bulkdesk/app/money"

// count formats n with thousands separators: 10000 → "10,000".
func count(n int) string { return money.FormatWith(int64(n), 0, money.Point) }

// plural returns "1 element", "2 elements", with n formatted by count.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}
