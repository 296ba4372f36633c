package money_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/money"
)

func TestDigits(t *testing.T) {
	for code, want := range map[string]int{"EUR": 2, "GBP": 2, "USD": 2, "JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3, "CLF": 4} {
		if got, ok := money.Digits(code); !ok || got != want {
			t.Errorf("Digits(%s) = %d, %v", code, got, ok)
		}
	}
	for _, bad := range []string{"", "EU", "eur", "XXX", "ABC"} {
		if _, ok := money.Digits(bad); ok {
			t.Errorf("Digits(%q) accepted", bad)
		}
	}
}

func TestParseMajor(t *testing.T) {
	tests := []struct {
		text   string
		digits int
		sep    money.Separators
		want   int64
		err    string
	}{
		{"12.34", 2, money.Point, 1234, ""},
		{"1,234.56", 2, money.Point, 123456, ""},
		{"1.234,56", 2, money.Comma, 123456, ""},
		{"1 234,56", 2, money.CommaSpace, 123456, ""},
		{"1\u00a0234,56", 2, money.CommaSpace, 123456, ""},
		{"1'234.56", 2, money.Separators{Decimal: '.', Group: ' '}, 123456, ""},
		{" -12.5 ", 2, money.Point, -1250, ""},
		{"+7", 2, money.Point, 700, ""},
		{".5", 2, money.Point, 50, ""},
		{"12.", 2, money.Point, 1200, ""},
		{"12.340", 2, money.Point, 1234, ""},
		{"1000", 0, money.Point, 1000, ""},
		{"1.234", 3, money.Point, 1234, ""},
		{"0", 2, money.Point, 0, ""},
		{"92233720368547758.07", 2, money.Point, math.MaxInt64, ""},
		{"12.345", 2, money.Point, 0, "more decimals than the currency's 2"},
		{"5.5", 0, money.Point, 0, "no minor unit"},
		{"12,34", 2, money.Point, 0, "group separators (',') in the wrong places"},
		{"1,23,456.00", 2, money.Point, 0, "groups of three"},
		{"1.234.56", 2, money.Point, 0, "'.' where only digits"},
		{"12,5", 2, money.Separators{Decimal: '.'}, 0, "digits are not grouped"},
		{"(12.00)", 2, money.Point, 0, "minus sign"},
		{"EUR 12", 2, money.Point, 0, "'E'"},
		{"", 2, money.Point, 0, "is empty"},
		{"-", 2, money.Point, 0, "not a number"},
		{"92233720368547758.08", 2, money.Point, 0, "too large"},
		// Unknown separators: only what reads one way is accepted.
		{"1.000", 2, money.Separators{}, 0, "could be read two ways"},
		{"1,000", 2, money.Separators{}, 0, "could be read two ways"},
		{"12.50", 2, money.Separators{}, 1250, ""},
		{"12,5", 2, money.Separators{}, 1250, ""},
		{"1.234,56", 2, money.Separators{}, 123456, ""},
		{"1,234.56", 2, money.Separators{}, 123456, ""},
		{"1.000.000", 2, money.Separators{}, 100000000, ""},
		{"1234.567", 3, money.Separators{}, 1234567, ""},
		{"0.500", 3, money.Separators{}, 500, ""},
		{"1050", 2, money.Separators{}, 105000, ""},
	}
	for _, tc := range tests {
		got, err := money.ParseMajor(tc.text, tc.digits, tc.sep)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseMajor(%q, %d, %v) = %d, %v; want %d", tc.text, tc.digits, tc.sep, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseMajor(%q, %d, %v) = %d, %v; want error %q", tc.text, tc.digits, tc.sep, got, err, tc.err)
		}
	}
}

func TestAmbiguityIsAnError(t *testing.T) {
	_, err := money.ParseMajor("1.000", 2, money.Separators{})
	if !errors.Is(err, money.ErrAmbiguous) {
		t.Errorf("error %v is not ErrAmbiguous", err)
	}
	if _, err := money.ParseMajor("12.345", 2, money.Point); errors.Is(err, money.ErrAmbiguous) {
		t.Errorf("a wrong amount reported as ambiguous: %v", err)
	}
}

func TestParseMinor(t *testing.T) {
	for _, tc := range []struct {
		text string
		sep  money.Separators
		want int64
		err  string
	}{
		{"1050", money.Point, 1050, ""},
		{"1,050", money.Point, 1050, ""},
		{"1.050", money.Comma, 1050, ""},
		{"-3", money.Point, -3, ""},
		{"10.00", money.Point, 0, "minor units"},
		{"10.50", money.Point, 0, "minor units"},
		{"10,50", money.Comma, 0, "minor units"},
	} {
		got, err := money.ParseMinor(tc.text, tc.sep)
		if (tc.err == "" && (err != nil || got != tc.want)) || (tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err))) {
			t.Errorf("ParseMinor(%q) = %d, %v", tc.text, got, err)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		text   string
		digits int
		want   int64
		err    bool
	}{
		{"12.34", 2, 1234, false},
		{"1050", 0, 1050, false},
		{"1.5E+2", 2, 15000, false},
		{"1E-2", 2, 1, false},
		{"0.30000000000000004", 2, 0, true},
		{"1E-3", 2, 0, true},
		{"1.2345678901234568E+18", 0, 1234567890123456800, false},
		{"1E+30", 0, 0, true},
		{"abc", 2, 0, true},
		{"1,5", 2, 0, true},
	} {
		got, err := money.ParseNumber(tc.text, tc.digits)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseNumber(%q, %d) = %d, %v", tc.text, tc.digits, got, err)
		}
	}
}

func TestParseStored(t *testing.T) {
	for _, tc := range []struct {
		text   string
		digits int
		want   int64
		err    bool
	}{
		{"10.199999999999999", 2, 1020, false}, // a typed 10.2, as Excel stores it
		{"1234.5599999999999", 2, 123456, false},
		{"12.34", 2, 1234, false},
		{"1050", 0, 1050, false},
		{"0.30000000000000004", 2, 0, true}, // 0.1+0.2: not the double of 0.30
		{"12.345", 2, 0, true},
		{"10.5", 0, 0, true},
		{"1.2345678901234568E+18", 0, 1234567890123456800, false},
		{"abc", 2, 0, true},
	} {
		got, err := money.ParseStored(tc.text, tc.digits)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseStored(%q, %d) = %d, %v", tc.text, tc.digits, got, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		minor int64
		code  string
		want  string
	}{
		{1234567, "EUR", "EUR 12,345.67"},
		{5, "EUR", "EUR 0.05"},
		{-1250, "GBP", "GBP -12.50"},
		{1000000, "JPY", "JPY 1,000,000"},
		{1234, "BHD", "BHD 1.234"},
		{math.MinInt64, "USD", "USD -92,233,720,368,547,758.08"},
		{100, "ZZZ", "ZZZ 1.00"},
	} {
		if got := money.Format(tc.minor, tc.code); got != tc.want {
			t.Errorf("Format(%d, %s) = %q, want %q", tc.minor, tc.code, got, tc.want)
		}
	}
	if got := money.FormatWith(123456, 2, money.Comma); got != "1.234,56" {
		t.Errorf("FormatWith comma: %q", got)
	}
	if got := money.FormatWith(123456, 2, money.Separators{}); got != "1234.56" {
		t.Errorf("FormatWith plain: %q", got)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, n := range []int64{0, 1, 99, 100, 123456789, -987654321, math.MaxInt64} {
		for _, sep := range []money.Separators{money.Point, money.Comma, money.CommaSpace} {
			for _, d := range []int{0, 2, 3} {
				text := money.FormatWith(n, d, sep)
				back, err := money.ParseMajor(text, d, sep)
				if err != nil || back != n {
					t.Errorf("%d with %v and %d digits: %q reads back as %d, %v", n, sep, d, text, back, err)
				}
			}
		}
	}
}

func TestAdd(t *testing.T) {
	if s, ok := money.Add(math.MaxInt64, 1); ok {
		t.Errorf("overflow not seen: %d", s)
	}
	if s, ok := money.Add(math.MinInt64, -1); ok {
		t.Errorf("underflow not seen: %d", s)
	}
	if s, ok := money.Add(-5, 7); !ok || s != 2 {
		t.Errorf("Add(-5, 7) = %d, %v", s, ok)
	}
}

func ExampleParseMajor() {
	n, err := money.ParseMajor("1.234,56", 2, money.Comma)
	fmt.Println(n, err)
	_, err = money.ParseMajor("12.345", 2, money.Point)
	fmt.Println(err)
	// Output:
	// 123456 <nil>
	// "12.345" has more decimals than the currency's 2: amounts are never rounded, correct the value
}

func ExampleFormat() {
	fmt.Println(money.Format(1234567, "EUR"))
	fmt.Println(money.Format(1500, "JPY"))
	// Output:
	// EUR 12,345.67
	// JPY 1,500
}

func TestFormatBigBeyond64Bits(t *testing.T) {
	n, _ := new(big.Int).SetString("-123456789012345678901", 10)
	if got := money.FormatBig(n, "EUR"); got != "EUR -1,234,567,890,123,456,789.01" {
		t.Errorf("got %q", got)
	}
	if got := money.FormatBig(big.NewInt(5), "BHD"); got != "BHD 0.005" {
		t.Errorf("got %q", got)
	}
}

func TestFormatBigAgreesWithFormat(t *testing.T) {
	for _, n := range []int64{0, 5, -5, 99, 100, 123456, -123456, math.MaxInt64, math.MinInt64} {
		for _, code := range []string{"EUR", "JPY", "BHD", "CLF", "XXX"} {
			if got, want := money.FormatBig(big.NewInt(n), code), money.Format(n, code); got != want {
				t.Errorf("FormatBig(%d, %s) = %q, Format: %q", n, code, got, want)
			}
		}
	}
}

func TestTotals(t *testing.T) {
	var ts money.Totals
	if ts.List() != nil {
		t.Error("empty totals listed")
	}
	big18 := new(big.Int).SetUint64(math.MaxUint64)
	for _, a := range []struct {
		cur   string
		minor *big.Int
	}{{"GBP", big18}, {"EUR", big.NewInt(1250)}, {"eur", big.NewInt(100)}, {"GBP", big18}, {"", big.NewInt(-1)}, {"EUR", big.NewInt(-50)},
		{"EURO", big.NewInt(1)}, {"a", big.NewInt(1)}, {"b", big.NewInt(1)}, {"c", big.NewInt(1)}} {
		ts.Add(a.cur, a.minor)
	}
	var got []string
	for _, tot := range ts.List() {
		got = append(got, fmt.Sprintf("%s|%d|%s|%s", tot.Label(), tot.Count, tot.Amount(), tot))
	}
	want := []string{
		"EUR|2|12.00|EUR 12.00",
		"GBP|2|368,934,881,474,191,032.30|GBP 368,934,881,474,191,032.30",
		`invalid currency|6|103 in minor units|invalid currency: 103 in minor units ("", "EURO", "a", "b", "eur", …)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("totals:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestAmountOf(t *testing.T) {
	for _, tc := range []struct {
		v    any
		cur  string
		want string
	}{
		{map[string]any{"currency": "EUR", "amount": json.Number("1250")}, "EUR", "1250"},
		{map[string]any{"currency": "EUR", "amount": "99999999999999999999"}, "EUR", "99999999999999999999"},
		{map[string]any{"amount": json.Number("7")}, "", "7"},
		{map[string]any{"currency": "EUR", "amount": json.Number("12.5")}, "", ""},
		{map[string]any{"currency": "EUR"}, "", ""},
		{"EUR 12", "", ""},
		{nil, "", ""},
	} {
		cur, n, ok := money.AmountOf(tc.v)
		if ok != (tc.want != "") || cur != tc.cur || (ok && n.String() != tc.want) {
			t.Errorf("AmountOf(%v) = %q, %v, %v", tc.v, cur, n, ok)
		}
	}
}
