package money

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Separators are how a text writes a number: the decimal separator and
// the digit-group separator. A zero Decimal means "not known": then a
// text that reads two ways ("1.000", "1,000") is refused. A zero Group
// means digits may not be grouped.
type Separators struct {
	Decimal rune
	Group   rune
}

// Common separator settings.
var (
	// Point is 1,234.56 (English-speaking countries, Switzerland in part,
	// software).
	Point = Separators{Decimal: '.', Group: ','}
	// Comma is 1.234,56 (most of continental Europe, Latin America).
	Comma = Separators{Decimal: ',', Group: '.'}
	// CommaSpace is 1 234,56 (France, Scandinavia, Eastern Europe).
	CommaSpace = Separators{Decimal: ',', Group: ' '}
)

// String names the separators for people: "decimal ',' and groups '.'".
func (s Separators) String() string {
	dec := "unknown"
	if s.Decimal != 0 {
		dec = fmt.Sprintf("%q", s.Decimal)
	}
	grp := "none"
	if s.Group != 0 {
		grp = fmt.Sprintf("%q", s.Group)
		if s.Group == ' ' {
			grp = "space"
		}
	}
	return "decimal " + dec + ", groups " + grp
}

// An Error says why a text is not an exact amount: in English (Error),
// or in the operator's language from its format and arguments (Say,
// which package lang calls), the text quoted first.
type Error struct {
	Text   string
	format string
	args   []any
	err    error
}

func (e *Error) Error() string { return fmt.Sprintf(e.format, e.args...) }

// Say returns the error's English format, which the console's catalogs
// translate, and its arguments: the text, and the characters it names (Char).
func (e *Error) Say() (format string, args []any) { return e.format, e.args }

// Unwrap returns ErrAmbiguous for texts that read two ways.
func (e *Error) Unwrap() error { return e.err }

// fail refuses text: format says why, in English, starting with the text
// (%q), which is the first of args.
func fail(text, format string, args ...any) error {
	return &Error{Text: text, format: format, args: append([]any{text}, args...)}
}

// A Char is a character that separates the digits of an amount, as an
// error names it: '.', a space, a no-break space; 0 is a character out
// of place.
type Char rune

func (m Char) String() string {
	switch m {
	case 0:
		return "a misplaced character"
	case ' ':
		return "a space"
	case '\u00a0':
		return "a no-break space"
	case '\u202f':
		return "a narrow no-break space"
	}
	return fmt.Sprintf("%q", rune(m))
}

// ErrAmbiguous marks a text that reads as two different amounts under
// unknown separators.
var ErrAmbiguous = errors.New("ambiguous separators")

// ParseMajor reads an amount written in major units ("1.234,56" euros)
// and returns it in minor units (123456 cents) for a currency with the
// given number of minor digits. Spaces around the text, a leading sign
// and group separators in their right places are accepted; more decimals
// than the currency has (unless they are zeros) are an error.
func ParseMajor(s string, digits int, sep Separators) (int64, error) {
	neg, intPart, frac, err := split(s, sep)
	if err != nil {
		return 0, err
	}
	return scale(s, neg, intPart, frac, 0, digits)
}

// ParseMinor reads an amount already in minor units ("1050", "1,050" with
// comma groups): a whole number, possibly grouped.
func ParseMinor(s string, sep Separators) (int64, error) {
	neg, intPart, frac, err := split(s, Separators{Decimal: sep.Decimal, Group: sep.Group})
	if err != nil {
		return 0, err
	}
	if frac != "" || (sep.Decimal != 0 && strings.ContainsRune(s, sep.Decimal)) {
		// Even "10.00" is refused: it is far likelier ten euros than ten cents.
		return 0, fail(s, "%q has a decimal part, but amounts are read in minor units (cents): write a whole number, or read amounts in major units")
	}
	return scale(s, neg, intPart, "", 0, 0)
}

// ParseNumber reads a number as software writes it ("12.34", "1E-3",
// "1.2345E+20": '.' for decimals, an optional exponent, no groups), as
// spreadsheet cells and JSON store them, and returns it multiplied by
// 10^digits, which must give a whole number.
func ParseNumber(s string, digits int) (int64, error) {
	t := strings.TrimSpace(s)
	exp := 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(t[i+1:], "+"))
		if err != nil || e > 400 || e < -400 {
			return 0, fail(s, "%q is not a number")
		}
		exp, t = e, t[:i]
	}
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
	intPart, frac, _ := strings.Cut(t, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return 0, fail(s, "%q is not a number")
	}
	return scale(s, neg, intPart, frac, exp, digits)
}

// split checks a human-written number and returns its sign, integer digits
// (groups removed) and fraction digits.
func split(s string, sep Separators) (neg bool, intPart, frac string, err error) {
	t := strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\u00a0' || r == '\u202f' {
			return ' '
		}
		return r
	}, s))
	if t == "" {
		return false, "", "", fail(s, "%q is empty")
	}
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		return false, "", "", fail(s, "%q is in parentheses: write a negative amount with a minus sign")
	}
	switch t[0] {
	case '-':
		neg, t = true, t[1:]
	case '+':
		t = t[1:]
	}
	t = strings.TrimSpace(t)
	if t == "" || !strings.ContainsAny(t, "0123456789") {
		return false, "", "", fail(s, "%q is not a number")
	}
	dec, grp := sep.Decimal, sep.Group
	if dec == 0 {
		dec, grp, err = guessSeparators(s, t)
		if err != nil {
			return false, "", "", err
		}
	}
	intText, fracText := t, ""
	if i := strings.LastIndex(t, string(dec)); i >= 0 {
		intText, fracText = t[:i], t[i+len(string(dec)):]
		if intText == "" {
			intText = "0"
		}
	}
	if !allDigits(fracText) {
		return false, "", "", fail(s, "%q has %s after the decimal separator %s", odd(fracText), Char(dec))
	}
	intPart, err = ungroup(s, intText, grp, dec)
	return neg, intPart, fracText, err
}

// guessSeparators reads the separators off one text when they are not
// known: only a text that cannot be read two ways is accepted.
func guessSeparators(orig, t string) (dec, grp rune, err error) {
	dots, commas := strings.Count(t, "."), strings.Count(t, ",")
	switch {
	case dots == 0 && commas == 0:
		return '.', ' ', nil
	case dots > 0 && commas > 0:
		// Both: the last one is the decimal separator.
		if strings.LastIndex(t, ".") > strings.LastIndex(t, ",") {
			return '.', ',', nil
		}
		return ',', '.', nil
	}
	mark := '.'
	if commas > 0 {
		mark = ','
	}
	if dots+commas > 1 {
		return 0, mark, nil // repeated: groups, a whole number
	}
	before, after, _ := strings.Cut(t, string(mark))
	// "1.000" is a thousand or one; "1234.567" and "0.500" can only be
	// decimals, since groups hold three digits and a number starts with
	// no zero.
	if len(after) == 3 && allDigits(after) && len(before) <= 3 && strings.TrimLeft(before, "0") != "" {
		e := fail(orig, "%q could be read two ways (%s as the decimal separator, or as the thousands separator): set the decimal separator", Char(mark)).(*Error)
		e.err = ErrAmbiguous
		return 0, 0, e
	}
	if mark == '.' {
		return '.', ',', nil
	}
	return ',', '.', nil
}

// ungroup removes group separators, checking they stand every three digits.
func ungroup(orig, t string, grp, dec rune) (string, error) {
	if allDigits(t) {
		return t, nil
	}
	seps := []rune{grp}
	if grp == ' ' {
		seps = append(seps, '\'')
	}
	if grp == 0 {
		return "", fail(orig, "%q has %s where only digits belong (the decimal separator is %s, and digits are not grouped)", odd(t), Char(dec))
	}
	groups := strings.FieldsFunc(t, func(r rune) bool {
		for _, s := range seps {
			if r == s {
				return true
			}
		}
		return false
	})
	if strings.Count(t, string(grp))+1 != len(groups) && grp != ' ' {
		return "", fail(orig, "%q has its group separators (%s) in the wrong places", Char(grp))
	}
	for i, g := range groups {
		if !allDigits(g) || g == "" {
			return "", fail(orig, "%q has %s where only digits and the group separator (%s) belong (decimal separator %s)", odd(g), Char(grp), Char(dec))
		}
		if (i == 0 && len(g) > 3) || (i > 0 && len(g) != 3) {
			return "", fail(orig, "%q has its group separators (%s) in the wrong places: digits go in groups of three", Char(grp))
		}
	}
	return strings.Join(groups, ""), nil
}

// scale turns sign, digits and a power of ten into an integer count of
// 10^-digits units, refusing anything inexact or out of range.
func scale(orig string, neg bool, intPart, frac string, exp, digits int) (int64, error) {
	// Move the decimal point by exp.
	all := intPart + frac
	point := len(intPart) + exp + digits
	if point < 0 {
		if strings.Trim(all, "0") != "" {
			return 0, fail(orig, "%q has more decimals than allowed (%d)", digits)
		}
		return 0, nil
	}
	var whole, rest string
	if point >= len(all) {
		whole = all + strings.Repeat("0", min(point-len(all), 40))
		if point-len(all) > 40 {
			return 0, fail(orig, "%q is far too large")
		}
	} else {
		whole, rest = all[:point], all[point:]
	}
	if strings.Trim(rest, "0") != "" {
		switch digits {
		case 0:
			return 0, fail(orig, "%q has decimals, but this currency has no minor unit")
		default:
			return 0, fail(orig, "%q has more decimals than the currency's %d: amounts are never rounded, correct the value", digits)
		}
	}
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(whole, 10, 64)
	if err != nil || n > math.MaxInt64 {
		return 0, fail(orig, "%q is too large for an amount")
	}
	if neg {
		return -int64(n), nil
	}
	return int64(n), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// odd is the first character of s that is not a digit, or 0 (a
// misplaced character) when every one is.
func odd(s string) Char {
	for _, r := range s {
		if r < '0' || r > '9' {
			return Char(r)
		}
	}
	return 0
}

// ParseStored reads a number as a spreadsheet stores it: a binary
// floating-point value written in decimal, sometimes with 17 significant
// digits (Excel stores a typed 10.2 as "10.199999999999999"). It returns
// the number multiplied by 10^digits when that is a whole number, as
// ParseNumber does; otherwise, when a number with at most digits decimals
// is the very same floating-point value, that is the number that was
// typed and it is returned. Any other value (0.30000000000000004 from a
// formula adding 0.1 and 0.2, 12.345 for a currency of 2 decimals) is an
// error: nothing is rounded.
func ParseStored(s string, digits int) (int64, error) {
	n, err := ParseNumber(s, digits)
	if err == nil {
		return n, nil
	}
	f, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if ferr != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, err
	}
	short := strconv.FormatFloat(f, 'f', digits, 64)
	if g, gerr := strconv.ParseFloat(short, 64); gerr != nil || g != f {
		return 0, err
	}
	return ParseNumber(short, digits)
}
