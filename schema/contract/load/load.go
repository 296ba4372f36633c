// Package load reads an API contract file for Bulkdesk's bulk kinds: it
// joins package contract, which derives element schemas from OpenAPI and
// knows nothing of the kinds, to package schema, which knows the kinds
// and validates. It is for native programs and tests; the console's
// reader gets its targets from the worker instead, so that its small
// WebAssembly module links neither package schema nor the validator.
package load

import (
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
)

// Targets are where a contract defines each of Bulkdesk's kinds.
func Targets() []contract.Target {
	var out []contract.Target
	for _, t := range schema.Targets() {
		out = append(out, contract.Target(t))
	}
	return out
}

// Derive derives every kind's element schema from an OpenAPI document.
func Derive(name string, data []byte, o contract.Options) (*contract.Contract, error) {
	return contract.Derive(name, data, Targets(), o)
}

// Source is what a Validator checks against, from a derived contract.
func Source(c *contract.Contract) *schema.Source {
	src := &schema.Source{Name: c.Source, Version: c.Version, Schemas: make(map[string][]byte, len(c.Schemas))}
	for _, s := range c.Schemas {
		src.Schemas[s.Kind] = s.JSON
	}
	return src
}
