//go:build !js

package wire_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// leafAllowed are the only packages outside the standard library that the
// protocol may link: the domain packages whose values travel in its
// messages (keyfields' key fields, money's amounts, reading's decisions)
// and what they link (lang, for reading's statements). A job
// implementation, the page, go-app, the HTTP client or another module
// here would travel into every program that speaks the protocol.
var leafAllowed = []string{
	"github.com/bulkdesk/bulkdesk/app/wire",
	"github.com/bulkdesk/bulkdesk/app/keyfields",
	"github.com/bulkdesk/bulkdesk/app/lang",
	"github.com/bulkdesk/bulkdesk/app/money",
	"github.com/bulkdesk/bulkdesk/app/reading",
}

// TestWireIsALeaf fails when app/wire links, natively or in WebAssembly,
// anything but the standard library and leafAllowed.
func TestWireIsALeaf(t *testing.T) {
	for where, env := range map[string][]string{"natively": nil, "in WebAssembly": {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
		cmd.Env = append(cmd.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", where, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if !slices.Contains(leafAllowed, dep) {
				t.Errorf("app/wire links %s %s: only the standard library and leafAllowed may travel with the protocol", dep, where)
			}
		}
	}
}
