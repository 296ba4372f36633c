package schema

import (
	"embed"
	"fmt"
	"strings"
	"sync"
)

// The built-in element schemas are derived from the reference contract by
// "go generate" (see generate.go) and embedded; they carry no words of the
// contract's, only its facts.
//
//go:embed json/*.json
var builtinFiles embed.FS

// A Source is the set of element schemas a Validator checks against: the
// built-in one, or a newer contract loaded at run time.
type Source struct {
	// Name says where the schemas come from: "built-in" or a file's name.
	Name string
	// Version is the contract's own version, when it gives one.
	Version string
	// Schemas holds each kind's element schema, as JSON, by kind id. A
	// kind it lacks cannot be checked with this source.
	Schemas map[string][]byte
}

// Builtin returns the schemas built into the program.
var Builtin = sync.OnceValue(func() *Source {
	s := &Source{Name: "built-in", Schemas: make(map[string][]byte)}
	entries, err := builtinFiles.ReadDir("json")
	if err != nil {
		panic(fmt.Sprintf("reading the built-in schemas: %v", err))
	}
	for _, e := range entries {
		data, err := builtinFiles.ReadFile("json/" + e.Name())
		if err != nil {
			panic(fmt.Sprintf("reading the built-in schema %s: %v", e.Name(), err))
		}
		s.Schemas[strings.TrimSuffix(e.Name(), ".json")] = data
	}
	return s
})

// IsBuiltin reports whether s is the program's own contract.
func (s *Source) IsBuiltin() bool { return s == nil || s == Builtin() }
