package main

import (
	"path/filepath"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestScript runs the command line's scripts, testdata/script/*.txt: each
// runs bulkdesk as an operator does and holds its output and exit status
// to what the script says. A script's name says what it describes; its
// comments say why.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Setup:               scriptSetup(t),
		Cmds:                scriptCommands,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// scriptSetup gives every script the sandbox's credentials, a journal of
// its own, the paths of the module's shared test data, and a name for the
// narrow no-break space French sets before a colon, which a script's
// text would hide.
func scriptSetup(t *testing.T) func(*testscript.Env) error {
	abs := func(rel string) string {
		p, err := filepath.Abs(rel)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	schemaDir, vectors := abs(filepath.Join("..", "..", "schema")), abs(filepath.Join("..", "..", "app", "webhook", "testdata", "vectors"))
	return func(e *testscript.Env) error {
		for _, kv := range [][2]string{
			{envAPIKey, sandbox.DefaultAPIKey},
			{envToken, sandbox.DefaultToken},
			{envJournal, filepath.Join(e.WorkDir, "journal.db")},
			{"SCHEMA", schemaDir},
			{"VECTORS", vectors},
			{"NNBSP", "\u202f"},
		} {
			e.Setenv(kv[0], kv[1])
		}
		// start passes this environment to the servers it starts.
		e.Values[startEnvKey{}] = append([]string(nil), e.Vars...)
		e.Values[serversKey{}] = map[string]*bgServer{}
		return nil
	}
}
