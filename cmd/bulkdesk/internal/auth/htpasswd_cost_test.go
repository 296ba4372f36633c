package auth

import (
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestEveryNameCostsTheDearestHash holds every check, whatever the name,
// to the work of the file's most expensive hash: bcrypt's work doubles
// with each step of cost, so a check's work is the sum of 2^cost over the
// hashes it compares. Were an unknown name cheaper or dearer than a known
// one, its answer's time would tell which names exist.
func TestEveryNameCostsTheDearestHash(t *testing.T) {
	hashAt := func(password string, cost int) string {
		h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
		if err != nil {
			t.Fatal(err)
		}
		return string(h)
	}
	// The first line is the cheapest, as in the file that showed the
	// fault: the unknown names were compared at its cost.
	u, err := ParseHtpasswd([]byte(strings.Join([]string{
		"ada:" + hashAt("ada's", bcrypt.MinCost),
		"bob:" + hashAt("bob's", bcrypt.MinCost+2),
		"eve:" + hashAt("eve's", bcrypt.MinCost+1),
	}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	var costs []int
	u.compare = func(hash, password []byte) error {
		c, err := bcrypt.Cost(hash)
		if err != nil {
			t.Fatalf("compared with a hash that is not bcrypt: %v", err)
		}
		costs = append(costs, c)
		return bcrypt.CompareHashAndPassword(hash, password)
	}
	dearest := 1 << (bcrypt.MinCost + 2)
	for _, tc := range []struct {
		name, password string
		want           bool
	}{
		{"nobody", "ada's", false}, {"ada", "ada's", true}, {"ada", "wrong", false},
		{"bob", "bob's", true}, {"bob", "wrong", false}, {"eve", "eve's", true}, {"", "", false},
	} {
		costs = costs[:0]
		if got := u.Check(tc.name, tc.password); got != tc.want {
			t.Errorf("Check(%q, %q) = %v", tc.name, tc.password, got)
		}
		work := 0
		for _, c := range costs {
			work += 1 << c
		}
		if work != dearest {
			t.Errorf("%q compared hashes of costs %v: work %d, want %d, the dearest hash's", tc.name, costs, work, dearest)
		}
	}
	costs = costs[:0]
	u.Check("nobody", "x")
	if len(costs) != 1 || costs[0] != bcrypt.MinCost+2 {
		t.Errorf("an unknown name was compared at costs %v, want one hash at %d, the file's highest", costs, bcrypt.MinCost+2)
	}
}
