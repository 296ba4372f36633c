//go:build !js

package browsertest

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes data to a file name in a temporary directory of t, as
// an operator's file to choose, and returns its path.
func WriteFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
