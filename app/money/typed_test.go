package money_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
)

var (
	en = lang.English.Separators()
	de = lang.German.Separators()
	fr = lang.French.Separators()
)

func TestParseTyped(t *testing.T) {
	tests := []struct {
		sep    money.Separators
		text   string
		digits int
		want   int64
		// problem, when not 0, is why the text is refused, and hints how
		// the message offers to type it.
		problem money.TypedProblem
		hints   []string
	}{
		// As each language writes numbers.
		{en, "26,424.81", 2, 2642481, 0, nil},
		{de, "26.424,81", 2, 2642481, 0, nil},
		{fr, "16 620,13", 2, 1662013, 0, nil},
		{fr, "16\u00a0620,13", 2, 1662013, 0, nil},
		{fr, "16\u202f620,13", 2, 1662013, 0, nil},
		{de, "1.234.567,00", 2, 123456700, 0, nil},
		{en, "1,234,567", 2, 123456700, 0, nil},
		{fr, "1 234 567", 0, 1234567, 0, nil},
		{de, "-1.500,5", 2, -150050, 0, nil},
		{en, " +12.30 ", 2, 1230, 0, nil},
		{de, "\u22121,00", 2, -100, 0, nil},
		{de, "0,5", 2, 50, 0, nil},
		{en, ".5", 2, 50, 0, nil},
		{de, "1'234,50", 2, 123450, 0, nil},
		// The plain form, in any language.
		{en, "26424.81", 2, 2642481, 0, nil},
		{de, "26424.81", 2, 2642481, 0, nil},
		{fr, "26424.81", 2, 2642481, 0, nil},
		{fr, "26424", 2, 2642400, 0, nil},
		{de, "1000", 0, 1000, 0, nil},
		// Both marks: one amount in every language.
		{en, "26.424,81", 2, 2642481, 0, nil},
		{de, "26,424.81", 2, 2642481, 0, nil},
		{fr, "26.424,81", 2, 2642481, 0, nil},
		// A mark that cannot group digits is the decimal separator.
		{en, "1,5", 2, 150, 0, nil},
		{de, "1.5", 2, 150, 0, nil},
		{fr, "0.500", 3, 500, 0, nil},
		{fr, "1234.500", 3, 1234500, 0, nil},
		// One mark before three digits: the language says which.
		{de, "1.500", 2, 150000, 0, nil},
		{en, "1,500", 2, 150000, 0, nil},
		{de, "1.500", 0, 1500, 0, nil},
		{en, "1,500", 0, 1500, 0, nil},
		{en, "1.500", 3, 1500, 0, nil},
		{de, "1,500", 3, 1500, 0, nil},
		{fr, "1,500", 3, 1500, 0, nil},
		{fr, "1.500", 2, 0, money.ReadsTwoWays, []string{"1\u202f500,00", "1,50"}},
		{fr, "12.345", 2, 0, money.ReadsTwoWays, []string{"12\u202f345,00"}},
		{fr, "1.500", 3, 0, money.ReadsTwoWays, []string{"1\u202f500,000", "1,500"}},
		// More decimals than the currency has, zeros too.
		{de, "1,500", 2, 0, money.TooManyDecimals, []string{"1.500,00", "1,50"}},
		{en, "1.500", 2, 0, money.TooManyDecimals, []string{"1,500.00", "1.50"}},
		{en, "1.500", 0, 0, money.TooManyDecimals, []string{"1,500"}},
		{de, "12,345", 2, 0, money.TooManyDecimals, []string{"12.345,00"}},
		{de, "1.234,567", 2, 0, money.TooManyDecimals, []string{"26.424,81"}},
		{en, "26424.810", 2, 0, money.TooManyDecimals, []string{"26,424.81"}},
		{en, "5.5", 0, 0, money.TooManyDecimals, []string{"26,424"}},
		// Not amounts.
		{en, "", 2, 0, money.NotAnAmount, []string{"26,424.81"}},
		{de, "abc", 2, 0, money.NotAnAmount, []string{"26.424,81"}},
		{fr, "€ 12", 2, 0, money.NotAnAmount, []string{"26\u202f424,81"}},
		{en, "12,34,567.00", 2, 0, money.NotAnAmount, nil},
		{de, "1.23.456", 2, 0, money.NotAnAmount, nil},
		{de, "1.234,5,6", 2, 0, money.NotAnAmount, nil},
		{fr, "16 62,13", 2, 0, money.NotAnAmount, nil},
		{fr, "1 234.567,00", 2, 0, money.NotAnAmount, nil},
		{en, "12.", 2, 0, money.NotAnAmount, nil},
		{en, "(12.00)", 2, 0, money.NotAnAmount, nil},
		{en, "-", 2, 0, money.NotAnAmount, nil},
		{en, "1e5", 2, 0, money.NotAnAmount, nil},
		{en, "99999999999999999999", 2, 0, money.TooLarge, nil},
	}
	for _, tc := range tests {
		got, err := money.ParseTyped(tc.text, tc.digits, tc.sep)
		var te *money.TypedError
		switch {
		case tc.problem == 0 && (err != nil || got != tc.want):
			t.Errorf("%v %q (%d digits) = %d, %v; want %d", tc.sep, tc.text, tc.digits, got, err, tc.want)
		case tc.problem != 0 && !errors.As(err, &te):
			t.Errorf("%v %q (%d digits) = %d, %v; want problem %d", tc.sep, tc.text, tc.digits, got, err, tc.problem)
		case tc.problem != 0 && te.Problem != tc.problem:
			t.Errorf("%v %q (%d digits): %v, problem %d; want %d", tc.sep, tc.text, tc.digits, err, te.Problem, tc.problem)
		case tc.hints != nil && !slices.Equal(te.Hints(), tc.hints):
			t.Errorf("%v %q (%d digits): hints %q, want %q", tc.sep, tc.text, tc.digits, te.Hints(), tc.hints)
		}
	}
}

func TestTypedErrorSaysHowToTypeIt(t *testing.T) {
	_, err := money.ParseTyped("1,500", 2, de)
	if err == nil || err.Error() != `"1,500" has 3 decimals, more than the currency's 2: type 1.500,00 or 1,50` {
		t.Errorf("%v", err)
	}
	_, err = money.ParseTyped("1.500", 2, fr)
	if err == nil || err.Error() != "\"1.500\" reads two ways: type 1\u202f500,00 or 1,50" {
		t.Errorf("%v", err)
	}
}

func TestParseCurrencyAmount(t *testing.T) {
	tests := []struct {
		sep     money.Separators
		text    string
		code    string
		want    int64
		problem money.TypedProblem
	}{
		{de, "EUR 26.424,81", "EUR", 2642481, 0},
		{fr, "16 620,13 EUR", "EUR", 1662013, 0},
		{en, "USD:1,000.00", "USD", 100000, 0},
		{en, "eur:10000", "EUR", 1000000, 0},
		{de, "JPY 1.500", "JPY", 1500, 0},
		{en, "GBP10", "GBP", 1000, 0},
		{de, "BHD 1,500", "BHD", 1500, 0},
		{en, "EURO 100", "", 0, money.NoCurrency},
		{en, "100", "", 0, money.NoCurrency},
		{en, "XXX 100", "", 0, money.NoCurrency},
		{fr, "EUR 1.500", "EUR", 0, money.ReadsTwoWays},
		{en, "EUR 1.500", "EUR", 0, money.TooManyDecimals},
	}
	for _, tc := range tests {
		code, got, err := money.ParseCurrencyAmount(tc.text, tc.sep)
		var te *money.TypedError
		switch {
		case tc.problem == 0 && (err != nil || code != tc.code || got != tc.want):
			t.Errorf("%q = %s %d, %v; want %s %d", tc.text, code, got, err, tc.code, tc.want)
		case tc.problem != 0 && (!errors.As(err, &te) || te.Problem != tc.problem || te.Text != tc.text):
			t.Errorf("%q = %s %d, %v; want problem %d", tc.text, code, got, err, tc.problem)
		}
	}
}

var languages = []money.Separators{en, de, fr}

// FuzzParseTyped holds the reader of typed amounts to its promises for
// any text: an amount it accepts is written back by FormatWith in the
// same language to text it reads as the same amount; text with both
// marks reads the same in every language; and every way a refusal offers
// to type the text reads, in that language, as the amount it stands for.
func FuzzParseTyped(f *testing.F) {
	for _, s := range []string{"26.424,81", "16 620,13", "26,424.81", "26424.81", "1.500", "1,500", "-0,5", "1'234.50"} {
		for l := range languages {
			f.Add(s, uint8(2), uint8(l))
		}
	}
	f.Fuzz(func(t *testing.T, text string, d, l uint8) {
		digits, sep := int(d%5), languages[int(l)%len(languages)]
		n, err := money.ParseTyped(text, digits, sep)
		if err != nil {
			var te *money.TypedError
			if !errors.As(err, &te) {
				t.Fatalf("%q: %v is no TypedError", text, err)
			}
			for i, hint := range te.Hints() {
				if i >= len(te.Meant) {
					break
				}
				if back, err := money.ParseTyped(hint, digits, sep); err != nil || back != te.Meant[i] {
					t.Fatalf("%q: the hint %q reads %d, %v; want %d", text, hint, back, err, te.Meant[i])
				}
			}
			return
		}
		written := money.FormatWith(n, digits, sep)
		if back, err := money.ParseTyped(written, digits, sep); err != nil || back != n {
			t.Fatalf("%q = %d, written %q, which reads %d, %v", text, n, written, back, err)
		}
		if strings.Contains(text, ".") && strings.Contains(text, ",") {
			for _, other := range languages {
				if m, err := money.ParseTyped(text, digits, other); err != nil || m != n {
					t.Fatalf("%q with both marks: %d in %v, %d, %v in %v", text, n, sep, m, err, other)
				}
			}
		}
	})
}
