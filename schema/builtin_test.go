package schema_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
)

// TestTheBuiltInSchemasAreDerived derives the reference contract's facts
// again and finds the committed schemas byte for byte: they are the
// generator's output, never edited by hand ("go generate ./schema").
func TestTheBuiltInSchemasAreDerived(t *testing.T) {
	data, err := os.ReadFile("contract/testdata/multi-bulks.yml")
	if err != nil {
		t.Fatal(err)
	}
	var targets []contract.Target
	for _, tg := range schema.Targets() {
		targets = append(targets, contract.Target(tg))
	}
	c, err := contract.Derive("contract/testdata/multi-bulks.yml", data, targets, contract.Options{})
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
