package auth

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Users are the accounts of an htpasswd file: names with bcrypt hashes.
type Users struct {
	names  [][]byte
	hashes [][]byte
	costs  []int // the cost of each hash
	// maxCost is the cost of the file's most expensive hash. pads holds a
	// hash of a password nobody has at each cost from the file's cheapest
	// to maxCost: an unknown name is compared with pads[maxCost], and a
	// name whose hash costs c < maxCost also with pads[c] … pads[maxCost-1].
	// bcrypt's work doubles with each step of cost, so every check does
	// the work of one hash at maxCost (2^c + 2^c + 2^(c+1) + … +
	// 2^(maxCost-1) = 2^maxCost) and its time tells no name from another,
	// known or not.
	maxCost int
	pads    map[int][]byte
	// compare is bcrypt's comparison; tests see through it which hashes
	// a check compares.
	compare func(hash, password []byte) error
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
	u := &Users{compare: bcrypt.CompareHashAndPassword}
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
		cost, err := bcrypt.Cost([]byte(hash))
		if err != nil {
			return nil, fmt.Errorf("line %d: the hash of %q: %w", n, name, err)
		}
		u.names = append(u.names, []byte(name))
		u.hashes = append(u.hashes, []byte(hash))
		u.costs = append(u.costs, cost)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	if len(u.names) == 0 {
		return nil, fmt.Errorf("no user:hash line")
	}
	u.maxCost = slices.Max(u.costs)
	u.pads = map[int][]byte{}
	for c := slices.Min(u.costs); c <= u.maxCost; c++ {
		pad, err := bcrypt.GenerateFromPassword([]byte("no such user"), c)
		if err != nil {
			return nil, fmt.Errorf("making the comparison hash of cost %d: %w", c, err)
		}
		u.pads[c] = pad
	}
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
// compared in constant time and every check does the work of the file's
// most expensive hash (see Users.pads), so the time taken tells neither
// which names exist nor how much of one matched.
func (u *Users) Check(name, password string) bool {
	ok, _ := u.verify(name, password)
	return ok
}

// verify is Check saying too whether the name is in the file, for the log
// and the metrics.
func (u *Users) verify(name, password string) (ok, known bool) {
	hash, cost := u.pads[u.maxCost], u.maxCost
	found := 0
	for i, n := range u.names {
		if subtle.ConstantTimeCompare(n, []byte(name)) == 1 {
			hash, cost, found = u.hashes[i], u.costs[i], 1
		}
	}
	pw := []byte(password)
	ok = u.compare(hash, pw) == nil
	for c := cost; c < u.maxCost; c++ {
		_ = u.compare(u.pads[c], pw) // only for the work: its answer is not used
	}
	return ok && found == 1, found == 1
}
