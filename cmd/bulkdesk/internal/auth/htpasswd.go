package auth

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"fmt"
	"os"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Users are the accounts of an htpasswd file: names with bcrypt hashes.
type Users struct {
	names  [][]byte
	hashes [][]byte
	// dummy is checked when the name is unknown, so that an unknown name
	// takes as long to refuse as a wrong password.
	dummy []byte
}

// LoadHtpasswd reads an htpasswd file of bcrypt hashes ("user:$2y$10$…",
// as htpasswd -B writes them). Blank lines and lines starting with # are
// skipped; any other line that is not a name and a bcrypt hash is an
// error naming the file and the line, as is a file without accounts.
func LoadHtpasswd(path string) (*Users, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the password file: %w", err)
	}
	u, err := ParseHtpasswd(b)
	if err != nil {
		return nil, fmt.Errorf("password file %s: %w", path, err)
	}
	return u, nil
}

// ParseHtpasswd reads the content of an htpasswd file (see LoadHtpasswd).
func ParseHtpasswd(content []byte) (*Users, error) {
	u := &Users{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(content))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hash, ok := strings.Cut(line, ":")
		if !ok || name == "" || !validName(name) {
			return nil, fmt.Errorf("line %d: not user:hash", n)
		}
		if seen[name] {
			return nil, fmt.Errorf("line %d: user %q appears twice", n, name)
		}
		seen[name] = true
		if !isBcrypt(hash) {
			return nil, fmt.Errorf("line %d: the hash of %q is not bcrypt ($2y$…, from htpasswd -B)", n, name)
		}
		if _, err := bcrypt.Cost([]byte(hash)); err != nil {
			return nil, fmt.Errorf("line %d: the hash of %q: %w", n, name, err)
		}
		u.names = append(u.names, []byte(name))
		u.hashes = append(u.hashes, []byte(hash))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	if len(u.names) == 0 {
		return nil, fmt.Errorf("no user:hash line")
	}
	// The dummy costs what the first account costs, so that refusing an
	// unknown name takes about as long as refusing a known one.
	cost, _ := bcrypt.Cost(u.hashes[0])
	dummy, err := bcrypt.GenerateFromPassword([]byte("no such user"), cost)
	if err != nil {
		return nil, fmt.Errorf("making the comparison hash: %w", err)
	}
	u.dummy = dummy
	return u, nil
}

// isBcrypt accepts the prefixes of bcrypt hashes: $2a$, $2b$ and $2y$
// (Apache's htpasswd writes $2y$; all three hash alike).
func isBcrypt(h string) bool {
	for _, p := range []string{"$2a$", "$2b$", "$2y$"} {
		if strings.HasPrefix(h, p) {
			return true
		}
	}
	return false
}

// Check reports whether password is the password of name. Every name is
// compared in constant time and an unknown name is checked against a
// dummy hash, so the time taken tells neither which names exist nor how
// much of one matched.
func (u *Users) Check(name, password string) bool {
	hash := u.dummy
	found := 0
	for i, n := range u.names {
		if subtle.ConstantTimeCompare(n, []byte(name)) == 1 {
			hash, found = u.hashes[i], 1
		}
	}
	ok := bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
	return ok && found == 1
}
