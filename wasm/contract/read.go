package main

import (
	"encoding/json"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

// derived is contract.Contract with each schema as raw JSON rather than
// base64, so that the page receives JSON it can hand to the worker as is.
type derived struct {
	Source, OpenAPI, Title, Version string
	Schemas                         []derivedSchema
	Missing                         []contract.Target
	Notes                           []contract.Note
}

type derivedSchema struct {
	Kind, Endpoint string
	JSON           json.RawMessage
}

// read derives the element schemas of the targets from an OpenAPI file,
// keeping the contract's descriptions: a newer contract's fields have no
// words of the console's.
func read(name string, data []byte, targets []contract.Target) (*derived, error) {
	c, err := contract.Derive(name, data, targets, contract.Options{KeepDescriptions: true})
	if err != nil {
		return nil, err
	}
	d := &derived{Source: c.Source, OpenAPI: c.OpenAPI, Title: c.Title, Version: c.Version, Missing: c.Missing, Notes: c.Notes}
	for _, s := range c.Schemas {
		d.Schemas = append(d.Schemas, derivedSchema{s.Kind, s.Endpoint, s.JSON})
	}
	return d, nil
}

// reply is the message contract.js posts, as JSON text: {contract: …} or
// {error: "…"}, the error naming the file and the place.
func reply(d *derived, err error) string {
	var out struct {
		Contract *derived `json:"contract,omitempty"`
		Error    string   `json:"error,omitempty"`
	}
	if err != nil {
		out.Error = err.Error()
	} else {
		out.Contract = d
	}
	b, merr := json.Marshal(out)
	if merr != nil {
		return `{"error": "the contract could not be encoded"}`
	}
	return string(b)
}
