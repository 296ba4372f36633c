package schema_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
	"github.com/bulkdesk/bulkdesk/schema/contract/load"
)

// TestTheBuiltInSchemasAreDerived derives the reference contract's facts
// again and finds the committed schemas byte for byte: they are the
// generator's output, never edited by hand ("go generate ./schema").
func TestTheBuiltInSchemasAreDerived(t *testing.T) {
	data, err := os.ReadFile("contract/testdata/multi-bulks.yml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := load.Derive("contract/testdata/multi-bulks.yml", data, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Missing) != 0 || len(c.Schemas) != len(schema.Kinds()) {
		t.Fatalf("%d schemas, missing %v", len(c.Schemas), c.Missing)
	}
	for _, s := range c.Schemas {
		if got := schema.Builtin().Schemas[s.Kind]; !bytes.Equal(got, s.JSON) {
			t.Errorf("json/%s.json differs from what the contract derives: run go generate ./schema", s.Kind)
		}
	}
	if len(schema.Builtin().Schemas) != len(c.Schemas) {
		t.Errorf("json/ holds %d schemas, the contract %d", len(schema.Builtin().Schemas), len(c.Schemas))
	}
}

// TestANewerContractsFieldsKeepItsWords loads a contract whose transfers
// gained a field: that field shows the contract's own description, the
// fields Bulkdesk knows keep Bulkdesk's words, and the new field decides
// validity.
func TestANewerContractsFieldsKeepItsWords(t *testing.T) {
	src := fixture.NewerSource()
	v, err := schema.NewValidatorFor(src, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := schema.Lookup("transfers")
	words := map[string]string{}
	for _, f := range v.Fields(k) {
		words[f.Path] = f.Description
	}
	if words["reference"] != "The payer's own reference" || words["profileId"] == "Their words for the profile" || words["profileId"] == "" {
		t.Errorf("descriptions %q", words)
	}
	el, _, _ := schema.DecodeJSON([]byte(`{"requestBody": {"profileId": "1"}}`))
	if ps := v.ValidateElement(k, 0, el); len(ps) != 1 || ps[0].Pointer != "/requestBody/reference" || ps[0].Code != "required" {
		t.Errorf("problems %+v", ps)
	}
	sends, _ := schema.Lookup("sends")
	if err := v.Has(sends); err == nil || !strings.Contains(err.Error(), "newer.json has no sends bulk") {
		t.Errorf("sends: %v", err)
	}
}

// Every field a kind names as its identity is one of its fields.
func TestIdentityFieldsExist(t *testing.T) {
	for _, k := range schema.Kinds() {
		if len(k.Identity) == 0 {
			t.Errorf("%s names no identity field", k.ID)
		}
		fields := make(map[string]bool)
		for _, f := range schema.Default().Fields(k) {
			fields[f.Path] = true
		}
		for _, p := range k.Identity {
			if !fields[p] {
				t.Errorf("%s: identity field %s is not a field of the kind", k.ID, p)
			}
		}
	}
}
