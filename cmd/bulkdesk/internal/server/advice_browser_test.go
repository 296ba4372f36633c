//go:build !js

package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// TestTheReviewAdvisesWithoutRefusing reviews wires the API accepts but
// its documentation would not: a SEPA wire without a reference and a
// Faster Payments name with an ASCII apostrophe. Both are warnings that
// say why, and every wire counts as valid.
func TestTheReviewAdvisesWithoutRefusing(t *testing.T) {
	seeds, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "schema", "testdata", "valid", "outgoing_wire_transfers.json"))
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(seeds), `"description": "`, `"note": "`, 1)
	body = strings.Replace(body, `"Patel & Sons Ltd"`, `"O'Brien & Sons Ltd"`, 1)
	file := browsertest.WriteFile(t, "wires.json", []byte(body))

	b := browsertest.New(t)
	srv := startConsole(t, "/")
	b.Do(30*time.Second, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL))
	b.WaitFor(30*time.Second, "the console to start", browsertest.Interactive)
	b.Do(10*time.Second, browsertest.Pick("kind", "outgoing_wire_transfers"), chromedp.SetUploadFiles(chromedp.ID("request-file"), []string{file}))
	b.WaitFor(30*time.Second, "the validation result", browsertest.ReviewShown)

	got := counts(b)
	if got["count-invalid"] != "0" || got["count-errors"] != "0" || got["count-valid"] != "9" {
		t.Errorf("summary %v: every wire should be valid", got)
	}
	problems := browsertest.Eval[[]string](b, 5*time.Second, `[...document.querySelectorAll("#problems li")].map(li => li.textContent)`)
	joined := strings.Join(problems, "\n")
	for _, want := range []string{"a SEPA payment needs a reference of at most 35 characters", "\u2019"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning saying %q among\n%s", want, joined)
		}
	}
	b.ShootElement("#result", "advice-review.png")
	b.ShootElement("#problems", "advice-problems.png")
	b.AssertNoErrors()
}
