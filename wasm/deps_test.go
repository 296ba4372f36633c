//go:build !js

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The page's WebAssembly is downloaded and compiled before the console
// takes input: it must not link what belongs to the worker or the server.
// The worker's must not link go-app. Neither links the command line's
// journal store (bbolt): it needs flock and mmap, which the browser lacks.
func TestWasmProgramsLinkOnlyWhatTheyNeed(t *testing.T) {
	for _, tc := range []struct {
		pkg       string
		forbidden []string
	}{
		{".", []string{
			"github.com/bulkdesk/bulkdesk/schema",
			"github.com/bulkdesk/bulkdesk/app/ingest",
			"github.com/bulkdesk/bulkdesk/app/review",
			"github.com/bulkdesk/bulkdesk/app/worker/jobs",
			"github.com/bulkdesk/bulkdesk/cmd/",
			"github.com/santhosh-tekuri/jsonschema",
			"github.com/xuri/excelize",
			"go.etcd.io/bbolt",
		}},
		{"./worker", []string{
			"github.com/maxence-charriere/go-app",
			"github.com/bulkdesk/bulkdesk/app/ui",
			"github.com/bulkdesk/bulkdesk/cmd/",
			"go.etcd.io/bbolt",
		}},
	} {
		cmd := exec.Command("go", "list", "-deps", tc.pkg)
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", tc.pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range tc.forbidden {
				if strings.HasPrefix(dep, f) {
					t.Errorf("the wasm of %s links %s", tc.pkg, dep)
				}
			}
		}
	}
}
