package money

import (
	"fmt"
	"strings"
)

// An amount an operator types (a control total, an amount limit, the
// count of elements) is read as their language writes numbers, and the
// plain form software writes is read in every language too. The rules,
// in order:
//
//  1. Spaces (U+0020, the no-break space U+00A0, the narrow no-break
//     space U+202F) and apostrophes between digits group digits, in every
//     language: "16 620,13", "1'234.50".
//  2. A text with both '.' and ',' has its decimal separator last and
//     groups digits with the other: "26.424,81" and "26,424.81" are each
//     one amount, whatever the language.
//  3. A mark written more than once groups digits: "1.234.567".
//  4. A single mark followed by anything but exactly three digits, or
//     after a group of spaces, a zero or more than three digits, cannot
//     group digits: it is the decimal separator ("26424.81" in any
//     language, "1,5").
//  5. A single mark followed by exactly three digits, after one to three
//     digits not starting with 0 ("1.500", "1,500"), reads as the
//     language writes it: as its decimal separator ("1,500" in German,
//     "1.500" in English, 1.5 with three decimals) or as its group
//     separator ("1.500" in German, "1,500" in English: 1500). A mark the
//     language does not use ('.' in French) leaves the text reading two
//     ways: it is refused, never guessed.
//  6. More decimals than the currency has are refused, zeros included:
//     "1,500" in German is no amount of euros, but may be 1.500,00 or
//     1,50, which the error offers.
//
// Nothing is rounded or guessed, and every refusal says how the text may
// have been meant (TypedError.Meant), so that the message can show how to
// type it.

// A TypedProblem is why a typed amount is refused.
type TypedProblem int

// Why a typed amount is refused.
const (
	// NotAnAmount: letters, marks out of place, digits wrongly grouped,
	// nothing typed.
	NotAnAmount TypedProblem = iota + 1
	// ReadsTwoWays: a mark the language does not use could be a decimal
	// separator or group digits ("1.500" in French).
	ReadsTwoWays
	// TooManyDecimals: more decimals than the currency has.
	TooManyDecimals
	// TooLarge: beyond what an amount can hold.
	TooLarge
	// NoCurrency: a currency and an amount were asked for, and no ISO
	// 4217 code is in the text.
	NoCurrency
)

// A TypedError says why a typed amount is refused and how it may have
// been meant.
type TypedError struct {
	Text    string
	Problem TypedProblem
	// Digits are the currency's minor digits, Sep the separators the text
	// was read with.
	Digits int
	Sep    Separators
	// Decimals is how many decimals the text has (TooManyDecimals).
	Decimals int
	// Meant are the amounts in minor units the text may stand for that
	// fit the currency, likeliest first: for "1,500" in German, 150000
	// (1.500,00) and 150 (1,50).
	Meant []int64
}

// Error says the problem in English, the amounts written with the
// separators the text was read with.
func (e *TypedError) Error() string {
	var msg string
	switch e.Problem {
	case ReadsTwoWays:
		msg = fmt.Sprintf("%q reads two ways", e.Text)
	case TooManyDecimals:
		msg = fmt.Sprintf("%q has %d decimals, more than the currency's %d", e.Text, e.Decimals, e.Digits)
	case TooLarge:
		msg = fmt.Sprintf("%q is too large for an amount", e.Text)
	case NoCurrency:
		msg = fmt.Sprintf("%q names no ISO 4217 currency, such as EUR", e.Text)
	default:
		msg = fmt.Sprintf("%q is not an amount", e.Text)
	}
	return msg + ": type " + strings.Join(e.Hints(), " or ")
}

// Say says the refusal for package lang, in the operator's language, as
// the console's control totals say it: the text, and how to type it.
func (e *TypedError) Say() (string, []any) {
	hints := Alternatives(e.Hints())
	switch e.Problem {
	case ReadsTwoWays:
		return "%q reads two ways: type %s.", []any{e.Text, hints}
	case TooManyDecimals:
		return "%q has more decimals than its currency has: type %s.", []any{e.Text, hints}
	case NoCurrency:
		return "%q names no currency: type it as %s.", []any{e.Text, hints}
	}
	return "%q is not an amount: type it as %s.", []any{e.Text, hints}
}

// Alternatives are the ways to type an amount, which lang joins with the
// language's "or".
type Alternatives []string

// Unwrap returns ErrAmbiguous for a text that may stand for two
// amounts ("1.500" in French, "1,500" in German).
func (e *TypedError) Unwrap() error {
	if len(e.Meant) > 1 {
		return ErrAmbiguous
	}
	return nil
}

// Hints are the ways to type what the text may have meant, written with
// the separators it was read with; an example amount when it can have
// meant none.
func (e *TypedError) Hints() []string {
	if e.Problem == NoCurrency {
		return []string{"EUR " + Example(2, e.Sep)}
	}
	var out []string
	for _, m := range e.Meant {
		out = append(out, FormatWith(m, e.Digits, e.Sep))
	}
	if len(out) == 0 {
		out = append(out, Example(e.Digits, e.Sep))
	}
	return out
}

// Example writes an example amount for a currency with digits minor
// digits as sep writes numbers: "26,424.81", "26.424,81", "26 424,81".
func Example(digits int, sep Separators) string {
	minor := int64(26424)
	for i := range digits {
		minor = minor*10 + int64("815"[i%3]-'0')
	}
	return FormatWith(minor, digits, sep)
}

// ParseTyped reads an amount an operator typed in major units, in the
// language whose separators sep are (see the rules above), for a currency
// with digits minor digits, and returns it in minor units. A refusal is
// a *TypedError.
func ParseTyped(text string, digits int, sep Separators) (int64, error) {
	fail := func(p TypedProblem) *TypedError {
		return &TypedError{Text: text, Problem: p, Digits: digits, Sep: sep}
	}
	t := strings.TrimSpace(strings.Map(spaceToASCII, text))
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg, t = t[0] == '-', strings.TrimSpace(t[1:])
	} else if rest, ok := strings.CutPrefix(t, "\u2212"); ok {
		neg, t = true, strings.TrimSpace(rest)
	}
	t = strings.ReplaceAll(t, "\u2019", "'")
	if t == "" || strings.Trim(t, "0123456789.,' ") != "" || !strings.ContainsAny(t, "0123456789") {
		return 0, fail(NotAnAmount)
	}
	dec, grp, err := typedMarks(t, sep)
	if err != nil {
		err.Text, err.Digits, err.Sep = text, digits, sep
		if err.Problem == ReadsTwoWays {
			before, after, _ := strings.Cut(strings.ReplaceAll(t, ",", "."), ".")
			err.Meant = meantOtherwise(before, after, digits, neg, true)
		}
		return 0, err
	}
	intText, frac := t, ""
	if dec != 0 {
		i := strings.IndexByte(t, dec)
		intText, frac = t[:i], t[i+1:]
		if frac == "" || !allDigits(frac) {
			return 0, fail(NotAnAmount)
		}
	}
	intPart, ok := typedGroups(intText, grp)
	if !ok {
		return 0, fail(NotAnAmount)
	}
	if len(frac) > digits {
		e := fail(TooManyDecimals)
		e.Decimals = len(frac)
		e.Meant = meantOtherwise(intPart, frac, digits, neg, grp == 0 && dec != 0 && len(frac) == 3 && len(intPart) <= 3 && intPart != "" && intPart[0] != '0')
		return 0, e
	}
	n, serr := scale(text, neg, intPart, frac, 0, digits)
	if serr != nil {
		return 0, fail(TooLarge)
	}
	return n, nil
}

// typedMarks decides the decimal separator and the mark that groups
// digits of a text of digits, marks and group spaces (rules 2 to 5): 0
// for none.
func typedMarks(t string, sep Separators) (dec, grp byte, err *TypedError) {
	dots, commas := strings.Count(t, "."), strings.Count(t, ",")
	spaced := strings.ContainsAny(t, " '")
	switch {
	case dots > 0 && commas > 0:
		dec, grp = '.', ','
		if strings.LastIndexByte(t, ',') > strings.LastIndexByte(t, '.') {
			dec, grp = ',', '.'
		}
		if strings.Count(t, string(dec)) > 1 || spaced {
			return 0, 0, &TypedError{Problem: NotAnAmount}
		}
		return dec, grp, nil
	case dots+commas == 0:
		return 0, 0, nil
	case dots > 1:
		return 0, '.', nil
	case commas > 1:
		return 0, ',', nil
	}
	mark := byte('.')
	if commas == 1 {
		mark = ','
	}
	i := strings.IndexByte(t, mark)
	before, after := t[:i], t[i+1:]
	if len(after) != 3 || spaced || len(before) == 0 || len(before) > 3 || before[0] == '0' {
		return mark, 0, nil // it cannot group digits
	}
	switch rune(mark) {
	case sep.Decimal:
		return mark, 0, nil
	case sep.Group:
		return 0, mark, nil
	}
	return 0, 0, &TypedError{Problem: ReadsTwoWays}
}

// typedGroups returns the digits of an integer part grouped by grp or by
// spaces and apostrophes, in groups of three after the first; false when
// they are not.
func typedGroups(t string, grp byte) (string, bool) {
	if t == "" {
		return "0", true
	}
	if allDigits(t) {
		return t, true
	}
	groups := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\'' || grp != 0 && r == rune(grp) })
	seps := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, t)
	// One kind of mark, one between each two groups.
	if len(groups) != len(seps)+1 || strings.Trim(seps, seps[:1]) != "" && strings.Trim(seps, " '") != "" {
		return "", false
	}
	for i, g := range groups {
		if !allDigits(g) || g == "" || i == 0 && len(g) > 3 || i > 0 && len(g) != 3 {
			return "", false
		}
	}
	return strings.Join(groups, ""), true
}

// meantOtherwise lists the amounts, in minor units of a currency with
// digits minor digits, that a text of integer part intPart and fraction
// digits frac may stand for: its digits grouped (when asGroups), and its
// decimals when those beyond the currency's are zeros.
func meantOtherwise(intPart, frac string, digits int, neg, asGroups bool) []int64 {
	var out []int64
	add := func(whole, f string) {
		if n, err := scale("", neg, whole, f, 0, digits); err == nil {
			out = append(out, n)
		}
	}
	if asGroups {
		add(intPart+frac, "")
	}
	if short := strings.TrimRight(frac, "0"); len(short) <= digits {
		add(intPart, short)
	}
	return out
}

// ParseCurrencyAmount reads a currency and an amount an operator typed,
// the code first or last, with spaces or a colon between: "EUR 26.424,81",
// "26.424,81 EUR", "EUR:10000", "eur 100". The code is an ISO 4217 code,
// in any case; the amount is read by ParseTyped with sep. A refusal is a
// *TypedError that quotes the whole text.
func ParseCurrencyAmount(text string, sep Separators) (code string, minor int64, err error) {
	t := strings.TrimSpace(strings.Map(spaceToASCII, text))
	amount := ""
	switch {
	case len(t) >= 3 && isCode(t[:3]) && (len(t) == 3 || !isLetter(t[3])):
		code, amount = strings.ToUpper(t[:3]), strings.TrimLeft(t[3:], ": ")
	case len(t) >= 3 && isCode(t[len(t)-3:]) && (len(t) == 3 || !isLetter(t[len(t)-4])):
		code, amount = strings.ToUpper(t[len(t)-3:]), strings.TrimRight(t[:len(t)-3], ": ")
	default:
		return "", 0, &TypedError{Text: text, Problem: NoCurrency, Digits: 2, Sep: sep}
	}
	digits, _ := Digits(code)
	minor, err = ParseTyped(amount, digits, sep)
	if e, ok := err.(*TypedError); ok {
		e.Text = text
	}
	return code, minor, err
}

// isCode reports three letters that, in capitals, are an ISO 4217 code.
func isCode(s string) bool {
	return isLetter(s[0]) && isLetter(s[1]) && isLetter(s[2]) && Valid(strings.ToUpper(s))
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// spaceToASCII makes the spaces that group digits plain spaces.
func spaceToASCII(r rune) rune {
	if r == '\u00a0' || r == '\u202f' {
		return ' '
	}
	return r
}
