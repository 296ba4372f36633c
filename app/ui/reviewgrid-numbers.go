package ui

import (
	"math/big"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// A spreadsheet stores a number as software writes it (1234.56, 12500),
// whatever the language of the spreadsheet shows it in. The review table
// writes such a cell (wire.GridRow.Numbers) as the operator's language
// writes numbers, and reads what the operator types into it back in
// that language, storing it as the spreadsheet does: the value read is
// never other than the one shown or typed.

// plainNumber reports whether s is a number as a spreadsheet stores it:
// digits, at most one decimal point, a leading minus.
func plainNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	return intPart != "" && onlyDigits(intPart) && (!hasFrac || (frac != "" && onlyDigits(frac)))
}

func onlyDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// localNumber writes a stored number as sep writes numbers, its digits
// grouped when grouped is set (amounts: 1.234,56 in German) and not
// otherwise (an account number stored as a number stays 1100000001).
// Anything but a plain number is returned as it is.
func localNumber(stored string, grouped bool, sep money.Separators) string {
	if !plainNumber(stored) {
		return stored
	}
	intPart, frac, _ := strings.Cut(stored, ".")
	minor, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok {
		return stored
	}
	if !grouped {
		sep.Group = 0
	}
	return money.FormatBigWith(minor, len(frac), sep)
}

// storedNumber reads a number the operator typed as the language of sep
// writes it (money.ParseTyped: "1.234,56", "1 234,56", or the plain
// "1234.56") and writes it as a spreadsheet stores it, "1234.56". A text
// that is no number, or reads two ways ("1.500" in French), is refused
// with a *money.TypedError that says how to type it.
func storedNumber(typed string, sep money.Separators) (string, error) {
	// As many decimals as the text has after its last mark: the mark may
	// group digits ("1.234" in German), which ParseTyped decides.
	digits := 0
	if i := strings.LastIndexAny(typed, ".,"); i >= 0 {
		digits = len(strings.TrimSpace(typed[i+1:]))
	}
	minor, err := money.ParseTyped(typed, digits, sep)
	if err != nil {
		return "", err
	}
	s := money.FormatWith(minor, digits, money.Separators{Decimal: '.'})
	if digits > 0 {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s, nil
}

// numberCell reports whether the cell of column c in row r is a
// spreadsheet's number, which the table writes in the language.
func numberCell(r wire.GridRow, c int) bool {
	for _, n := range r.Numbers {
		if n == c {
			return true
		}
	}
	return false
}

// shownText is a cell's text as the table shows it: a number cell as the
// operator's language writes numbers, grouped in the amount column.
func (g *reviewGrid) shownText(r wire.GridRow, c int) string {
	if !numberCell(r, c) {
		return r.Cells[c]
	}
	return g.localIn(c, r.Cells[c])
}

// localIn writes a stored number of column c in the language, grouped in
// the amount column.
func (g *reviewGrid) localIn(c int, stored string) string {
	grouped := c < len(g.Icolumns) && g.Icolumns[c].Money == wire.MoneyAmount
	return localNumber(stored, grouped, consoleLang.Separators())
}

// shownWas is the value an edited cell had, as the table showed it: a
// number cell's number in the language, as its value now is.
func (g *reviewGrid) shownWas(r wire.GridRow, e wire.EditedCell) string {
	if !numberCell(r, e.Column) {
		return e.Was
	}
	return g.localIn(e.Column, e.Was)
}

// editedValue is the value an edit of column c in row r stores: the
// text typed, or for a number cell the number it reads as in the
// language, as the spreadsheet stores numbers. changed is false when the
// edit leaves the value as it was (the text shown, or the same number
// typed otherwise); err refuses a number cell's text that is no number.
func (g *reviewGrid) editedValue(r wire.GridRow, c int, typed string) (value string, changed bool, err error) {
	if typed == g.shownText(r, c) || typed == r.Cells[c] {
		return r.Cells[c], false, nil
	}
	if !numberCell(r, c) || strings.TrimSpace(typed) == "" {
		return typed, true, nil
	}
	v, err := storedNumber(typed, consoleLang.Separators())
	if err != nil {
		return "", false, err
	}
	return v, v != r.Cells[c], nil
}
