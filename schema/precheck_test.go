package schema_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

// oddValues are replacements that probe types, bounds and patterns.
var oddValues = []any{
	nil, true, false, "", " ", "x", "0", "12", "EUR", "eur", "GB", "managed_accounts", "linked_accounts",
	"PERSONAL", "DAILY", "2024-02-29", "2023-02-30", "a@b.co", "DE89370400440532013000", "CHASUS33",
	"O\u2019Brien", "O'Brien", "caf\u00e9", "\u00a0", strings.Repeat("9", 40),
	json.Number("0"), json.Number("-1"), json.Number("1"), json.Number("12.5"), json.Number("1e3"),
	json.Number("1.0"), json.Number("1900"), json.Number("2101"), json.Number("9223372036854775807"),
	json.Number("9223372036854775808"), json.Number("-9223372036854775809"), json.Number("2147483648"),
	map[string]any{}, []any{}, []any{"GB"}, map[string]any{"iban": "x"}, map[string]any{"beneficiaryId": "1"},
}

// TestPrecheckAgreesWithTheLibrary mutates every seed element thousands of
// times and checks that whenever the pre-check is certain, the library
// agrees. A disagreement would let an invalid element skip validation.
func TestPrecheckAgreesWithTheLibrary(t *testing.T) {
	v := fixture.Validator()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 4000
	if testing.Short() {
		n = 400
	}
	certain := 0
	for _, k := range schema.Kinds() {
		for _, seed := range seeds(t, k.ID) {
			pointers := allPointers(seed, "")
			for range n / 4 {
				el := deepCopy(seed)
				for range 1 + rng.IntN(3) {
					p := pointers[rng.IntN(len(pointers))]
					switch rng.IntN(4) {
					case 0:
						setAt(el, p, nil, true)
					default:
						setAt(el, p, deepCopy(oddValues[rng.IntN(len(oddValues))]), false)
					}
				}
				pre, sure, lib := schema.Verdicts(v, k, el)
				if sure {
					certain++
					if pre != lib {
						t.Fatalf("%s: pre-check says valid=%v, library says valid=%v for %s", k.ID, pre, lib, jsonString(el))
					}
				}
			}
		}
	}
	if certain == 0 {
		t.Fatal("the pre-check was never certain")
	}
}

// allPointers lists the pointer of every value inside v, v excluded.
func allPointers(v any, prefix string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			p := prefix + "/" + k
			out = append(out, p)
			out = append(out, allPointers(c, p)...)
		}
	case []any:
		for i, c := range x {
			p := prefix + "/" + jsonString(i)
			out = append(out, p)
			out = append(out, allPointers(c, p)...)
		}
	}
	return out
}

// FuzzPrecheck feeds arbitrary elements to every kind and checks that the
// pre-check never contradicts the library, and that validation never panics.
func FuzzPrecheck(f *testing.F) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "valid"))
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join("testdata", "valid", e.Name()))
		var elements []json.RawMessage
		if json.Unmarshal(data, &elements) == nil {
			for _, el := range elements {
				f.Add([]byte(el))
			}
		}
	}
	v := fixture.Validator()
	f.Fuzz(func(t *testing.T, data []byte) {
		el, _, err := schema.DecodeJSON(data)
		if err != nil {
			return
		}
		for _, k := range schema.Kinds() {
			if pre, sure, lib := schema.Verdicts(v, k, el); sure && pre != lib {
				t.Fatalf("%s: pre-check valid=%v, library valid=%v", k.ID, pre, lib)
			}
			for _, p := range v.ValidateElement(k, 0, el) {
				if p.Message == "" || p.Code == "" {
					t.Fatalf("%s: problem without message or code: %+v", k.ID, p)
				}
			}
		}
	})
}
