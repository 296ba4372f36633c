package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/sandbox"
	"github.com/xuri/excelize/v2"
)

// The command line is described by the scripts of testdata/script. These
// helpers serve the Go tests that need what a script cannot express: a
// hook replaced, a fake API holding what the sandbox refuses, a check of
// every line of an output, a benchmark.

// runCLI runs bulkdesk in-process and returns its exit code and output.
func runCLI(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const transfersHeader = "profileId;source.id;source.type;destination.id;destination.type;currency;amount;description\n"

func transferLine(i int, amount string) string {
	return fmt.Sprintf("110321;%d;managed_accounts;%d;managed_cards;EUR;%s;Salary %d\n", 1000+i, 2000+i, amount, i)
}

// writeWorkbook writes a workbook whose sheets hold the given rows.
func writeWorkbook(t *testing.T, sheets map[string][][]any, order ...string) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, name := range order {
		if i == 0 {
			f.SetSheetName("Sheet1", name)
		} else {
			f.NewSheet(name)
		}
		for r, row := range sheets[name] {
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			if err := f.SetSheetRow(name, cell, &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

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

// runToTheEnd submits file (a CSV of transfers) and executes its one bulk
// to the end, going on past failures; it returns the bulk's id.
func runToTheEnd(t testing.TB, api, file string) string {
	t.Helper()
	code, out, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-format", "json", file)
	var chunks []entryJSON
	if err := json.Unmarshal([]byte(out), &chunks); code != exitOK || err != nil || len(chunks) != 1 {
		t.Fatalf("submit: %d %v %s", code, err, errOut)
	}
	id := chunks[0].BulkID
	if code, _, errOut := runCLI(t, "bulks", "execute", "-api-url", api, "-mode", "ON_FAILURE_CONTINUE", id); code != exitOK {
		t.Fatalf("execute: %s", errOut)
	}
	if code, out, errOut := runCLI(t, "bulks", "get", "-wait", "-api-url", api, id); code != exitOK || !strings.Contains(out, "PARTIALLY_COMPLETED") {
		t.Fatalf("get -wait: %d %s %s", code, out, errOut)
	}
	return id
}
