package contract_test

import (
	"encoding/json"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

// FuzzDerive holds Derive to its promise on any input: no panic, and
// either an error or schemas that are all valid JSON.
func FuzzDerive(f *testing.F) {
	f.Add(small("3.0.3", "      type: object\n      properties: {a: {type: string, nullable: true}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		targets := append(xTarget, contract.Target{Kind: "transfers", Method: "POST", Path: "/bulks/transfers"})
		c, err := contract.Derive("fuzz.yml", data, targets, contract.Options{KeepDescriptions: len(data)%2 == 0})
		if err != nil {
			if _, ok := err.(*contract.Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		for _, s := range c.Schemas {
			if !json.Valid(s.JSON) {
				t.Fatalf("%s: not JSON:\n%s", s.Kind, s.JSON)
			}
		}
	})
}
