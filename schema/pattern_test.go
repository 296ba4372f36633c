package schema_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/bulkdesk/bulkdesk/schema"
)

// schemaPatterns returns every pattern the embedded schemas use.
func schemaPatterns(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("json", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatal("no schema files", err)
	}
	seen := map[string]bool{}
	var out []string
	re := regexp.MustCompile(`"pattern":\s*("(?:[^"\\]|\\.)*")`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			var p string
			if err := jsonUnmarshal(m[1], &p); err != nil {
				t.Fatal(err)
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// TestPatternEngineMatchesRE2 checks the fast matcher against RE2 on random
// strings drawn from the characters that matter to each pattern.
func TestPatternEngineMatchesRE2(t *testing.T) {
	alphabet := []rune("aZ09_-+~ '\u2019/\\.,:?()$\"#=!%&*<>;{@\r\n\t\u00a0\u2028\u3000\ufeffé")
	rng := rand.New(rand.NewPCG(3, 4))
	fast := 0
	for _, p := range schemaPatterns(t) {
		if _, _, f := schema.MatchPattern(p, ""); f {
			fast++
		}
		for range 3000 {
			n := rng.IntN(40)
			s := make([]rune, n)
			for i := range s {
				if rng.IntN(3) == 0 {
					s[i] = alphabet[rng.IntN(len(alphabet))]
				} else {
					s[i] = rune("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefgh"[rng.IntN(44)])
				}
			}
			got, want, _ := schema.MatchPattern(p, string(s))
			if got != want {
				t.Fatalf("pattern %s on %q: engine %v, RE2 %v", p, string(s), got, want)
			}
		}
	}
	if fast < 10 {
		t.Errorf("only %d patterns use the fast matcher", fast)
	}
}

func TestPatternSpaceIsECMASpace(t *testing.T) {
	p := `^[a-z\s]*$`
	for _, s := range []string{"a b", "a\u00a0b", "a\u2028b", "a\ufeffb"} {
		if got, _, _ := schema.MatchPattern(p, s); !got {
			t.Errorf("%q should match %s: ECMA-262 \\s includes Unicode spaces", s, p)
		}
	}
	if got, _, _ := schema.MatchPattern(`^\s$`, "\u200b"); got {
		t.Error("zero-width space is not white space in ECMA-262")
	}
}
