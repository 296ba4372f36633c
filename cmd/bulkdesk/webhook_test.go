package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vectorDir is where the openssl-computed signature vectors live.
var vectorDir = filepath.Join("..", "..", "app", "webhook", "testdata", "vectors")

func vectorFile(t *testing.T, vector, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorDir, vector, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// useKey puts the vector's key in an environment variable for the test.
func useKey(t *testing.T, vector string) {
	t.Helper()
	t.Setenv("BULKDESK_TEST_WEBHOOK_KEY", vectorFile(t, vector, "key"))
}

// TestWebhookVerifyVectors verifies every vector of app/webhook's
// directory, the ones added since too, which a script would have to
// list (webhook_vectors.txt signs the vectors it lists).
func TestWebhookVerifyVectors(t *testing.T) {
	dirs, err := os.ReadDir(vectorDir)
	if err != nil || len(dirs) == 0 {
		t.Fatal("no vectors", err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			useKey(t, d.Name())
			dir := filepath.Join(vectorDir, d.Name())
			code, out, errOut := runCLI(t, "webhook", "verify", "-key-env", "BULKDESK_TEST_WEBHOOK_KEY", "-skip-clock",
				"-headers", filepath.Join(dir, "headers"), "-body", filepath.Join(dir, "body"))
			if code != exitOK || errOut != "" || !strings.Contains(out, "verdict: accepted") || strings.Contains(out, "signed message (") {
				t.Errorf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}
