//go:build !js

package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The page's WebAssembly is downloaded and compiled before the console
// takes input: it must not link what belongs to the worker or the server.
// The first worker's is downloaded and compiled beside it, before the
// first file is read: it links neither go-app nor the HTTP client nor
// excelize, which are the second worker's (calling the API, writing
// workbooks). Neither links the command line's
// journal store (bbolt): it needs flock and mmap, which the browser lacks.
// The OpenAPI reader (schema/contract, YAML) is the contract program's
// alone: it is downloaded only when an operator loads a contract, so it
// links no other package of this module, and the others do not link it.
func TestWasmProgramsLinkOnlyWhatTheyNeed(t *testing.T) {
	const module = "github.com/bulkdesk/bulkdesk/"
	for _, tc := range []struct {
		pkg       string
		forbidden []string
		// ours, when set, lists the only packages of this module the
		// program may link besides itself.
		ours []string
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
			"gopkg.in/yaml.v3",
		}, nil},
		{"./worker", []string{
			"github.com/maxence-charriere/go-app",
			"github.com/bulkdesk/bulkdesk/app/ui",
			"github.com/bulkdesk/bulkdesk/app/bulkapi",
			"github.com/bulkdesk/bulkdesk/app/submission",
			"github.com/bulkdesk/bulkdesk/app/workbook",
			"github.com/bulkdesk/bulkdesk/app/worker/apijobs",
			"github.com/bulkdesk/bulkdesk/cmd/",
			"github.com/bulkdesk/bulkdesk/schema/contract",
			"github.com/xuri/excelize",
			"go.etcd.io/bbolt",
			"gopkg.in/yaml.v3",
			"net/http",
		}, nil},
		{"./apiworker", []string{
			"github.com/maxence-charriere/go-app",
			"github.com/bulkdesk/bulkdesk/app/ui",
			"github.com/bulkdesk/bulkdesk/cmd/",
			"github.com/bulkdesk/bulkdesk/schema/contract",
			"go.etcd.io/bbolt",
			"gopkg.in/yaml.v3",
		}, nil},
		{"./contract", []string{
			"github.com/maxence-charriere/go-app",
			"github.com/santhosh-tekuri/jsonschema",
			"github.com/xuri/excelize",
			"go.etcd.io/bbolt",
		}, []string{"github.com/bulkdesk/bulkdesk/schema/contract"}},
	} {
		cmd := exec.Command("go", "list", "-deps", tc.pkg)
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", tc.pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if tc.ours != nil && strings.HasPrefix(dep, module) && dep != module+"wasm/"+strings.TrimPrefix(tc.pkg, "./") && !slices.Contains(tc.ours, dep) {
				t.Errorf("the wasm of %s links %s", tc.pkg, dep)
			}
			for _, f := range tc.forbidden {
				if strings.HasPrefix(dep, f) {
					t.Errorf("the wasm of %s links %s", tc.pkg, dep)
				}
			}
		}
	}
}
