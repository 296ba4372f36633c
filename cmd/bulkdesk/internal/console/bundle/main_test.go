package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeFiles writes files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBundleLeavesOutFoldersAndGoFiles(t *testing.T) {
	web, wasm, out := t.TempDir(), t.TempDir(), t.TempDir()
	writeFiles(t, web, map[string]string{
		"console.css":      "body { color: black; }\n",
		"contrast_test.go": "package web_test\n",
		".hidden":          "x",
		"docs/review.png":  "\x89PNG, the README's picture",
	})
	writeFiles(t, wasm, map[string]string{"app.wasm": "\x00asm"})

	m, err := bundle(out, web, wasm)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range m.Files {
		names = append(names, f.Name)
	}
	if want := []string{"app.wasm", "console.css"}; !slices.Equal(names, want) {
		t.Errorf("bundled %q, want %q", names, want)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) == ".png" {
			t.Errorf("the bundle holds %s", e.Name())
		}
	}
}
