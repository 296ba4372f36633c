package handoff

import (
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Contract is the contract in use in the first worker, which keeps it:
// the second validates with the same one.
type Contract struct {
	// Source is the contract an operator loaded; nil is the built-in one.
	Source *wire.ContractSource `json:"source,omitempty"`
	Strict bool                 `json:"strict,omitempty"`
	// Lang is the language the validator writes its messages in.
	Lang string `json:"lang,omitempty"`
}

// Validator builds the contract's validator. Every kind the source
// defines must compile: a schema that does not is refused now, not when
// an operator opens a file.
func (c Contract) Validator() (*schema.Validator, error) {
	src := c.Source
	o := schema.Options{Strict: c.Strict}
	if l, ok := lang.Parse(c.Lang); ok && l != lang.English {
		o.Language = l
	}
	if src == nil {
		if o == (schema.Options{}) {
			return schema.Default(), nil
		}
		return schema.NewValidatorFor(schema.Builtin(), o)
	}
	s := &schema.Source{Name: src.Name, Version: src.Version, Schemas: make(map[string][]byte, len(src.Schemas))}
	for k, js := range src.Schemas {
		s.Schemas[k] = js
	}
	v, err := schema.NewValidatorFor(s, o)
	if err != nil {
		return nil, lang.Errorf("%s cannot be used: %s", src.Name, err)
	}
	defined := 0
	for _, k := range schema.Kinds() {
		if _, ok := s.Schemas[k.ID]; !ok {
			continue
		}
		defined++
		if err := v.Has(k); err != nil {
			return nil, lang.Errorf("%s cannot be used: %s", src.Name, err)
		}
	}
	if defined == 0 {
		return nil, lang.Errorf("%s defines none of the console's bulks", src.Name)
	}
	return v, nil
}

// Name names the contract as a review says which one it checked with:
// "the built-in contract" or the file's name and version.
func (c Contract) Name() string {
	if c.Source == nil {
		return lang.Mark("the built-in contract")
	}
	if c.Source.Version != "" {
		return c.Source.Name + " (version " + c.Source.Version + ")"
	}
	return c.Source.Name
}
