package contract_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

func TestOtherReferences(t *testing.T) {
	js, _ := deriveSmall(t, "3.1.0", `
      type: object
      properties:
        a: {$ref: '#/components/schemas/U/properties/b'}
        c: {$ref: '#/components/parameters/P/schema'}
        d: {$ref: '#/components/schemas/Odd~1Name'}
    U:
      type: object
      properties:
        b: {type: integer}
    Odd/Name: {type: boolean}
  parameters:
    P:
      name: p
      in: query
      schema: {type: string, format: date}`, contract.Options{})
	wantIn(t, js, `"a": { "$ref": "#/$defs/U/properties/b" }`, `"c": { "$ref": "#/$defs/schema" }`, `"d": { "$ref": "#/$defs/Odd~1Name" }`,
		`"U": { "type": "object", "properties": { "b": { "type": "integer" } } }`,
		`"schema": { "type": "string", "format": "date" }`, `"Odd/Name": { "type": "boolean" }`)
}

// The package is compiled into a small WebAssembly module: it may use the
// standard library and yaml.v3, nothing else.
func TestImportsStayLight(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path != "gopkg.in/yaml.v3" && strings.Contains(strings.Split(path, "/")[0], ".") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
