package ingest_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// The properties below hold for every detector: when the cells agree, the
// decision is theirs; when one cell disagrees with all the others, the
// decision is undecided, its value is the default (never the reading of
// either side), and the disagreeing cell is named first.

const trials = 200

// amountsCSV writes a transfers CSV whose amounts and currencies are
// given row by row.
func amountsCSV(amounts, currencies []string) []byte {
	var b strings.Builder
	b.WriteString("profileId;source.id;source.type;destination.id;destination.type;currency;amount\n")
	for i, a := range amounts {
		fmt.Fprintf(&b, "110321;%d;managed_accounts;%d;managed_cards;%s;%s\n", 1000+i, 2000+i, currencies[i], a)
	}
	return []byte(b.String())
}

func TestUnitsOneDisagreeingAmountIsUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 10))
	for trial := range trials {
		n := 3 + rng.IntN(40)
		amounts, curs := make([]string, n), make([]string, n)
		majority := rng.IntN(2) == 0 // true: the file is in major units
		for i := range n {
			curs[i] = []string{"EUR", "USD", "GBP"}[rng.IntN(3)]
			if majority {
				amounts[i] = fmt.Sprintf("%d,%02d", rng.IntN(100000), rng.IntN(100))
			} else {
				amounts[i] = fmt.Sprint(1 + rng.IntN(10000000))
			}
		}
		odd := rng.IntN(n)
		if majority {
			amounts[odd] = fmt.Sprint(1 + rng.IntN(10000000))
		} else {
			amounts[odd] = fmt.Sprintf("%d,%02d", rng.IntN(100000), rng.IntN(100))
		}
		im := importOf(t, "t.csv", amountsCSV(amounts, curs), "transfers")
		u := im.Reading().Units
		if !u.Undecided || u.Value != ingest.Minor || u.How != reading.Default {
			t.Fatalf("trial %d: %v with the odd one at row %d: units %+v, want undecided minor", trial, amounts, odd+2, u)
		}
		if u.Evidence[0].Row != odd+2 {
			t.Fatalf("trial %d: the first evidence is row %d, want the odd row %d", trial, u.Evidence[0].Row, odd+2)
		}
		// Unanimous again once the odd one agrees.
		amounts[odd] = amounts[(odd+1)%n]
		im = importOf(t, "t.csv", amountsCSV(amounts, curs), "transfers")
		want := ingest.Minor
		if majority {
			want = ingest.Major
		}
		if u := im.Reading().Units; u.Undecided || u.Value != want || u.How != reading.Detected {
			t.Fatalf("trial %d: %v: units %+v, want detected %s", trial, amounts, u, want)
		}
	}
}

func TestUnitsFollowEachCurrencysDecimals(t *testing.T) {
	tests := []struct {
		name       string
		amounts    []string
		currencies []string
		want       string
		undecided  bool
	}{
		{"each with its decimals", []string{"250,00", "12,345", "1500"}, []string{"EUR", "BHD", "JPY"}, ingest.Major, false},
		{"yen alone tells nothing", []string{"1500", "20"}, []string{"JPY", "JPY"}, ingest.Minor, false},
		{"three decimals in euros", []string{"250,00", "12,345"}, []string{"EUR", "EUR"}, ingest.Minor, true},
		{"one decimal", []string{"250,00", "12,5"}, []string{"EUR", "EUR"}, ingest.Minor, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := importOf(t, "t.csv", amountsCSV(tc.amounts, tc.currencies), "transfers").Reading().Units
			if u.Value != tc.want || u.Undecided != tc.undecided {
				t.Errorf("units %+v, want %s undecided=%v", u, tc.want, tc.undecided)
			}
		})
	}
	// "yen alone tells nothing" is the default, not a detection.
	if u := importOf(t, "t.csv", amountsCSV([]string{"1500"}, []string{"JPY"}), "transfers").Reading().Units; u.How != reading.Default {
		t.Errorf("yen only: %+v", u)
	}
}

func TestDecimalSeparatorOneDisagreeingCellIsUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 20))
	for trial := range trials {
		n := 3 + rng.IntN(40)
		amounts, curs := make([]string, n), make([]string, n)
		point := rng.IntN(2) == 0
		write := func(point bool) string {
			if point {
				return fmt.Sprintf("%d.%02d", rng.IntN(1000), rng.IntN(100))
			}
			return fmt.Sprintf("%d,%02d", rng.IntN(1000), rng.IntN(100))
		}
		for i := range n {
			curs[i] = "EUR"
			amounts[i] = write(point)
		}
		odd := rng.IntN(n)
		amounts[odd] = write(!point)
		d := importOf(t, "t.csv", amountsCSV(amounts, curs), "transfers").Reading().Decimal
		if !d.Undecided || d.Value != "" {
			t.Fatalf("trial %d: %v: decimal %+v, want undecided", trial, amounts, d)
		}
		if d.Evidence[0].Row != odd+2 {
			t.Fatalf("trial %d: first evidence row %d, want %d", trial, d.Evidence[0].Row, odd+2)
		}
	}
}

func TestAmbiguousSeparatorIsAnErrorAtItsCell(t *testing.T) {
	im := importOf(t, "t.csv", amountsCSV([]string{"1,500", "2,250"}, []string{"EUR", "EUR"}), "transfers")
	if d := im.Reading().Decimal; d.Value != "" || d.How != reading.Default || !d.Undecided || len(d.Evidence) == 0 || d.Evidence[0].Row != 2 || d.Evidence[0].Column != "G" {
		t.Errorf("decimal %+v, want undecided, naming G2", d)
	}
	res := im.Build(nil)
	errs := res.Report.Errors()
	if len(errs) != 2 || errs[0].Row != 2 || errs[0].Column != "G" || !strings.Contains(errs[0].Message, "two ways") {
		t.Errorf("errors %+v", errs)
	}
	// Once the operator says which, it reads.
	if err := im.SetSettings(ingest.Settings{Amounts: ingest.Minor, Decimal: ".", Group: ","}, "decimal"); err != nil {
		t.Fatal(err)
	}
	if res := im.Build(nil); !res.Report.Valid() {
		t.Errorf("with the decimal point chosen: %v", res.Report.Errors())
	}
	if d := im.Reading().Decimal; d.How != reading.Chosen || d.Value != "." {
		t.Errorf("decimal after the choice %+v", d)
	}
}

func TestDateOrderOneDisagreeingDateIsUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 30))
	for trial := range trials {
		n := 3 + rng.IntN(30)
		var b strings.Builder
		b.WriteString("name,surname,email,dateOfBirth\n")
		dayFirst := rng.IntN(2) == 0
		odd := rng.IntN(n)
		for i := range n {
			day, month := 13+rng.IntN(16), 1+rng.IntN(12)
			df := dayFirst != (i == odd)
			date := fmt.Sprintf("%02d/%02d/19%02d", month, day, rng.IntN(100))
			if df {
				date = fmt.Sprintf("%02d/%02d/19%02d", day, month, rng.IntN(100))
			}
			fmt.Fprintf(&b, "A,B,a%d@example.com,%s\n", i, date)
		}
		d := importOf(t, "u.csv", []byte(b.String()), "users").Reading().DateOrder
		if !d.Undecided || d.Value != "" || d.Evidence[0].Row != odd+2 {
			t.Fatalf("trial %d: %s: date order %+v, want undecided naming row %d first", trial, b.String(), d, odd+2)
		}
	}
}

func TestDelimiterOneDisagreeingLineIsUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 40))
	for trial := range trials {
		n := 3 + rng.IntN(30)
		var b strings.Builder
		delim, other := ";", ","
		if rng.IntN(2) == 0 {
			delim, other = "\t", "|"
		}
		odd := 1 + rng.IntN(n)
		b.WriteString("card id" + delim + "note\n")
		for i := 1; i <= n; i++ {
			d := delim
			if i == odd {
				d = other
			}
			fmt.Fprintf(&b, "%d%snote %d\n", 100+i, d, i)
		}
		f, err := ingest.Open("c.csv", []byte(b.String()), ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tab, err := f.Table("", nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := tab.Reading.Delimiter; !d.Undecided || d.Value != "," {
			t.Fatalf("trial %d: %q: delimiter %+v, want undecided with the default", trial, b.String(), d)
		}
	}
	f, err := ingest.Open("c.csv", []byte("Cards to block\ncard id;note\n101;lost, at home\n102;stolen\n"), ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Delimiter != ";" {
		t.Errorf("a title line and a comma in a value: delimiter %q", f.Delimiter)
	}
}

func TestEncodingMixedBytesAreUndecided(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 50))
	for trial := range trials {
		n := 2 + rng.IntN(20)
		lines := make([]string, n)
		utf8File := rng.IntN(2) == 0
		for i := range lines {
			if utf8File {
				lines[i] = fmt.Sprintf("%d,Caf\xc3\xa9 %d", 100+i, i)
			} else {
				lines[i] = fmt.Sprintf("%d,Caf\xe9 %d", 100+i, i)
			}
		}
		odd := rng.IntN(n)
		if utf8File {
			lines[odd] = fmt.Sprintf("%d,Caf\xe9", 100+odd)
		} else {
			lines[odd] = fmt.Sprintf("%d,Caf\xc3\xa9", 100+odd)
		}
		data := []byte("card id,note\n" + strings.Join(lines, "\n") + "\n")
		f, err := ingest.Open("c.csv", data, ingest.Options{Encoding: ""})
		if err != nil {
			t.Fatal(err)
		}
		if f.Encoding != ingest.UTF8 {
			t.Fatalf("trial %d: encoding %q, want the default utf-8", trial, f.Encoding)
		}
		tab, err := f.Table("", nil)
		if err == nil && !tab.Reading.Encoding.Undecided {
			t.Fatalf("trial %d: encoding %+v, want undecided", trial, tab.Reading.Encoding)
		}
	}
}
