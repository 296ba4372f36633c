// Package inert keeps what Bulkdesk writes from running in a spreadsheet
// program. A value that begins with =, +, -, @, a tab or a carriage
// return (or the full-width ＝ ＋ － ＠, which spreadsheet programs take
// alike) is read as a formula when the file is opened: =HYPERLINK(…) sends
// the sheet's data away, -2+3+cmd|' /C calc'!A0 starts a program. Every
// writer of operator data (CSV exports, workbooks, receipts) asks this
// package, so that one rule holds everywhere:
//
//   - CSV and text for people: the value gets a leading apostrophe, as the
//     OWASP guidance on CSV injection says (Text, and CSV, which also quotes
//     the field). Bulkdesk removes the apostrophe again on import (Strip).
//   - xlsx: the value is written unchanged as a string cell whose style has
//     quotePrefix set (app/workbook), so it reads back exactly.
//   - JSON: the character is written as its \u escape (JSON), which every
//     JSON reader decodes to the same value.
//
// A plain number ("-5", "-12.50", "1E+20") is never escaped, whether the
// file held it as a number or as text: a spreadsheet program reads it as
// that number, not as a formula, and escaping it would turn an amount into
// text in the operator's spreadsheet.
package inert

import (
	"strings"
	"unicode/utf8"
)

// Formula reports whether a spreadsheet program could read s as a formula:
// it begins with a character that starts one and is not a plain number.
func Formula(s string) bool {
	return startsFormula(s) && !Number(s)
}

// startsFormula reports whether s begins with a character that starts a
// formula in some spreadsheet program.
func startsFormula(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return trigger(r)
}

// trigger reports whether r starts a formula.
func trigger(r rune) bool {
	switch r {
	case '=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠':
		return true
	}
	return false
}

// Number reports whether s is a plain decimal number as spreadsheet files
// write them: an optional minus sign, digits with an optional fraction,
// and an optional exponent ("1050", "-12.5", ".5", "1.2345678901234568E+18").
// No spaces, no plus sign, no thousands separators, no INF or NaN.
func Number(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	whole := digits(s[i:])
	i += whole
	frac := 0
	if i < len(s) && s[i] == '.' {
		i++
		frac = digits(s[i:])
		i += frac
	}
	if whole == 0 && frac == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := digits(s[i:])
		if exp == 0 {
			return false
		}
		i += exp
	}
	return i == len(s)
}

// digits returns how many ASCII digits s begins with.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// Text returns s as text no spreadsheet program runs: with a leading
// apostrophe when it could be read as a formula, else unchanged.
func Text(s string) string {
	if Formula(s) {
		return "'" + s
	}
	return s
}

// Strip removes the apostrophe that Text, or another program following the
// same guidance, put before a value, for reading the value back. Only an
// apostrophe before a formula character is removed: "'twas" stays.
func Strip(s string) string {
	if rest, ok := strings.CutPrefix(s, "'"); ok && startsFormula(rest) {
		return rest
	}
	return s
}
