//go:build !js

package apikey_test

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/apikey"
)

const secret = "live-key-7f3a2c-do-not-show"

// keyFile writes content to a new file of the given mode.
func keyFile(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "api-key")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return path
}

func TestAKeyIsReadWithoutTheWhiteSpaceAroundIt(t *testing.T) {
	for name, content := range map[string]string{
		"alone":         secret,
		"final newline": secret + "\n",
		"CRLF":          secret + "\r\n",
		"spaces":        "  \t" + secret + " \n\n",
	} {
		t.Run(name, func(t *testing.T) {
			k, err := apikey.Read(keyFile(t, content, 0o600))
			if err != nil {
				t.Fatal(err)
			}
			if k.Value() != secret || k.IsZero() {
				t.Errorf("read %q", k.Value())
			}
		})
	}
	if k, err := apikey.Read(keyFile(t, secret, 0o400)); err != nil || k.Value() != secret {
		t.Errorf("a file its owner alone may read: %v", err)
	}
}

func TestAKeyFileIsRefusedWithWhatToDo(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, path string
		want       []string
	}{
		{"missing", filepath.Join(dir, "nowhere"), []string{"cannot be opened", "no such file"}},
		{"a folder", dir, []string{"not a regular file"}},
		{"empty", keyFile(t, "", 0o600), []string{"is empty"}},
		{"white space alone", keyFile(t, " \n\t\n", 0o600), []string{"is empty"}},
		{"two lines", keyFile(t, secret+"\nsecond-"+secret, 0o600), []string{"more than one line"}},
		{"readable by the group", keyFile(t, secret, 0o640), []string{"mode 0640, expected 0600", "chmod 600"}},
		{"readable by all", keyFile(t, secret, 0o644), []string{"mode 0644, expected 0600", "chmod 600"}},
		{"writable by others", keyFile(t, secret, 0o602), []string{"mode 0602, expected 0600", "chmod 600"}},
		{"too large", keyFile(t, strings.Repeat("k", 5000), 0o600), []string{"larger than"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, err := apikey.Read(c.path)
			if err == nil {
				t.Fatalf("accepted, key %q", k.Value())
			}
			msg := err.Error()
			if !k.IsZero() {
				t.Error("a refused file gave a key")
			}
			for _, want := range append(c.want, c.path) {
				if !strings.Contains(msg, want) {
					t.Errorf("%q lacks %q", msg, want)
				}
			}
			if strings.Contains(msg, secret) {
				t.Errorf("the error shows the key: %q", msg)
			}
		})
	}
}

func TestAKeyNeverPrints(t *testing.T) {
	k, err := apikey.Read(keyFile(t, secret, 0o600))
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	slog.New(slog.NewTextHandler(&log, nil)).Info("start", "key", k, "config", struct{ Key apikey.Key }{k})
	shown := fmt.Sprintf("%v %+v %#v %s %q", k, k, k, k, k) + log.String()
	if strings.Contains(shown, secret) {
		t.Errorf("the key shows: %s", shown)
	}
	if !strings.Contains(shown, "[redacted]") {
		t.Errorf("no mark of a key: %s", shown)
	}
}
