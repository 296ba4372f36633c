package schema_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestTheVerdictIsTheContracts holds the verdict rule: an element is
// invalid exactly when the upstream schema, after the overlay's relax and
// require entries, refuses it. The judge is the JSON Schema library used
// plainly (its own regular expressions, no pre-check, no advice), on the
// seeds and on every way the generated cases break them.
func TestTheVerdictIsTheContracts(t *testing.T) {
	v := fixture.Validator()
	checked, refused := 0, 0
	for _, k := range schema.Kinds() {
		judge := plainCompile(t, k)
		for si, seed := range seeds(t, k.ID) {
			try := func(name string, el any) {
				checked++
				upstream := judge.Validate(el) == nil
				ours := len(errorsOf(v.ValidateElement(k, 0, el))) == 0
				if !upstream {
					refused++
				}
				if upstream != ours {
					t.Errorf("%s %d %s: the contract says valid=%v, Bulkdesk valid=%v: %v", k.ID, si, name, upstream, ours, errorsOf(v.ValidateElement(k, 0, el)))
				}
			}
			try("as it is", seed)
			for _, f := range v.Fields(k) {
				ptr := fieldPointer(f.Path)
				orig, ok := getAt(seed, ptr)
				if !ok {
					continue
				}
				for _, m := range violations(f, orig) {
					el := deepCopy(seed)
					setAt(el, ptr, m.value, m.delete)
					try(f.Path+" "+m.code, el)
				}
			}
		}
	}
	t.Logf("%d elements judged, %d refused by the contract", checked, refused)
	if checked < 300 || refused == 0 {
		t.Errorf("only %d elements judged, %d refused", checked, refused)
	}
}

// plainCompile compiles kind k's effective schema with the library's
// defaults, asserting only the integer widths the contract's formats name.
func plainCompile(t *testing.T, k *schema.Kind) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for name, bits := range map[string]uint{"int64": 64, "int32": 32} {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(v any) error {
			n, ok := v.(json.Number)
			r, isNum := new(big.Rat).SetString(string(n))
			if !ok || !isNum || !r.IsInt() {
				return nil
			}
			limit := new(big.Int).Lsh(big.NewInt(1), bits-1)
			if r.Num().Cmp(limit) >= 0 || r.Num().Cmp(new(big.Int).Neg(limit)) < 0 {
				return fmt.Errorf("beyond %d bits", bits)
			}
			return nil
		}})
	}
	url := "https://example.invalid/" + k.ID + ".json"
	if err := c.AddResource(url, schema.EffectiveSchema(k)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
