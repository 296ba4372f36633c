package auth_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"golang.org/x/crypto/bcrypt"
)

func htpasswd(t *testing.T, lines ...string) *auth.Users {
	t.Helper()
	u, err := auth.ParseHtpasswd([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func hash(t *testing.T, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

func TestUsersCheck(t *testing.T) {
	h2b := hash(t, "s3cret")
	h2y := "$2y$" + strings.TrimPrefix(hash(t, "other"), "$2a$")
	u := htpasswd(t, "# accounts", "", "ada:"+h2b, "bob:"+h2y)
	for _, tc := range []struct {
		name, password string
		want           bool
	}{
		{"ada", "s3cret", true}, {"bob", "other", true},
		{"ada", "other", false}, {"bob", "s3cret", false}, {"carol", "s3cret", false}, {"", "", false}, {"ad", "s3cret", false},
	} {
		if got := u.Check(tc.name, tc.password); got != tc.want {
			t.Errorf("Check(%q, %q) = %v", tc.name, tc.password, got)
		}
	}
}

func TestHtpasswdErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]string{
		"ada:" + hash(t, "x") + "\nbob\n":               "line 2",
		"ada:{SHA}abcdef\n":                             "line 1",
		"# nothing\n":                                   "no user:hash",
		"ada:$2y$10$short\n":                            "line 1",
		"ada:" + hash(t, "x") + "\nada:" + hash(t, "y"): "line 2",
	} {
		path := filepath.Join(dir, "users")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := auth.LoadHtpasswd(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %s and %q", content, err, path, want)
		}
	}
	missing := filepath.Join(dir, "absent")
	if _, err := auth.LoadHtpasswd(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
}
