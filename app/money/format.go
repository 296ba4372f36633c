package money

import (
	"math/big"
	"strconv"
	"strings"
)

// Format writes an amount in minor units for people, with its currency
// code first and English separators: Format(1234567, "EUR") is
// "EUR 12,345.67", Format(-5, "JPY") is "JPY -5". A code that is not a
// known currency is written with two decimals.
func Format(minor int64, code string) string {
	d, ok := Digits(code)
	if !ok {
		d = 2
	}
	return code + " " + FormatWith(minor, d, Point)
}

// FormatWith writes an amount in minor units as a number in major units
// with the given separators: FormatWith(123456, 2, Comma) is "1.234,56".
// A zero Group writes no groups.
func FormatWith(minor int64, digits int, sep Separators) string {
	u := uint64(minor)
	if minor < 0 {
		u = -u
	}
	var buf [20]byte
	return writeMajor(minor < 0, strconv.AppendUint(buf[:0], u, 10), digits, sep)
}

// FormatBig is Format for sums of any size, such as control totals of
// thousands of large amounts: FormatBig(n, "EUR") is "EUR 12,345.67"
// whether or not n fits in 64 bits.
func FormatBig(minor *big.Int, code string) string {
	d, ok := Digits(code)
	if !ok {
		d = 2
	}
	return code + " " + FormatBigWith(minor, d, Point)
}

// FormatBigWith is FormatWith for amounts of any size:
// FormatBigWith(n, 2, Point) is "1,234.56" for n = 123456.
func FormatBigWith(minor *big.Int, digits int, sep Separators) string {
	return writeMajor(minor.Sign() < 0, new(big.Int).Abs(minor).Append(nil, 10), digits, sep)
}

// writeMajor writes the decimal digits of an amount's absolute value in
// minor units as a number in major units.
func writeMajor(neg bool, s []byte, digits int, sep Separators) string {
	if len(s) <= digits {
		s = append([]byte(strings.Repeat("0", digits-len(s)+1)), s...)
	}
	intPart, frac := s[:len(s)-digits], s[len(s)-digits:]
	var b strings.Builder
	b.Grow(len(s) + len(s)/3 + 2)
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 && sep.Group != 0 {
			b.WriteRune(sep.Group)
		}
		b.WriteByte(c)
	}
	if digits > 0 {
		dec := sep.Decimal
		if dec == 0 {
			dec = '.'
		}
		b.WriteRune(dec)
		b.Write(frac)
	}
	return b.String()
}

// Add returns a+b, and false when the sum overflows: totals of thousands
// of large amounts must not wrap around silently.
func Add(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}
