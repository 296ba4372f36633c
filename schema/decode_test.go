package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

func TestDecodeKeepsNumbersExact(t *testing.T) {
	v := fixture.Decode(`{"a": 12345678901234567890123, "b": -0.10, "c": 1E+2}`).(map[string]any)
	for k, want := range map[string]json.Number{"a": "12345678901234567890123", "b": "-0.10", "c": "1E+2"} {
		if v[k] != want {
			t.Errorf("%s = %#v, want %#v", k, v[k], want)
		}
	}
}

func TestDecodeReportsDuplicateKeys(t *testing.T) {
	v, dups, err := schema.DecodeJSON([]byte(`[{"a": {"b": 1, "b": 2}}, {"a~/": 1, "a~/": 2}]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/0/a/b", "/1/a~0~1"}; !reflect.DeepEqual(dups, want) {
		t.Errorf("dups = %q, want %q", dups, want)
	}
	if got := v.([]any)[0].(map[string]any)["a"].(map[string]any)["b"]; got != json.Number("2") {
		t.Errorf("the last value should win, got %v", got)
	}
}

func TestDecodeSkipsByteOrderMark(t *testing.T) {
	if _, _, err := schema.DecodeJSON([]byte("\ufeff[1]")); err != nil {
		t.Fatal(err)
	}
}

// FuzzDecodeJSON checks the reader against encoding/json: whatever both
// accept must decode to the same value, and the reader may refuse only what
// its own limits forbid.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`[]`, `[{"pathParams":{},"requestBody":{"a":"\u00e9\n","b":[1,-2.5e-3,true,null]}}]`, `{"a":1,"a":2}`, `"\ud83d\ude00"`, `[[[[]]]]`, `01`, `1e400`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _, err := schema.DecodeJSON(data)
		var want any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		stdErr := dec.Decode(&want)
		if stdErr == nil && len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
			stdErr = errors.New("data after the value")
		}
		if err == nil {
			if bytes.HasPrefix(data, []byte("\ufeff")) {
				return
			}
			if stdErr != nil {
				t.Fatalf("accepted input encoding/json refuses (%v): %q", stdErr, data)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded %#v, encoding/json %#v", got, want)
			}
			return
		}
		if stdErr == nil && utf8.Valid(data) && !bytes.Contains(data, []byte(`\u`)) && !deepOrBig(data) {
			t.Fatalf("refused valid JSON: %v: %q", err, data)
		}
	})
}

// deepOrBig reports input that may trip the reader's nesting or number
// limits: more than 64 levels, a number over 100 characters, or an
// exponent of three digits or more.
func deepOrBig(data []byte) bool {
	depth, maxDepth := 0, 0
	for _, c := range data {
		switch c {
		case '[', '{':
			depth++
			maxDepth = max(maxDepth, depth)
		case ']', '}':
			depth--
		}
	}
	return maxDepth > schema.MaxDepth || bigNumber.Match(data)
}

var bigNumber = regexp.MustCompile(`[0-9.eE+-]{101}|[eE][+-]?[0-9]{3}`)

// TestCheckDocumentIsCheckRequest: checking a decoded body reports what
// checking its text does, for valid bodies and invalid ones, with keys
// written twice; past maxListedProblems, one error per invalid element.
func TestCheckDocumentIsCheckRequest(t *testing.T) {
	k, _ := schema.Lookup("transfers")
	v := schema.Default()
	valid, err := os.ReadFile("testdata/valid/transfers.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{string(valid), `[]`, `{"a": 1}`, `[{"requestBody": {"profileId": 1, "profileId": 2}}, 3, {}]`} {
		doc, dups, err := schema.DecodeJSON([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		want, err := v.CheckRequest(k, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.CheckDocument(k, doc, dups); !reflect.DeepEqual(got, want) {
			t.Errorf("%.40s: CheckDocument\n%+v\nCheckRequest\n%+v", body, got, want)
		}
	}
	many := "[" + strings.Repeat(`{"requestBody": {}},`, 60000) + `{"requestBody": {}}]`
	doc, _, _ := schema.DecodeJSON([]byte(many))
	r := v.CheckDocument(k, doc, nil)
	if n := len(r.InvalidElements()); n != 60001 || len(r.Problems) > 200000 {
		t.Errorf("%d invalid elements, %d problems", n, len(r.Problems))
	}
	if !slices.ContainsFunc(r.Problems, func(p schema.Problem) bool { return p.Code == "problems-cut" }) {
		t.Error("no problem says the list is cut")
	}
}
