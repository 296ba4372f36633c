package jobs

import (
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/app/worker"
)

// count writes n with thousands separators: 10000 → "10,000".
func count(n int) string { return groupDigits(strconv.Itoa(n)) }

// plural writes "1 chunk" or "3 chunks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

// groupDigits puts commas between groups of three digits of a decimal
// integer, keeping its sign.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return sign + b.String()
}

// totals writes control totals for people, exactly, in major units with
// the currency's minor digits: a total too large for any int64 is written
// all the same.
func totals(t submission.Totals) []worker.ControlTotal {
	out := make([]worker.ControlTotal, 0, len(t.Amounts))
	for _, ct := range t.Amounts {
		digits, ok := money.Digits(ct.Currency)
		if !ok {
			digits = 2
		}
		minor := ct.Minor.String()
		amount := majorUnits(minor, digits)
		if ct.Invalid {
			// The minor units of an invalid currency are unknown.
			amount = majorUnits(minor, 0) + " in minor units"
		}
		out = append(out, worker.ControlTotal{Currency: ct.Currency, Invalid: ct.Invalid, Label: ct.Label(), Amount: amount, Minor: minor, Count: ct.Count})
	}
	return out
}

// majorUnits writes a decimal integer of minor units in major units:
// ("123456", 2) → "1,234.56".
func majorUnits(minor string, digits int) string {
	neg := strings.HasPrefix(minor, "-")
	minor = strings.TrimPrefix(minor, "-")
	if len(minor) <= digits {
		minor = strings.Repeat("0", digits-len(minor)+1) + minor
	}
	s := groupDigits(minor[:len(minor)-digits])
	if digits > 0 {
		s += "." + minor[len(minor)-digits:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
