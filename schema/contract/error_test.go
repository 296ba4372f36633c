package contract_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

// op builds a document whose /bulks/x operation has the given request
// body schema, indented by twelve spaces.
func op(schema string) string {
	return `openapi: 3.1.0
info: {title: Bad, version: "1"}
paths:
  /bulks/x:
    post:
      requestBody:
        content:
          application/json:
            schema:
` + schema + `
components:
  schemas:
    T: {type: string}
`
}

const schemaPlace = "/paths/~1bulks~1x/post/requestBody/content/application~1json/schema"

func TestBadInput(t *testing.T) {
	deep := "openapi: 3.1.0\nx: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n"
	cases := []struct {
		name, doc, place, msg string
	}{
		{"not yaml", "openapi: 3.1.0\npaths: {\n  a: [\n", "line 3", "not YAML or JSON"},
		{"not json", "{\"openapi\": \"3.1.0\",\n \"paths\": {]}", "line 1", "not YAML or JSON"},
		{"not a mapping", "- a\n- b\n", "", "not an OpenAPI 3.x document"},
		{"empty", "", "", "not an OpenAPI 3.x document"},
		{"no openapi", "swagger: '2.0'\npaths: {}\n", "", `no "openapi" version`},
		{"openapi 2", "openapi: 2.0.0\npaths: {}\n", "/openapi", `not an OpenAPI 3.x document: version "2.0.0"`},
		{"no target", "openapi: 3.0.0\npaths:\n  /bulks/y: {post: {}}\n", "/paths", "no bulk operations: looked for POST /bulks/x, PATCH /bulks/z"},
		{"no body", "openapi: 3.0.0\npaths:\n  /bulks/x: {post: {}}\n", "/paths/~1bulks~1x/post", "no application/json array body with items"},
		{"not json body", "openapi: 3.0.0\npaths:\n  /bulks/x: {post: {requestBody: {content: {text/csv: {schema: {}}}}}}\n", "/paths/~1bulks~1x/post/requestBody", "no application/json array body"},
		{"not array", op("              type: object"), schemaPlace + "/type", "no application/json array body with items"},
		{"no items", op("              type: array"), schemaPlace, "no application/json array body with items"},
		{"broken ref", op("              type: array\n              items: {$ref: '#/components/schemas/Nope'}"), schemaPlace + "/items/$ref", `"#/components/schemas/Nope"`},
		{"broken deep ref", op("              type: array\n              items: {properties: {a: {allOf: [{$ref: '#/components/schemas/Gone'}]}}}"), schemaPlace + "/items/properties/a/allOf/0/$ref", `broken $ref "#/components/schemas/Gone"`},
		{"broken body ref", "openapi: 3.0.0\npaths:\n  /bulks/x: {post: {requestBody: {$ref: '#/components/requestBodies/B'}}}\n", "/paths/~1bulks~1x/post/requestBody/$ref", "broken $ref"},
		{"external ref", op("              type: array\n              items: {$ref: 'common.yml#/components/schemas/T'}"), schemaPlace + "/items/$ref", `not understood: external reference "common.yml#/components/schemas/T"`},
		{"url ref", op("              type: array\n              items: {$ref: 'https://example.invalid/t.json'}"), schemaPlace + "/items/$ref", "not understood: external reference"},
		{"ref outside components", op("              type: array\n              items: {$ref: '#/paths'}"), schemaPlace + "/items/$ref", "is not to a component"},
		{"schema not a map", op("              type: array\n              items: 12"), schemaPlace + "/items", "a schema must be an object or a boolean"},
		{"duplicate key", op("              type: array\n              items: {type: string, type: integer}"), schemaPlace + "/items/type", "key given twice"},
		{"infinite number", op("              type: array\n              items: {maximum: .inf}"), schemaPlace + "/items/maximum", "no JSON form"},
		{"too deep", deep, "line 2", "nesting deeper than 64"},
	}
	targets := append(xTarget, contract.Target{Kind: "z", Method: "PATCH", Path: "/bulks/z"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := contract.Derive("bad.yml", []byte(c.doc), targets, contract.Options{})
			checkError(t, err, c.place, c.msg)
		})
	}
}

func checkError(t *testing.T, err error, place, msg string) {
	t.Helper()
	var e *contract.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a *contract.Error", err)
	}
	if e.File != "bad.yml" || e.Place != place || !strings.Contains(e.Msg, msg) {
		t.Errorf("got file %q place %q msg %q; want place %q and %q", e.File, e.Place, e.Msg, place, msg)
	}
	prefix := "bad.yml: "
	if place != "" {
		prefix += place + ": "
	}
	if !strings.HasPrefix(err.Error(), prefix) {
		t.Errorf("%q does not start with %q", err.Error(), prefix)
	}
}

func TestTooLarge(t *testing.T) {
	doc := make([]byte, 32<<20+1)
	copy(doc, "openapi: 3.1.0\n#")
	for i := 16; i < len(doc); i++ {
		doc[i] = 'x'
	}
	_, err := contract.Derive("bad.yml", doc, xTarget, contract.Options{})
	checkError(t, err, "", "larger than 32 MiB")
}

// An alias bomb: each level refers nine times to the one below, so
// expanded it would be 9^9 nodes. Neither yaml.v3 nor Derive may expand
// it; Derive stops at its bound on nodes visited.
func TestAliasBomb(t *testing.T) {
	_, err := contract.Derive("bad.yml", []byte(aliasBomb()), xTarget, contract.Options{})
	var e *contract.Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "its aliases expand it to over") || e.File != "bad.yml" {
		t.Fatalf("got %v, want the bound on the expanded document", err)
	}

	// Aliases within bounds are followed.
	ok := "openapi: 3.1.0\nshared:\n  s: &s {type: string, maxLength: 3}\n" +
		strings.TrimPrefix(op("              type: array\n              items: {type: object, properties: {a: *s, b: *s}}"), "openapi: 3.1.0\n")
	c, err := contract.Derive("ok.yml", []byte(ok), xTarget, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantIn(t, string(c.Schemas[0].JSON), `"a": { "type": "string", "maxLength": 3 }, "b": { "type": "string", "maxLength": 3 }`)
}

// aliasBomb is a contract whose schema is nine levels of nine aliases of
// the level below: 9^9 nodes once expanded, from a page of YAML.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("openapi: 3.1.0\nbomb:\n  l0: &l0 {type: string}\n")
	for i := 1; i <= 9; i++ {
		b.WriteString("  l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " {allOf: [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*l" + string(rune('0'+i-1)))
		}
		b.WriteString("]}\n")
	}
	b.WriteString(strings.TrimPrefix(op("              type: array\n              items: *l9"), "openapi: 3.1.0\n"))
	return b.String()
}

// BenchmarkAliasBomb is how long an alias bomb takes to be refused: the
// count of the expanded document is read before anything is derived.
func BenchmarkAliasBomb(b *testing.B) {
	doc := []byte(aliasBomb())
	for b.Loop() {
		if _, err := contract.Derive("bad.yml", doc, xTarget, contract.Options{}); err == nil {
			b.Fatal("the bomb was derived")
		}
	}
}
