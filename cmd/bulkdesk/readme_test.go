//go:build !js

package main

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTheREADMENamesEveryPackage holds the layout table of the
// repository's README to the packages: every package of the module,
// natively and for WebAssembly (where the workers' programs and the
// browser's stores build), is named in the table's first column, and the
// column names no package that is gone. A new package fails here until it
// has a row, or a place in one, saying what it holds.
func TestTheREADMENamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	named, err := layoutTable(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	packages := map[string]bool{}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, p := range modulePackages(t, env) {
			packages[p] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(packages)) {
		if !named[p] {
			t.Errorf("package %s is not in README.md's layout table: name it in a row's first column (`%s`), with what it holds", p, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(named)) {
		if !packages[p] {
			t.Errorf("README.md's layout table names `%s`, which is no package of the module (go list ./...)", p)
		}
	}
}

// modulePackages lists the module's packages as paths from its root, for
// the platform env sets.
func modulePackages(t *testing.T, env []string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Module.Path}}", "./...")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./... %v: %v", env, err)
	}
	var paths []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, module, _ := strings.Cut(line, " ")
		paths = append(paths, strings.TrimPrefix(strings.TrimPrefix(path, module), "/"))
	}
	return paths
}

var (
	layoutHeading = regexp.MustCompile(`(?m)^## Layout\n`)
	packageName   = regexp.MustCompile("`([^`]+)`")
)

// layoutTable returns the packages named in the first column of the
// table under "## Layout".
func layoutTable(readme string) (map[string]bool, error) {
	loc := layoutHeading.FindStringIndex(readme)
	if loc == nil {
		return nil, errors.New(`README.md has no table of packages under "## Layout"`)
	}
	named := map[string]bool{}
	inTable := false
	for _, line := range strings.Split(readme[loc[1]:], "\n") {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range packageName.FindAllStringSubmatch(cells[1], -1) {
			named[strings.TrimSuffix(m[1], "/")] = true
		}
	}
	if len(named) == 0 {
		return nil, errors.New(`README.md has no table of packages under "## Layout"`)
	}
	return named, nil
}

// TestTheGuidesPortalPageIsTheOneTested holds the example host page of
// EMBEDDING.md, the portal teams' guide, to the page the portal's browser
// tests run (portalPage), but for the console's address and the
// operator's token, which a portal fills in: the example works as
// written because it is what is tested.
func TestTheGuidesPortalPageIsTheOneTested(t *testing.T) {
	guide, err := os.ReadFile("EMBEDDING.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(guide), "\n## An example page\n")
	if !ok {
		t.Fatal(`EMBEDDING.md has no section "An example page"`)
	}
	_, example, ok := strings.Cut(section, "```html\n")
	if !ok {
		t.Fatal(`EMBEDDING.md's "An example page" shows no page in an html block`)
	}
	example, _, _ = strings.Cut(example, "```")
	want := strings.NewReplacer("{{console}}", "https://portal.example.com/console/", "{{token}}", "OPERATOR-BEARER-TOKEN").Replace(portalPage)
	if example != want {
		t.Errorf("EMBEDDING.md's example page differs from the page the browser tests run (portalPage in embed_browser_test.go):\n--- guide\n%s\n--- tested\n%s", example, want)
	}
}
