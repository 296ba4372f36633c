package ingest_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/schema"
)

// transfersOf writes a transfers file with one row per amount, each
// "CUR:minor" or a bare minor amount in EUR; ids are given per row when
// ids is not nil.
func transfersOf(amounts []string, ids []string) string {
	var b strings.Builder
	b.WriteString("profileId,source.id,source.type,destination.id,destination.type,currency,amount\n")
	for i, a := range amounts {
		cur, minor, ok := strings.Cut(a, ":")
		if !ok {
			cur, minor = "EUR", a
		}
		id := "2001"
		if ids != nil {
			id = ids[i]
		}
		fmt.Fprintf(&b, "110321,1001,managed_accounts,%s,managed_cards,%s,%s\n", id, cur, minor)
	}
	return b.String()
}

// plausibility returns the plausibility warnings of a report as
// "where code".
func plausibility(r *schema.Report) []string {
	var out []string
	for _, p := range r.Problems {
		switch p.Code {
		case ingest.AmountOutlierCode, ingest.AmountAboveLimitCode, ingest.IDLengthCode:
			if p.Severity != schema.Warning {
				out = append(out, "NOT A WARNING "+p.Code)
			}
			out = append(out, ingest.Where(p)+" "+p.Code)
		}
	}
	return out
}

func TestAmountWarnings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		amounts []string
		limits  ingest.AmountLimits
		want    []string
	}{
		{"one amount 100 times the others", []string{"25000", "25000", "2500000", "25000"}, nil, []string{"t!G4 amount-outlier"}},
		{"99 times is not an outlier", []string{"25000", "25000", "2475000", "25000"}, nil, nil},
		{"fewer amounts than a median needs", []string{"25000", "2500000"}, nil, nil},
		{"each currency has its own median", []string{"GBP:100", "GBP:100", "GBP:100", "25000", "25000", "25000", "GBP:25000"}, nil, []string{"t!G8 amount-outlier"}},
		{"a currency of too few amounts is not compared with another", []string{"100", "100", "100", "JPY:25000"}, nil, nil},
		{"invalid currencies and amounts are left out", []string{"eur:100", "eur:100", "eur:100000", "abc", "-5", "0", "100"}, nil, nil},
		{"above the limit", []string{"100", "1000001", "1000000", "USD:5000000"}, ingest.AmountLimits{"EUR": 1000000}, []string{"t!G3 amount-above-limit"}},
		{"both", []string{"100", "100", "100", "1000000"}, ingest.AmountLimits{"EUR": 500000}, []string{"t!G5 amount-outlier", "t!G5 amount-above-limit"}},
		{"a median of the lower middle", []string{"10", "10", "1000", "1000"}, nil, []string{"t!G4 amount-outlier", "t!G5 amount-outlier"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := importOf(t, "t.csv", []byte(transfersOf(tc.amounts, nil)), "transfers")
			im.SetAmountLimits(tc.limits)
			res := im.Build(nil)
			if got := plausibility(res.Report); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAmountOutlierMessage(t *testing.T) {
	im := importOf(t, "t.csv", []byte(transfersOf([]string{"25000", "25000", "2500000", "25000"}, nil)), "transfers")
	res := im.Build(nil)
	ws := res.Report.Warnings()
	if len(ws) != 1 {
		t.Fatalf("warnings %v", ws)
	}
	p := ws[0]
	want := "destinationAmount.amount: EUR 25,000.00 is 100 times the median EUR 250.00 of this file's EUR amounts: check its units (cents or whole EUR units)"
	if p.Message != want || p.Column != "G" || p.Row != 4 || p.Element != 2 || p.Field != "destinationAmount.amount" || p.Pointer != "/requestBody/destinationAmount/amount" {
		t.Errorf("%+v", p)
	}
	if got := res.Problems(2); len(got) != 1 || got[0].Code != ingest.AmountOutlierCode {
		t.Errorf("element 2's problems %v", got)
	}
	if !res.Report.Valid() {
		t.Error("a plausibility warning made the report invalid")
	}
}

func TestAmountLimitMessageAndLaterLimits(t *testing.T) {
	im := importOf(t, "t.csv", []byte(transfersOf([]string{"100", "1200000"}, nil)), "transfers")
	res := im.Build(nil)
	if got := plausibility(res.Report); got != nil {
		t.Fatalf("without limits: %v", got)
	}
	// Limits set after the build apply to it at once.
	im.SetAmountLimits(ingest.AmountLimits{"EUR": 1000000})
	ws := res.Report.Warnings()
	if len(ws) != 1 || ws[0].Message != "destinationAmount.amount: EUR 12,000.00 is above the limit of EUR 10,000.00 set for EUR amounts: check it, or raise the limit" || ingest.Where(ws[0]) != "t!G3" {
		t.Fatalf("with a limit: %+v", ws)
	}
	im.SetAmountLimits(nil)
	if got := plausibility(res.Report); got != nil {
		t.Errorf("limits removed: %v", got)
	}
}

func TestPlausibilityAfterEdits(t *testing.T) {
	im := importOf(t, "t.csv", []byte(transfersOf([]string{"25000", "25000", "2500000", "25000"}, nil)), "transfers")
	im.SetAmountLimits(ingest.AmountLimits{"EUR": 3000000})
	res := im.Build(nil)
	if got := plausibility(res.Report); !slices.Equal(got, []string{"t!G4 amount-outlier"}) {
		t.Fatalf("before: %v", got)
	}
	// The operator corrects the units: the warning goes.
	ps, err := im.EditCell(4, 6, "25000")
	if err != nil || len(ps) != 0 {
		t.Fatalf("edit: %v %v", ps, err)
	}
	if got := plausibility(res.Report); got != nil {
		t.Errorf("after the fix: %v", got)
	}
	// An edit elsewhere that moves the median makes another amount an
	// outlier: the whole column is compared again.
	if _, err := im.EditCell(2, 6, "100"); err != nil {
		t.Fatal(err)
	}
	if _, err := im.EditCell(3, 6, "100"); err != nil {
		t.Fatal(err)
	}
	if got := plausibility(res.Report); !slices.Equal(got, []string{"t!G4 amount-outlier", "t!G5 amount-outlier"}) {
		t.Errorf("after the median moved: %v", got)
	}
	// Above the limit, on the edited cell's own problems.
	ps, err = im.EditCell(5, 6, "3000001")
	if err != nil || !slices.ContainsFunc(ps, func(p schema.Problem) bool { return p.Code == ingest.AmountAboveLimitCode }) {
		t.Errorf("edit above the limit: %v %v", ps, err)
	}
	// A new row becomes an element with its own record.
	if _, err := im.EditCell(6, 6, "100"); err != nil {
		t.Fatal(err)
	}
	if got := plausibility(res.Report); !slices.Equal(got, []string{"t!G4 amount-outlier", "t!G5 amount-outlier", "t!G5 amount-above-limit"}) {
		t.Errorf("after a new row: %v", got)
	}
}

func TestIDLengthWarning(t *testing.T) {
	for _, tc := range []struct {
		name string
		ids  []string
		want []string
		msg  string
	}{
		{"one shorter id", []string{"1001", "1002", "101"}, []string{"t!D4 id-length"},
			`destination.id: the ids of column D have different lengths: 2 of 3 have 4 characters, but D4 ("101") has 3: check that no digits were lost or added`},
		{"same lengths", []string{"1001", "1002", "1003"}, nil, ""},
		{"no common length", []string{"1001", "101"}, nil, ""},
		{"invalid ids are left out", []string{"1001", "1002", "10x"}, nil, ""},
		{"many odd ids are counted", []string{"1001", "11", "1002", "12", "1003", "12345", "1004", "1005", "13", "14", "1006", "1007", "1008"}, []string{"t!D3 id-length"},
			`destination.id: the ids of column D have different lengths: 8 of 13 have 4 characters, but D3 ("11") has 2, D5 ("12") has 2, D7 ("12345") has 5 and 2 more cells have other lengths: check that no digits were lost or added`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			amounts := make([]string, len(tc.ids))
			for i := range amounts {
				amounts[i] = "100"
			}
			im := importOf(t, "t.csv", []byte(transfersOf(amounts, tc.ids)), "transfers")
			res := im.Build(nil)
			got := plausibility(res.Report)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			if tc.msg != "" {
				if ws := res.Report.Warnings(); ws[0].Message != tc.msg {
					t.Errorf("message\n%s\nwant\n%s", ws[0].Message, tc.msg)
				}
			}
		})
	}
}

func TestIDLengthAfterEdit(t *testing.T) {
	csv := "card id\n1001\n1002\n101\n"
	im := importOf(t, "c.csv", []byte(csv), "card_blocks")
	res := im.Build(nil)
	if got := plausibility(res.Report); !slices.Equal(got, []string{"c!A4 id-length"}) {
		t.Fatalf("before: %v", got)
	}
	if _, err := im.EditCell(4, 0, "1003"); err != nil {
		t.Fatal(err)
	}
	if got := plausibility(res.Report); got != nil {
		t.Errorf("after: %v", got)
	}
}

func TestParseAmountLimit(t *testing.T) {
	for _, tc := range []struct {
		lang  lang.Tag
		in    string
		cur   string
		minor int64
		err   bool
	}{
		{lang.English, "EUR:10000", "EUR", 1000000, false},
		{lang.English, "EUR:10000.00", "EUR", 1000000, false},
		{lang.English, "eur:10,000.50", "EUR", 1000050, false},
		{lang.English, "JPY:500000", "JPY", 500000, false},
		{lang.English, "BHD:1.500", "BHD", 1500, false},
		{lang.German, "EUR:10.000,50", "EUR", 1000050, false},
		{lang.German, "EUR:10000.50", "EUR", 1000050, false},
		{lang.German, "EUR:1.500", "EUR", 150000, false},
		{lang.French, "EUR:10 000,50", "EUR", 1000050, false},
		{lang.French, "EUR 10\u202f000", "EUR", 1000000, false},
		{lang.French, "EUR:1.500", "", 0, true},
		{lang.English, "EUR:1.500", "", 0, true},
		{lang.English, "EUR:10.001", "", 0, true},
		{lang.English, "EURO:10", "", 0, true},
		{lang.English, "EUR", "", 0, true},
		{lang.English, "EUR:0", "", 0, true},
		{lang.English, "EUR:-5", "", 0, true},
		{lang.English, "EUR:abc", "", 0, true},
		{lang.English, ":", "", 0, true},
	} {
		cur, minor, err := ingest.ParseAmountLimit(tc.in, tc.lang.Separators())
		if cur != tc.cur || minor != tc.minor || (err != nil) != tc.err {
			t.Errorf("%s %q: %q %d %v", tc.lang, tc.in, cur, minor, err)
		}
	}
	// What Texts keeps reads back in any language with money.Point, and
	// what TextsIn writes for an operator reads back in theirs.
	limits := ingest.AmountLimits{"EUR": 1000050, "BHD": 1500, "JPY": 500000}
	for _, l := range lang.All {
		for i, texts := range [][]string{limits.Texts(), limits.TextsIn(l.Separators())} {
			sep := l.Separators()
			if i == 0 {
				sep = money.Point
			}
			for _, text := range texts {
				cur, minor, err := ingest.ParseAmountLimit(text, sep)
				if err != nil || minor != limits[cur] {
					t.Errorf("%s: %q reads %s %d, %v", l, text, cur, minor, err)
				}
			}
		}
	}
	if got := limits.TextsIn(lang.German.Separators()); !slices.Equal(got, []string{"BHD:1,500", "EUR:10.000,50", "JPY:500.000"}) {
		t.Errorf("German texts %q", got)
	}
}

func TestRequestAmountWarnings(t *testing.T) {
	var elements []any
	for _, a := range []string{"25000", "25000", "2500000", `"25000"`, "12"} {
		cur := "EUR"
		if a == "12" {
			cur = "eur"
		}
		e, _, err := schema.DecodeJSON([]byte(`{"requestBody":{"destinationAmount":{"currency":"` + cur + `","amount":` + a + `}}}`))
		if err != nil {
			t.Fatal(err)
		}
		elements = append(elements, e)
	}
	ps := ingest.RequestAmountWarnings(lang.English, fixture.Kind("transfers"), elements, ingest.AmountLimits{"EUR": 2000000})
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%d %s %s", p.Element, p.Pointer, p.Code))
	}
	want := []string{"2 /requestBody/destinationAmount/amount amount-outlier", "2 /requestBody/destinationAmount/amount amount-above-limit"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	if ps := ingest.RequestAmountWarnings(lang.English, fixture.Kind("card_blocks"), elements, nil); ps != nil {
		t.Errorf("a kind without amounts: %v", ps)
	}
	// In German, with the amounts written the German way and the limit
	// named after the amount, whatever the sentence's order.
	ps = ingest.RequestAmountWarnings(lang.German, fixture.Kind("transfers"), elements, ingest.AmountLimits{"EUR": 2000000})
	if len(ps) != 2 || !strings.Contains(ps[0].Message, "EUR 25.000,00 ist das 100-Fache des Medians EUR 250,00") ||
		!strings.Contains(ps[1].Message, "EUR 25.000,00 liegt über der für EUR-Beträge gesetzten Grenze von EUR 20.000,00") {
		t.Errorf("in German: %v", ps)
	}
}

// TestPlausibilityNeverPanics: odd inputs give no panic and no warning
// that lacks its column.
func TestPlausibilityNeverPanics(t *testing.T) {
	for _, csv := range []string{
		"amount\n",
		"amount,currency\n,\n",
		"amount,currency\n9223372036854775807,EUR\n1,EUR\n1,EUR\n1,EUR\n",
		"amount,currency\n-9223372036854775808,EUR\n1,EUR\n",
		"destination.id\n" + strings.Repeat("1", 300) + "\n1\n1\n",
	} {
		im := importOf(t, "t.csv", []byte(csv), "transfers")
		im.SetAmountLimits(ingest.AmountLimits{"EUR": 1})
		res := im.Build(nil)
		for _, p := range res.Report.Problems {
			if (p.Code == ingest.AmountOutlierCode || p.Code == ingest.IDLengthCode) && (p.Column == "" || p.Row == 0) {
				t.Errorf("%q: %+v", csv, p)
			}
		}
	}
}

func TestNth(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 4, 5, 10, 101, 1000, 4096} {
		for _, shape := range []string{"random", "sorted", "reversed", "equal", "few"} {
			s := make([]int64, n)
			for i := range s {
				switch shape {
				case "random":
					s[i] = rnd.Int64N(1000000)
				case "sorted":
					s[i] = int64(i)
				case "reversed":
					s[i] = int64(n - i)
				case "equal":
					s[i] = 7
				case "few":
					s[i] = rnd.Int64N(3)
				}
			}
			sorted := slices.Sorted(slices.Values(s))
			for _, k := range []int{0, (n - 1) / 2, n - 1} {
				c := slices.Clone(s)
				if got := ingest.Nth(c, k); got != sorted[k] {
					t.Errorf("%s %d: nth %d = %d, want %d", shape, n, k, got, sorted[k])
				}
			}
		}
	}
}
