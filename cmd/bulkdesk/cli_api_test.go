package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
)

// startSandboxCommand runs "bulkdesk sandbox" in-process on a free port
// and returns the standard API's base URL; the command stops with the test.
func startSandboxCommand(t testing.TB, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := interrupted
	interrupted = func() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runSandbox(append([]string{"-addr", "127.0.0.1:0", "-quiet"}, args...), nil, pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("sandbox exited %d", code)
			}
		case <-time.After(10 * time.Second):
			t.Error("the sandbox did not stop")
		}
		interrupted = old
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`standard API at (\S+),`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("sandbox said %q", line)
	}
	return m[1]
}

func useSandboxCredentials(t testing.TB) {
	t.Setenv(envAPIKey, sandbox.DefaultAPIKey)
	t.Setenv(envToken, sandbox.DefaultToken)
	t.Setenv(envJournal, filepath.Join(t.TempDir(), "journal.json"))
}

func TestSubmitAndRunABulkFromTheCommandLine(t *testing.T) {
	api := startSandboxCommand(t, "-ops-per-second", "100000")
	useSandboxCredentials(t)
	file := filepath.Join(t.TempDir(), "pay.json")
	if err := os.WriteFile(file, fixture.SampleBody(25, 4), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-part-size", "10", "-format", "json", file)
	if code != exitOK {
		t.Fatalf("submit exit %d: %s", code, errOut)
	}
	// The JSON names a bulk's share of the file as the text does: a part.
	if !strings.Contains(out, `"part": 3,`) || strings.Contains(out, `"chunk`) {
		t.Errorf("submit in JSON:\n%s", out)
	}
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); err != nil || len(chunks) != 3 {
		t.Fatalf("output %s: %v", out, err)
	}
	if chunks[2].FirstElement != 20 || chunks[2].Elements != 5 || chunks[2].BulkID == "" || !strings.HasPrefix(chunks[0].Ref, "bd-") {
		t.Errorf("chunks %+v", chunks)
	}
	// Again, the size given by its former flag, still accepted: nothing
	// new is sent, and the same bulks are named.
	code, out2, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-chunk-size", "10", "-format", "json", file)
	if code != exitOK || out2 != out || !strings.Contains(errOut, "already: part 1 was submitted") {
		t.Errorf("second submit: exit %d, %s\n%s", code, out2, errOut)
	}
	code, out, _ = runCLI(t, "bulks", "list", "-api-url", api, "-format", "json")
	if code != exitOK || strings.Count(out, `"bulkId"`) != 3 {
		t.Fatalf("list: %d %s", code, out)
	}
	first := chunks[0].BulkID
	if code, _, errOut := runCLI(t, "bulks", "pause", "-api-url", api, first); code != exitInvalid || !strings.Contains(errOut, "INVALID_STATE") || !strings.Contains(errOut, "request-ref") {
		t.Errorf("pausing a SUBMITTED bulk: %d %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "bulks", "execute", "-api-url", api, "-mode", "ON_FAILURE_CONTINUE", first); code != exitOK || !strings.Contains(out, "execute accepted") {
		t.Fatalf("execute: %d %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "bulks", "get", "-wait", "-api-url", api, first)
	if code != exitOK || !strings.Contains(out, "PARTIALLY_COMPLETED") || !strings.Contains(errOut, "10 of 10 operations done") {
		t.Errorf("get -wait: %d %s %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "bulks", "operations", "-status", "FAILED", "-all", "-api-url", api, first)
	if code != exitOK || !strings.Contains(out, "4         FAILED") || strings.Count(out, "\n") != 2 {
		t.Errorf("failed operations: %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "bulks", "cancel", "-api-url", api, chunks[1].BulkID); code != exitOK {
		t.Errorf("cancel: %s", errOut)
	}
	if code, out, _ := runCLI(t, "bulks", "get", "-api-url", api, chunks[1].BulkID); code != exitOK || !strings.Contains(out, "CANCELLED") {
		t.Errorf("after cancel: %s", out)
	}
	// -new-bulk makes new bulks of the same content, naming the old ones.
	code, out, errOut = runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-part-size", "10", "-new-bulk", file)
	if code != exitOK || !strings.Contains(errOut, "submitting again as a new bulk: part 1 was submitted") || strings.Contains(out, first) {
		t.Errorf("-new-bulk: %d %s %s", code, out, errOut)
	}
	if _, out, _ := runCLI(t, "bulks", "list", "-all", "-api-url", api, "-format", "json"); strings.Count(out, `"bulkId"`) != 6 {
		t.Errorf("after -new-bulk: %s", out)
	}
}

func TestSubmitRefusesInvalidFilesUnlessAskedToLeaveThemOut(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	body := strings.Replace(string(fixture.SampleBody(4)), `"currency":"EUR","amount":101`, `"currency":"euro","amount":101`, 1)
	file := writeFile(t, "pay.json", body)
	code, _, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, file)
	if code != exitInvalid || !strings.Contains(errOut, "1 of 4 elements are invalid; nothing was sent") || !strings.Contains(errOut, "element 1") {
		t.Fatalf("invalid file: %d %s", code, errOut)
	}
	if _, out, _ := runCLI(t, "bulks", "list", "-api-url", api); strings.Contains(out, "POST") {
		t.Fatalf("something was sent: %s", out)
	}
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-valid-only", file)
	if code != exitOK || !strings.Contains(errOut, "leaving out 1 invalid element: 1") || !strings.Contains(out, "3 operations") {
		t.Errorf("-valid-only: %d %s %s", code, out, errOut)
	}
}

func TestAPICommandsExplainBadUse(t *testing.T) {
	t.Setenv(envAPIKey, "")
	t.Setenv(envToken, "")
	t.Setenv(envAPIURL, "")
	file := writeFile(t, "pay.json", string(fixture.SampleBody(1)))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"submit", "-kind", "transfers", file}, "no API URL"},
		{[]string{"submit", "-kind", "transfers", "-api-url", "http://127.0.0.1:1/multi", file}, "no api-key"},
		{[]string{"submit", "-kind", "nope", file}, "unknown bulk kind"},
		{[]string{"bulks"}, "usage: bulkdesk bulks"},
		{[]string{"bulks", "get", "-api-url", "http://127.0.0.1:1/multi"}, "usage: bulkdesk bulks"},
		{[]string{"bulks", "frobnicate", "-api-url", "http://127.0.0.1:1/multi", "1"}, "no api-key"},
		{[]string{"sandbox", "-addr", "0.0.0.0:0"}, "not loopback"},
		{[]string{"sandbox", "-fail-share", "2"}, "fail share"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
	}
	t.Setenv(envAPIKey, "k")
	t.Setenv(envToken, "t")
	if code, _, errOut := runCLI(t, "bulks", "frobnicate", "-api-url", "http://127.0.0.1:1/multi", "1"); code != exitUsage || !strings.Contains(errOut, "unknown action") {
		t.Errorf("unknown action: %d %s", code, errOut)
	}
}

// TestSubmitReadsSpreadsheetsAsCheckDoes submits a semicolon CSV with
// amounts in major units and decimal commas: the problem of its bad row is
// named by its cell, and the bulk holds the exact minor-unit amounts.
func TestSubmitReadsSpreadsheetsAsCheckDoes(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	// The amounts' header is a plain word: the API's own path would say
	// minor units against the amounts' decimals (see ingest's units).
	file := writeFile(t, "pay.csv", "profileId;source.type;source.id;destination.type;destination.id;destinationAmount.currency;amount\n"+
		"110321;managed_accounts;1001;managed_cards;2001;EUR;1.234,56\n"+
		"110321;managed_accounts;1001;managed_cards;2002;EUR;7,50\n"+
		"110321;managed_accounts;1001;card;2003;EUR;1,00\n")
	code, _, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-amounts", "major", file)
	if code != exitInvalid || !strings.Contains(errOut, "pay!D4") || !strings.Contains(errOut, "nothing was sent") {
		t.Fatalf("invalid row: exit %d, %s", code, errOut)
	}
	// How the file is read is said before anything is sent.
	if !strings.Contains(errOut, "reading: amounts in MAJOR units: 10.50 is EUR 10.50, not EUR 0.10, as you chose.\nreading: decimal comma: 1.234,56.\n") {
		t.Errorf("submit does not say how it reads the file:\n%s", errOut)
	}
	// Units every amount agrees on are said too, not as chosen (the file
	// is still invalid: nothing is sent).
	_, _, errOut = runCLI(t, "submit", "-kind", "transfers", "-api-url", api, file)
	if !strings.Contains(errOut, "reading: amounts in MAJOR units") || strings.Contains(errOut, "as you chose") {
		t.Errorf("detected units:\n%s", errOut)
	}
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-amounts", "major", "-valid-only", "-format", "json", file)
	if code != exitOK {
		t.Fatalf("-valid-only: exit %d, %s", code, errOut)
	}
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); err != nil || len(chunks) != 1 || chunks[0].Elements != 2 {
		t.Fatalf("output %s: %v", out, err)
	}
	// The JSON of each chunk keeps how its file was read.
	if r := chunks[0].Reading; r == nil || r.Units.Value != "major" || r.Units.How != "flag" || r.Decimal.Value != "," {
		t.Errorf("the chunk's reading: %+v", r)
	}
	code, out, errOut = runCLI(t, "bulks", "operations", "-all", "-format", "json", "-api-url", api, chunks[0].BulkID)
	if code != exitOK {
		t.Fatalf("operations: %s", errOut)
	}
	for _, want := range []string{`\"amount\":123456`, `\"amount\":750`} {
		if !strings.Contains(out, want) {
			t.Errorf("operations lack %s:\n%s", want, out)
		}
	}
}
