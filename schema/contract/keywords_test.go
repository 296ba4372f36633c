package contract_test

import (
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

var xTarget = []contract.Target{{Kind: "x", Method: "POST", Path: "/bulks/x"}}

// small builds a document whose bulk element is component T, given as YAML
// indented by six spaces.
func small(version, t string) []byte {
	return []byte(`openapi: ` + version + `
info: {title: Small, version: "1"}
paths:
  /bulks/x:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: array
              items:
                $ref: '#/components/schemas/T'
components:
  schemas:
    T:
` + t)
}

func deriveSmall(t *testing.T, version, schema string, o contract.Options) (string, []contract.Note) {
	t.Helper()
	c, err := contract.Derive("small.yml", small(version, schema), xTarget, o)
	if err != nil {
		t.Fatal(err)
	}
	return string(c.Schemas[0].JSON), c.Notes
}

func wantNote(t *testing.T, notes []contract.Note, place, action, text string) {
	t.Helper()
	for _, n := range notes {
		if n.Place == place && n.Action == action && strings.Contains(n.Text, text) && n.Kind == "x" {
			return
		}
	}
	t.Errorf("no note %s %q containing %q in %+v", action, place, text, notes)
}

func wantIn(t *testing.T, js string, parts ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(js), " ")
	for _, p := range parts {
		if !strings.Contains(flat, p) {
			t.Errorf("output lacks %s:\n%s", p, js)
		}
	}
}

func wantOut(t *testing.T, js string, parts ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(js), " ")
	for _, p := range parts {
		if strings.Contains(flat, p) {
			t.Errorf("output has %s:\n%s", p, js)
		}
	}
}

func TestNullable(t *testing.T) {
	js, notes := deriveSmall(t, "3.0.3", `
      type: object
      properties:
        a: {type: string, nullable: true}
        b: {type: [integer, "null"], nullable: true}
        c: {nullable: false, type: string}`, contract.Options{})
	wantIn(t, js, `"a": { "type": [ "string", "null" ] }`, `"b": { "type": [ "integer", "null" ] }`, `"c": { "type": "string" }`)
	wantOut(t, js, "nullable")
	wantNote(t, notes, "/components/schemas/T/properties/a/nullable", "translated", `"null"`)
	wantNote(t, notes, "/components/schemas/T/properties/c/nullable", "dropped", "default")
}

func TestBooleanExclusiveBounds(t *testing.T) {
	js, notes := deriveSmall(t, "3.0.3", `
      type: integer
      minimum: 0
      exclusiveMinimum: true
      maximum: 10.50
      exclusiveMaximum: false`, contract.Options{})
	wantIn(t, js, `"type": "integer", "exclusiveMinimum": 0, "maximum": 10.50 }`)
	wantOut(t, js, `"minimum"`, "true", "false")
	wantNote(t, notes, "/components/schemas/T/exclusiveMinimum", "translated", "minimum")
	wantNote(t, notes, "/components/schemas/T/exclusiveMaximum", "dropped", "default")

	// 3.1 numeric bounds are JSON Schema's own.
	js, notes = deriveSmall(t, "3.1.0", `
      type: number
      exclusiveMinimum: 0.5
      exclusiveMaximum: 1e3`, contract.Options{})
	wantIn(t, js, `"exclusiveMinimum": 0.5, "exclusiveMaximum": 1e3`)
	if len(notes) != 0 {
		t.Errorf("notes on numeric bounds: %v", notes)
	}
}

func TestReadOnly(t *testing.T) {
	js, notes := deriveSmall(t, "3.1.0", `
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        created: {type: integer, readOnly: false}
        stamp: {$ref: '#/components/schemas/Stamp'}
    Stamp: {type: integer, readOnly: true}`, contract.Options{})
	wantIn(t, js, `"required": [ "name" ]`, `"properties": { "name": { "type": "string" }, "created": { "type": "integer" } }`)
	wantOut(t, js, `"id"`, "readOnly")
	wantNote(t, notes, "/components/schemas/T/properties/id/readOnly", "dropped", `property "id" is read-only`)
	wantNote(t, notes, "/components/schemas/T/properties/created/readOnly", "dropped", "readOnly")
	wantNote(t, notes, "/components/schemas/Stamp/readOnly", "dropped", `property "stamp" is read-only`)
	wantOut(t, js, "stamp", "Stamp")
}

func TestDiscriminator(t *testing.T) {
	js, notes := deriveSmall(t, "3.1.0", `
      oneOf:
      - {type: object, properties: {kind: {const: a}}}
      - {type: object, properties: {kind: {const: b}}}
      discriminator:
        propertyName: kind`, contract.Options{})
	wantIn(t, js, `"oneOf": [`, `"const": "a"`, `"const": "b"`)
	wantOut(t, js, "discriminator", "propertyName")
	wantNote(t, notes, "/components/schemas/T/discriminator", "dropped", "oneOf still decides")
}

func TestExtensionsAndDropped(t *testing.T) {
	js, notes := deriveSmall(t, "3.1.0", `
      type: string
      x-internal-name: foo
      externalDocs: {url: "https://example.invalid"}
      xml: {name: t}
      writeOnly: true
      example: abc
      examples: [abc]
      title: A title
      description: Words
      summary: More words
      default: abc
      properties:
        n: {type: string, example: x}`, contract.Options{})
	wantIn(t, js, `"type": "string"`)
	wantOut(t, js, "x-internal", "externalDocs", "xml", "writeOnly", "example", "title", "escription", "summary", "default")
	wantNote(t, notes, "/components/schemas/T/x-internal-name", "dropped", "x-internal-name")
	wantNote(t, notes, "/components/schemas/T/externalDocs", "dropped", "externalDocs")
	wantNote(t, notes, "/components/schemas/T/xml", "dropped", "xml")
	wantNote(t, notes, "/components/schemas/T/writeOnly", "dropped", "writeOnly")
	wantNote(t, notes, "/components/schemas/T/examples", "dropped", "examples")
	wantNote(t, notes, "/components/schemas/T/example", "dropped", "2 examples dropped")
	if len(notes) != 6 {
		t.Errorf("want 6 notes (one for both examples, none for words): %+v", notes)
	}
}

func TestUnknownKeyword(t *testing.T) {
	js, notes := deriveSmall(t, "3.1.0", `
      type: string
      frobnicate: 3`, contract.Options{})
	wantOut(t, js, "frobnicate")
	wantNote(t, notes, "/components/schemas/T/frobnicate", "not understood", `"frobnicate"`)
}

func TestKeepDescriptions(t *testing.T) {
	doc := `
      title: Thing
      description: A thing.
      type: object
      default: {}
      properties:
        description: {type: string, description: "What it is <for> & why"}
        title: {type: string, title: Title}`
	js, notes := deriveSmall(t, "3.1.0", doc, contract.Options{KeepDescriptions: true})
	wantIn(t, js, `"title": "Thing", "description": "A thing.", "type": "object", "properties": { "description": { "type": "string", "description": "What it is <for> & why" }, "title": { "type": "string", "title": "Title" } }`)
	wantNote(t, notes, "/components/schemas/T/default", "dropped", "default")

	js, notes = deriveSmall(t, "3.1.0", doc, contract.Options{})
	wantIn(t, js, `"type": "object", "properties": { "description": { "type": "string" }, "title": { "type": "string" } }`)
	if len(notes) != 0 {
		t.Errorf("words dropped with notes: %v", notes)
	}
}

func TestNumbersAndValues(t *testing.T) {
	js, _ := deriveSmall(t, "3.1.0", `
      type: object
      properties:
        a: {type: number, minimum: 0x10, maximum: 1.10, multipleOf: .5}
        b: {enum: [1, "1", true, null, 2.50, {k: [x]}]}
        c: {const: "tab\tand \"quote\""}`, contract.Options{})
	wantIn(t, js, `"minimum": 16, "maximum": 1.10, "multipleOf": 0.5`,
		`"enum": [ 1, "1", true, null, 2.50, { "k": [ "x" ] } ]`, `"const": "tab\tand \"quote\""`)
}

func TestCyclicRefs(t *testing.T) {
	js, _ := deriveSmall(t, "3.1.0", `
      type: object
      properties:
        next: {$ref: '#/components/schemas/U'}
    U:
      type: array
      items: {$ref: '#/components/schemas/T'}`, contract.Options{})
	wantIn(t, js, `"$ref": "#/$defs/T"`, `"$ref": "#/$defs/U"`, `"$defs": { "T": {`, `"U": {`)
}

func TestJSONDocument(t *testing.T) {
	doc := `{
  "openapi": "3.1.0",
  "info": {"title": "Json", "version": "2"},
  "paths": {"/bulks/x": {"post": {"requestBody": {"content": {"application/json": {"schema": {
    "type": "array", "minItems": 1,
    "items": {"type": "object", "required": ["n"], "properties": {"n": {"$ref": "#/components/schemas/N"}}}
  }}}}}}},
  "components": {"schemas": {"N": {"type": "integer", "maximum": 1e2}}}
}`
	c, err := contract.Derive("x.json", []byte(doc), xTarget, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://bulkdesk.invalid/schema/x.json",
  "$comment": "Derived from Json 2: POST /bulks/x",
  "type": "object",
  "required": [
    "n"
  ],
  "properties": {
    "n": {
      "$ref": "#/$defs/N"
    }
  },
  "$defs": {
    "N": {
      "type": "integer",
      "maximum": 1e2
    }
  }
}
`
	if got := string(c.Schemas[0].JSON); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestMissingTarget(t *testing.T) {
	targets := append([]contract.Target{{Kind: "y", Method: "POST", Path: "/bulks/y"}, {Kind: "xput", Method: "PUT", Path: "/bulks/x"}}, xTarget...)
	c, err := contract.Derive("small.yml", small("3.1.0", "      type: object\n"), targets, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Schemas) != 1 || c.Schemas[0].Kind != "x" || len(c.Missing) != 2 || c.Missing[0].Kind != "y" || c.Missing[1].Kind != "xput" {
		t.Errorf("schemas %v, missing %v", c.Schemas, c.Missing)
	}
}
