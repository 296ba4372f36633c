//go:build !js

package browsertest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeScript is axe-core, the accessibility engine, as npm installs it
// beside this file (make test: npm ci in testdata/axe).
var axeScript = sync.OnceValues(func() (string, error) {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot tell where the browser tests' files are")
	}
	path := filepath.Join(filepath.Dir(here), "testdata", "axe", "node_modules", "axe-core", "axe.min.js")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading axe-core (npm ci in %s): %w", filepath.Dir(filepath.Dir(filepath.Dir(path))), err)
	}
	return string(data), nil
})

// NeedAxe skips the test when axe-core is not installed, or fails it
// under CI=true.
func NeedAxe(tb testing.TB) {
	tb.Helper()
	if _, err := axeScript(); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("axe-core is needed for the accessibility tests and CI=true: %v", err)
		}
		tb.Skipf("no axe-core: %v", err)
	}
}

// An axeViolation is one rule a page breaks, with the elements that
// break it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// AssertAccessible runs axe-core on the page as it stands (WCAG 2.1 A and
// AA rules, and axe's best practices) and fails the test with every
// violation, of any impact, naming the state of the page checked.
func (b *Browser) AssertAccessible(state string) {
	b.tb.Helper()
	script, err := axeScript()
	if err != nil {
		b.tb.Fatal(err)
	}
	// DevTools evaluation is not bound by the page's content security
	// policy, which refuses injected scripts.
	b.Do(30*time.Second, chromedp.Evaluate[chromedp.Void](`if (!window.axe) {`+script+`}`))
	out := Eval[string](b, 60*time.Second, `axe.run(document, {resultTypes: ["violations"], runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).then(r => JSON.stringify(r.violations))`)
	var violations []axeViolation
	if err := json.Unmarshal([]byte(out), &violations); err != nil {
		b.tb.Fatalf("reading axe-core's answer on %s: %v", state, err)
	}
	if len(violations) == 0 {
		return
	}
	var lines []string
	for _, v := range violations {
		for _, n := range v.Nodes[:min(len(v.Nodes), 3)] {
			lines = append(lines, fmt.Sprintf("  %s (%s) %v: %s", v.ID, v.Impact, n.Target, strings.ReplaceAll(n.Summary, "\n", " ")))
		}
		if len(v.Nodes) > 3 {
			lines = append(lines, fmt.Sprintf("  %s: and %d more elements", v.ID, len(v.Nodes)-3))
		}
	}
	b.tb.Errorf("%s breaks %d accessibility rules:\n%s", state, len(violations), strings.Join(lines, "\n"))
}
